#pragma once
// The left sweep's step: the sketched environment C_{j+1} from C_j (docs/ALGORITHM.md).
#include <cstddef>
#include <vector>

#include "srcc/backend/backend.hpp"
#include "srcc/movement/devices.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

// C_{j+1}[a, R_0..R_{k-1}] for `s` sketch columns, written into `out` (s × fused_right(j)
// elements) and returned. `forms[i]` is layer i's site j in its left-step form, `omega` the
// columns' test tensors Ω_j (for a stack, each column's matrix transposed: [a, x_k, x_0]).
// C_j is first multiplied by `env_scale` (in place, piece by piece, just before its columns are
// read); `norm` returns ‖C_{j+1}‖. At most `batch` columns are in flight at once (the plan's
// bound on the intermediates); the device's kernels cut each batch into their pieces.
template <class T>
Buffer<T> advance_left(typename Devices<T>::Ctx c, const Stack& st, std::size_t j, std::size_t s,
                       std::size_t batch, Buffer<T>& env, real_t<T> env_scale,
                       const Buffer<T>& omega, const std::vector<Buffer<T>>& forms,
                       double& norm, Buffer<T> out);

}  // namespace srcc
