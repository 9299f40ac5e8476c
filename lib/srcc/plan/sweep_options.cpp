#include "srcc/plan/sweep_options.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

#include "srcc/core/error.hpp"
#include "srcc/core/options.hpp"

namespace srcc {

std::size_t SweepOptions::sketch_columns() const {
  if (chi == 0) return 0;
  if (!oversampling()) return chi;
  const auto scaled = static_cast<std::size_t>(std::ceil(oversample * static_cast<double>(chi)));
  return std::max(scaled, chi + 10);
}

namespace {

bool oversample_in_range(double f) { return f >= 1.0 && f <= kMaxOversample; }
UsageError oversample_error(const std::string& got) {
  return UsageError(opt::kOversample.name() + ": the factor must be a number in [1, " +
                    std::to_string(static_cast<int>(kMaxOversample)) + "], got " + got);
}

}  // namespace

double parse_oversample(const std::string& text) {
  if (text.empty()) return 0.0;
  double f = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), f);
  if (ec != std::errc() || end != text.data() + text.size() || !oversample_in_range(f))
    throw oversample_error("'" + text + "'");
  return f;
}

void validate(const SweepOptions& o) {
  const bool chi_required = method_row(o.method).chi_required;
  // The values first (a NaN tolerance is not "no tolerance"), then what they require.
  if (!(o.cutoff >= 0.0 && o.cutoff < 1.0))
    throw UsageError(opt::kCutoff.name() + ": must be in [0, 1) (got " +
                     std::to_string(o.cutoff) + ")");
  if (!(o.tol >= 0.0 && o.tol < 1.0))
    throw UsageError(opt::kTol.name() + ": must be in (0, 1) (got " + std::to_string(o.tol) + ")");
  if (o.chi > kMaxChi)
    throw UsageError(opt::kChi.name() + ": at most " + std::to_string(kMaxChi) + " (got " +
                     std::to_string(o.chi) + ")");
  if (chi_required && !o.tolerance_mode() && o.chi < 1)
    throw UsageError(opt::kChi.name() + ": required (>= 1) unless --tol is given");
  if (!chi_required && o.chi < 1 && !o.tolerance_mode() && o.cutoff <= 0)
    throw UsageError(opt::kChi.name() + ": required (>= 1) unless --tol or --cutoff is given");
  if (o.oversample != 0.0 && !oversample_in_range(o.oversample))
    throw oversample_error(std::to_string(o.oversample));
  if (o.oversampling() && o.chi == 0 && !o.tolerance_mode())
    throw UsageError(opt::kOversample.name() + ": needs --chi or --tol");
  if (!method_row(o.method).takes_tol && o.tolerance_mode())
    throw UsageError(opt::kMethod.name() + " " + method_name(o.method) + ": no rank estimate to grow its sketch by; "
                     "with --tol use src or sdc");
  if (!(o.fit_tol >= 0.0 && o.fit_tol < 1.0))
    throw UsageError(opt::kFitTol.name() + ": must be in (0, 1) (got " + std::to_string(o.fit_tol) + ")");
  if (o.fit_sweeps > 1000)
    throw UsageError(opt::kFitSweeps.name() + ": at most 1000 (got " + std::to_string(o.fit_sweeps) + ")");
  if (o.block_start < 1 || o.block_start > kMaxChi)
    throw UsageError(opt::kBlockStart.name() + ": must be in [1, " + std::to_string(kMaxChi) +
                     "]");
  if (o.block_step < 1 || o.block_step > kMaxChi)
    throw UsageError(opt::kBlockStep.name() + ": must be in [1, " + std::to_string(kMaxChi) +
                     "]");
}

}  // namespace srcc
