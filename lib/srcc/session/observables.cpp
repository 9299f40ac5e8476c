#include "srcc/session/observables.hpp"

#include <algorithm>
#include <cctype>
#include <string>

#include "srcc/core/error.hpp"
#include "srcc/session/observable_expectation.hpp"
#include "srcc/session/observable_local.hpp"
#include "srcc/session/observable_overlap.hpp"

namespace srcc {

namespace {

// A name for a column from a train's group ("/H_MPO" → "H_MPO"), unique among `taken`.
std::string column_label(const TrainRef& ref, std::vector<std::string>& taken) {
  std::string base = ref.group.empty() ? ref.file : ref.group;
  base = base.substr(base.find_last_of('/') + 1);
  if (const auto dot = base.rfind(".h5"); dot != std::string::npos && dot + 3 == base.size()) base.resize(dot);
  std::string label;
  for (char c : base) label += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  if (label.empty()) label = "O";
  std::string unique = label;
  for (int k = 2; std::find(taken.begin(), taken.end(), unique) != taken.end(); ++k) unique = label + "_" + std::to_string(k);
  taken.push_back(unique);
  return unique;
}

}  // namespace

template <class T>
std::vector<std::unique_ptr<Observable<T>>> make_observables(const EvolveOptions& eo, const std::vector<TrainReader>& readers,
                                                             std::size_t first, TransferLog& log) {
  std::vector<std::unique_ptr<Observable<T>>> out;
  std::vector<std::string> labels;
  std::size_t next = first;
  for (std::size_t i = 0; i < eo.measure.size(); ++i, ++next)
    out.push_back(expectation_value(read_whole<T>(readers[next], log), readers[next].info(), column_label(eo.measure[i], labels), i + 1));
  if (eo.overlap) out.push_back(overlap_with(read_whole<T>(readers[next], log), readers[next].info()));
  if (eo.measure_site_ops.empty() && !eo.measure_entropy) return out;
  const TrainInfo& state = readers.at(first - 1).info();
  if (!eo.measure_site_ops.empty()) {
    const StateOperators ops = state_operators(eo.site, eo.measure_site_ops, state);
    for (std::size_t i = 0; i < ops.ops.size(); ++i) {
      if (ops.ops[i].fermionic)
        throw UsageError(eo.measure_site_ops[i] + " is odd in fermions: its expectation in a state of definite parity is 0");
      out.push_back(site_operator<T>(ops.ops[i], column_label(TrainRef{"", eo.measure_site_ops[i]}, labels),
                                     state.length()));
    }
  }
  if (eo.measure_entropy) out.push_back(bond_entropy<T>(state.length()));
  return out;
}

#define SRCC_INSTANTIATE(T)                                                                                    \
  template std::vector<std::unique_ptr<Observable<T>>> make_observables(const EvolveOptions&,                  \
                                                                        const std::vector<TrainReader>&,      \
                                                                        std::size_t, TransferLog&);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
