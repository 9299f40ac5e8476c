#pragma once
// Axis permutation: the only paid copy between layouts. out.shape[i] = in.shape[perm[i]].
#include <vector>

#include "srcc/core/tensor.hpp"

namespace srcc {

template <class T> Tensor<T> permute(const Tensor<T>& in, const std::vector<std::size_t>& perm);

// True when `perm` only moves axes of size 1, so the permutation is a free reshape.
bool permutation_is_reshape(const Shape& shape, const std::vector<std::size_t>& perm);

}  // namespace srcc
