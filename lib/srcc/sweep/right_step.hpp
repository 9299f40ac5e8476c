#pragma once
// The right sweep's block: Z'[(b, x_0, x_k), L] of site j from S[b, R] (docs/ALGORITHM.md).
#include <cstddef>
#include <vector>

#include "srcc/backend/backend.hpp"
#include "srcc/movement/devices.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

// Z' for the `b` rows of `s_env` (S[b, R_0..R_{k-1}]), with `w[i]` layer i's site j in its
// right-step form. Given `norm`, also returns ‖Z'‖ (from the products that store it).
template <class T>
Buffer<T> right_block(typename Devices<T>::Ctx c, const Stack& st, std::size_t j,
                      const std::vector<Buffer<T>>& w, const Buffer<T>& s_env, std::size_t b,
                      double* norm = nullptr);

}  // namespace srcc
