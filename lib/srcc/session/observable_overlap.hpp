#pragma once
// ⟨ref|ψ⟩ with a reference MPS (evolve --overlap), not normalised: columns overlap_re and
// overlap_im.
#include <memory>
#include <vector>

#include "srcc/session/observable.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

template <class T> std::unique_ptr<Observable<T>> overlap_with(std::vector<Tensor<T>> reference, const TrainInfo& info);

}  // namespace srcc
