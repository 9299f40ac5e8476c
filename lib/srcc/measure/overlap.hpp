#pragma once
// Inner products of trains with equal legs: ⟨a|b⟩ = Σ conj(a) b, contracted site by site
// through the transfer matrix E[α, β] (α: bond of a, β: bond of b) with GEMMs.
#include <vector>

#include "srcc/backend/backend.hpp"
#include "srcc/core/tensor.hpp"
#include "srcc/backend/counting_gemm.hpp"
#include "srcc/movement/mover.hpp"

namespace srcc {

// Cores in (l, r, u, d) order; every site's (u, d) sizes must agree (checked by the caller).
template <class T>
cdouble inner_product(const std::vector<Tensor<T>>& a, const std::vector<Tensor<T>>& b,
                      Kernels<T>& kernels);

// ‖a − b‖_F, accurate to rounding relative to ‖a‖ + ‖b‖ (not to its square root, as
// ‖a‖² + ‖b‖² − 2 Re⟨a|b⟩ would be): the difference as one train of summed bonds, brought to
// canonical form by QR, whose norm then sits in one core.
template <class T>
double distance(const std::vector<Tensor<T>>& a, const std::vector<Tensor<T>>& b,
                Mover<T>& mover, CountingGemm<T>& gemm);

}  // namespace srcc
