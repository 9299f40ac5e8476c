#include "srcc/session/symmetric_run.hpp"

#include <cmath>

#include "srcc/core/error.hpp"
#include "srcc/core/options.hpp"
#include "srcc/io/train_reader.hpp"
#include "srcc/symmetric/charged_stack.hpp"
#include "srcc/symmetric/symmetric_sweep.hpp"

namespace srcc {

Symmetry parse_symmetry(const std::string& text) {
  if (text == "auto") return Symmetry::kAuto;
  if (text == "off") return Symmetry::kOff;
  throw UsageError(opt::kSymmetry.name() + " " + text + ": auto or off");
}

namespace {

std::string rule_name(const ChargeRule& r) {
  std::string s;
  for (long long m : r.moduli) s += (s.empty() ? "" : "×") + (m <= 1 ? std::string("U(1)") : "Z" + std::to_string(m));
  return s;
}

// Why the run cannot compute on charges, whatever the inputs ("" when it can).
std::string unsupported(const RunOptions& o, std::size_t terms) {
  const SweepOptions& s = o.sweep;
  if (terms > 1) return "a sum of --term products";
  if (o.exec.device.gpu) return "a run on the GPU";
  if (s.method != Method::kSrc && s.method != Method::kSvd) return opt::kMethod.name() + " " + method_name(s.method);
  if (s.method == Method::kSrc && s.tolerance_mode()) return opt::kTol.name();
  if (s.fit_sweep_cap() > 0) return opt::kFitSweeps.name();
  return "";
}

}  // namespace

SymmetryChoice choose_symmetry(const RunOptions& o, const std::vector<const Stack*>& stacks) {
  SymmetryChoice c;
  if (o.symmetry == Symmetry::kOff || stacks.empty()) return c;
  const Stack& st = *stacks.front();
  std::vector<std::string> plain;
  for (const auto& layer : st.layers) {
    auto q = train_charges(layer);
    if (q) c.layers.push_back(std::move(*q));
    else plain.push_back(layer.where());
  }
  if (c.layers.empty()) return c;  // nothing charged: nothing to say
  c.name = rule_name(c.layers.front().rule);
  const std::string why = unsupported(o, stacks.size());
  std::string reason;
  if (!plain.empty()) reason = plain.front() + " carries no charges";
  else if (!why.empty()) reason = why + " is not computed on charges yet";
  else reason = charges_compatible(c.layers);
  if (!reason.empty()) {
    c.note = "the inputs' " + c.name + " charges are not kept: " + reason + "; the run is dense (" +
             opt::kSymmetry.name() + " off says so without this note)";
    c.layers.clear();
    return c;
  }
  c.keep = true;
  return c;
}

template <class T>
SymmetricOutcome<T> symmetric_run(const Stack& stack, SiteSource<T>& source, const SymmetryChoice& choice,
                                  const SweepOptions& o, Backend& backend, Reporter& reporter,
                                  const std::function<void()>& check_interrupt) {
  Kernels<T>& K = backend.kernels<T>();
  std::vector<std::string> where;
  for (const auto& l : stack.layers) where.push_back(l.where());
  const ChargedStack<T> st = charged_stack(K, source, stack.length(), choice.layers, where);
  SymmetricOutcome<T> out;
  out.charges.rule = st.rule;
  out.charges.up = choice.layers.front().up;
  out.charges.down = choice.layers.back().down;
  std::vector<BlockTensor<T>> cores;
  if (o.method == Method::kSvd) {
    std::vector<BlockTensor<T>> train = st.sites.front();
    for (std::size_t j = 0; j < train.size(); ++j)
      train[j].labels = {axis::kCoreL, axis::kCoreR, axis::kCoreU, axis::kCoreD};
    std::vector<double> truncated;
    cores = symmetric_truncate(K, std::move(train), o.chi, o.cutoff, o.tol, o.numerical_zeros, truncated, st.rule, false);
    SweepResult<T>& r = out.result;
    r.kind = stack.result_kind();
    r.sites.assign(cores.size(), SiteStats{});
    for (const auto& c : cores) r.cores.push_back(dense_of_blocks(K, c));
    for (std::size_t j = 1; j < cores.size(); ++j) r.sites[j].truncation_error = r.sites[j].error_estimate = truncated[j];
    r.finish_sites();
  } else {
    ChargedResult<T> res = symmetric_sweep(st, stack.result_kind(), o, K, reporter, check_interrupt);
    out.result = std::move(res.sweep);
    cores = std::move(res.cores);
  }
  for (const auto& c : cores) out.max_sectors = std::max(out.max_sectors, c.legs[1].sectors());
  return out;
}

#define SRCC_INSTANTIATE(T)                                                                                  \
  template SymmetricOutcome<T> symmetric_run(const Stack&, SiteSource<T>&, const SymmetryChoice&,            \
                                             const SweepOptions&, Backend&, Reporter&,                       \
                                             const std::function<void()>&);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
