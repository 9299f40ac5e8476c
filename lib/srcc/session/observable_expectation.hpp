#pragma once
// ⟨ψ|O|ψ⟩/⟨ψ|ψ⟩ of an MPO O (evolve --measure): columns LABEL_re and LABEL_im.
#include <memory>
#include <string>
#include <vector>

#include "srcc/session/observable.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

// `op` the operator's sites (internal form), `info` where it came from, `label` its column name
// (unique in the trajectory), `index` its place among the --measure operators (from 1).
template <class T>
std::unique_ptr<Observable<T>> expectation_value(std::vector<Tensor<T>> op, const TrainInfo& info, std::string label,
                                                 std::size_t index);

}  // namespace srcc
