#pragma once
// Inner products of trains with equal legs: ⟨a|b⟩ = Σ conj(a) b, contracted site by site
// through the transfer matrix E[α, β] (α: bond of a, β: bond of b) with GEMMs.
#include <cmath>
#include <vector>

#include "srcc/backend/backend.hpp"
#include "srcc/core/tensor.hpp"
#include "srcc/backend/counting_gemm.hpp"
#include "srcc/movement/mover.hpp"

namespace srcc {

// A number a double may not hold: value · e^log_scale (long trains have norms like 1e-800).
struct Scaled {
  cdouble value = 0;
  double log_scale = 0;
  double log_abs() const;  // log |value · e^log_scale|; −∞ for 0
  cdouble plain() const;   // value · e^log_scale as a double: 0 or ∞ outside its range
};

// ⟨a|b⟩ = Σ conj(a) b. Cores in (l, r, u, d) order; every site's (u, d) sizes must agree
// (checked by the caller). The transfer matrix is kept at unit norm, its scale aside.
template <class T>
Scaled inner_product_scaled(const std::vector<Tensor<T>>& a, const std::vector<Tensor<T>>& b,
                            Kernels<T>& kernels);
template <class T>
cdouble inner_product(const std::vector<Tensor<T>>& a, const std::vector<Tensor<T>>& b,
                      Kernels<T>& kernels) {
  return inner_product_scaled(a, b, kernels).plain();
}

// log ‖a − b‖_F (−∞ when they are equal), accurate to rounding relative to ‖a‖ + ‖b‖ (not to
// its square root, as ‖a‖² + ‖b‖² − 2 Re⟨a|b⟩ would be): the difference as one train of summed
// bonds, brought to canonical form by QR, whose norm then sits in one core.
template <class T>
double log_distance(const std::vector<Tensor<T>>& a, const std::vector<Tensor<T>>& b,
                    Mover<T>& mover, CountingGemm<T>& gemm);
// ‖a − b‖_F as a double.
template <class T>
double distance(const std::vector<Tensor<T>>& a, const std::vector<Tensor<T>>& b,
                Mover<T>& mover, CountingGemm<T>& gemm) {
  return std::exp(log_distance(a, b, mover, gemm));
}

}  // namespace srcc
