#pragma once
// The observables an evolution's options ask for, in the trajectory's order: one row per kind
// (--measure operators, then the --overlap reference, each read whole in type T; then the
// --measure-site-op operators, then --measure-entropy).
#include <memory>
#include <vector>

#include "srcc/io/train_reader.hpp"
#include "srcc/session/evolve_options.hpp"
#include "srcc/session/observable.hpp"

namespace srcc {

// `readers[first …]`: the observables' trains, in the order evolve opened them (input_refs);
// `readers[first − 1]` the state.
template <class T>
std::vector<std::unique_ptr<Observable<T>>> make_observables(const EvolveOptions& eo, const std::vector<TrainReader>& readers,
                                                             std::size_t first, TransferLog& log);

}  // namespace srcc
