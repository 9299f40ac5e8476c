#include "srcc/plan/sweep_options.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "srcc/core/error.hpp"

namespace srcc {

std::size_t SweepOptions::sketch_columns() const {
  if (chi == 0) return 0;
  if (!oversampling()) return chi;
  const auto scaled = static_cast<std::size_t>(std::ceil(oversample * static_cast<double>(chi)));
  return std::max(scaled, chi + 10);
}

void validate(const SweepOptions& o, bool chi_required) {
  if (chi_required && !o.tolerance_mode() && o.chi < 1)
    throw UsageError("--chi: required (>= 1) unless --tol is given");
  if (!(o.cutoff >= 0.0 && o.cutoff < 1.0))
    throw UsageError("--cutoff: must be in [0, 1) (got " + std::to_string(o.cutoff) + ")");
  if (!(o.tol >= 0.0 && o.tol < 1.0))
    throw UsageError("--tol: must be in (0, 1) (got " + std::to_string(o.tol) + ")");
  if (o.oversample != 0.0 && !(o.oversample >= 1.0 && std::isfinite(o.oversample)))
    throw UsageError("--oversample: factor must be >= 1 (got " + std::to_string(o.oversample) +
                     ")");
  if (o.oversampling() && o.chi == 0 && !o.tolerance_mode())
    throw UsageError("--oversample: needs --chi or --tol");
  if (o.block_start < 1) throw UsageError("--block-start: must be >= 1");
  if (o.block_step < 1) throw UsageError("--block-step: must be >= 1");
}

}  // namespace srcc
