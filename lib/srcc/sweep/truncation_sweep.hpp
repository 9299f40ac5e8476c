#pragma once
// The final truncation of an oversampled or tolerance-driven SRC result (paper §3.4): one
// left-to-right sweep of SVD truncations on the right-canonical train (so every SVD sees the
// exact singular values of the whole train at its cut), then a right-to-left QR sweep that
// makes cores 1 … n−1 right-orthonormal again with the norm on core 0.
#include <vector>

#include "srcc/backend/backend.hpp"
#include "srcc/backend/counting_gemm.hpp"
#include "srcc/core/tensor.hpp"
#include "srcc/movement/mover.hpp"

namespace srcc {

// Scales the n values at `data` (on the backend) to unit norm and returns the logarithm of the
// norm taken out; 0 (nothing done) for values of norm 0 or not finite. In powers of two, in two
// steps, so that neither a subnormal norm nor its inverse overflows on the way.
template <class T> double scale_to_unit(Kernels<T>& K, std::size_t n, T* data);

// Makes cores 1 … n−1 right-orthonormal (right-to-left QR sweep), moving the norm to core 0.
// The train it represents is unchanged. Cores move to the backend and back through `mover`.
// With `log_scale`, the factor carried left is brought to unit norm at every site and the
// logarithm of what was taken out is added to *log_scale (the train is then the cores times
// e^*log_scale): for trains whose norm a double cannot hold (a long train of norm 1e-800).
template <class T>
void right_canonicalize(std::vector<Tensor<T>>& cores, Mover<T>& mover, CountingGemm<T>& gemm,
                        double* log_scale = nullptr);

// Makes cores 0 … n−2 left-orthonormal (left-to-right QR sweep), moving the norm to core n−1;
// the train is unchanged. The fit sweeps take their left environments from these cores.
template <class T>
void left_canonicalize(std::vector<Tensor<T>>& cores, Mover<T>& mover, CountingGemm<T>& gemm);

// Multiplies `core` by e^log_scale, in long double so that the factor itself may lie outside the
// working type's range, and returns 0 — when the resulting norm fits that type (with a margin:
// what follows must not underflow or overflow either). Otherwise `core` is brought to unit norm
// and the train's logarithmic norm beyond it is returned: the train is e^{returned} times its
// cores (SweepResult::log_scale, written as the `log_scale` attribute). Throws NumericalError
// only when the core holds no finite number to scale (an infinity, a NaN).
template <class T> double apply_log_scale(Tensor<T>& core, double log_scale);

// Truncates in place (cores in (l, r, u, d) order, right-canonical). Returns, per cut j (between
// sites j and j+1), the discarded Frobenius norm relative to the train's norm. With
// `numerical_zeros`, singular values at rounding level go too (truncation.hpp). With `spectra`,
// each cut's singular values before truncation (the Schmidt values, for a right-canonical train)
// are appended to it, descending.
template <class T>
std::vector<double> truncate_train(std::vector<Tensor<T>>& cores, std::size_t chi, double cutoff,
                                   double tol, Mover<T>& mover, CountingGemm<T>& gemm,
                                   bool numerical_zeros, std::vector<std::vector<double>>* spectra = nullptr);

}  // namespace srcc
