#include "srcc/session/symmetric_run.hpp"

#include <cmath>
#include <memory>

#include "srcc/core/error.hpp"
#include "srcc/core/options.hpp"
#include "srcc/io/train_reader.hpp"
#include "srcc/sweep/rank_exchange.hpp"
#include "srcc/symmetric/charged_stack.hpp"
#include "srcc/symmetric/charged_truncation.hpp"
#include "srcc/symmetric/env_parking.hpp"
#include "srcc/symmetric/symmetric_sweep.hpp"

namespace srcc {

Symmetry parse_symmetry(const std::string& text) {
  if (text == "auto") return Symmetry::kAuto;
  if (text == "off") return Symmetry::kOff;
  throw UsageError(opt::kSymmetry.name() + " " + text + ": auto or off");
}

namespace {

// Why the run cannot compute on charges, whatever the inputs ("" when it can).
std::string unsupported(const RunOptions& o) {
  const SweepOptions& s = o.sweep;
  if (o.exec.device.gpu && o.exec.device.ids.size() > 1) return "a run on several GPUs";
  if (s.method == Method::kSvd && s.fit_sweep_cap() > 0) return opt::kFitSweeps.name() + " after truncate";
  return "";
}

// Whether the terms of a sum meet the same physical legs: "" when they do, else why not.
std::string terms_compatible(const std::vector<std::vector<PhysicalCharges>>& terms) {
  const auto& a = terms.front();
  for (std::size_t k = 1; k < terms.size(); ++k) {
    const auto& b = terms[k];
    if (b.front().rule.moduli != a.front().rule.moduli) return "terms 1 and " + std::to_string(k + 1) + " conserve different charges";
    if (b.front().up != a.front().up || b.back().down != a.back().down)
      return "the physical charges of terms 1 and " + std::to_string(k + 1) + " differ";
  }
  return "";
}

}  // namespace

SymmetryChoice choose_symmetry(const RunOptions& o, const std::vector<std::vector<LayerCharges>>& terms) {
  SymmetryChoice c;
  if (o.symmetry == Symmetry::kOff || terms.empty()) return c;
  std::vector<std::string> plain;
  bool any = false;
  for (const auto& term : terms) {
    std::vector<PhysicalCharges> layers;
    for (const auto& layer : term) {
      if (layer.charges) {
        layers.push_back(*layer.charges);
        any = true;
      } else {
        plain.push_back(layer.where);
      }
    }
    c.terms.push_back(std::move(layers));
  }
  if (!any) {  // nothing charged: nothing to say
    c.terms.clear();
    return c;
  }
  for (const auto& t : c.terms)
    if (!t.empty()) c.name = t.front().rule.name();
  const std::string why = unsupported(o);
  std::string reason;
  if (!plain.empty()) reason = plain.front() + " carries no charges";
  else if (!why.empty()) reason = why + " is not computed on charges yet";
  for (std::size_t k = 0; k < c.terms.size() && reason.empty(); ++k) reason = charges_compatible(c.terms[k]);
  if (reason.empty()) reason = terms_compatible(c.terms);
  if (!reason.empty()) {
    c.note = "the inputs' " + c.name + " charges are not kept: " + reason + "; the run is dense (" +
             opt::kSymmetry.name() + " off says so without this note)";
    c.terms.clear();
    return c;
  }
  c.keep = true;
  return c;
}

std::string plan_symmetry_note(const SymmetryChoice& choice) {
  if (!choice.keep) return choice.note;
  return "computed on the inputs' " + choice.name + " charges: the plan below is the dense run's; its environments are the "
         "charged run's size (dense in the sketch column) and wait where the plan puts them, its other memory and its flops a bound";
}

SymmetryChoice choose_symmetry(const RunOptions& o, const std::vector<const Stack*>& stacks) {
  std::vector<std::vector<LayerCharges>> terms;
  if (o.symmetry == Symmetry::kOff) return {};
  for (const Stack* st : stacks) {
    terms.emplace_back();
    for (const auto& layer : st->layers) terms.back().push_back({train_charges(layer), layer.where()});
  }
  return choose_symmetry(o, terms);
}

template <class T>
SymmetricOutcome<T> symmetric_run(const std::vector<SymmetricInput<T>>& inputs, const SymmetryChoice& choice,
                                  const SweepOptions& o, Backend& backend, Reporter& reporter,
                                  const std::function<void()>& check_interrupt, RankExchange* ranks, ResultNeeds needs,
                                  TransferLog* log) {
  Kernels<T>& K = backend.kernels<T>();
  // Over ranks a rank reads only its own terms' sites.
  std::vector<ChargedStack<T>> stacks(inputs.size());
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    if (ranks && !ranks->mine(k)) continue;
    std::vector<std::string> where;
    for (const auto& l : inputs[k].stack->layers) where.push_back(l.where());
    stacks[k] = charged_stack(K, *inputs[k].source, inputs[k].stack->length(), choice.terms[k], where);
  }
  const Stack& first = *inputs.front().stack;
  SymmetricOutcome<T> out;
  out.charges.rule = choice.terms.front().front().rule;
  out.charges.up = choice.terms.front().front().up;
  out.charges.down = choice.terms.front().back().down;
  std::vector<BlockTensor<T>> cores;
  if (o.method == Method::kSvd) {
    std::vector<BlockTensor<T>> train = stacks.front().sites.front();
    for (auto& site : train) site.labels = {axis::kCoreL, axis::kCoreR, axis::kCoreU, axis::kCoreD};
    std::vector<double> truncated;
    SchmidtForm schmidt;
    cores = symmetric_truncate(K, std::move(train), o.chi, o.cutoff, o.tol, o.numerical_zeros, truncated,
                               stacks.front().rule, false, needs.schmidt ? &schmidt : nullptr);
    if (needs.schmidt) out.schmidt = std::move(schmidt);
    SweepResult<T>& r = out.result;
    r.kind = first.result_kind();
    r.sites.assign(cores.size(), SiteStats{});
    for (std::size_t j = 1; j < cores.size(); ++j) r.sites[j].truncation_error = r.sites[j].error_estimate = truncated[j];
    finish_result(r, cores, K, needs.dense);
  } else {
    std::vector<ChargedTerm<T>> terms;
    std::vector<std::unique_ptr<EnvParking<T>>> parking(inputs.size());
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      const bool mine = !ranks || ranks->mine(k);
      if (mine && log && inputs[k].plan && EnvParking<T>::needed(*inputs[k].plan))
        parking[k] = std::make_unique<EnvParking<T>>(K, backend.name(), *log, *inputs[k].plan);
      terms.push_back({mine ? &stacks[k] : nullptr, inputs[k].weight, parking[k].get()});
    }
    ChargedResult<T> res = symmetric_sweep(terms, first.result_kind(), o, K, reporter, check_interrupt, ranks, needs);
    out.schmidt = std::move(res.schmidt);
    out.result = std::move(res.sweep);
    cores = std::move(res.cores);
  }
  for (const auto& c : cores) out.max_sectors = std::max(out.max_sectors, c.legs[1].sectors());
  out.blocks = std::move(cores);
  return out;
}

#define SRCC_INSTANTIATE(T)                                                                                  \
  template SymmetricOutcome<T> symmetric_run(const std::vector<SymmetricInput<T>>&, const SymmetryChoice&,  \
                                             const SweepOptions&, Backend&, Reporter&,                       \
                                             const std::function<void()>&, RankExchange*, ResultNeeds, TransferLog*);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
