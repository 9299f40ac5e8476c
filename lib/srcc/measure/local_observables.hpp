#pragma once
// Local observables of a state: ⟨O_i⟩ at every site and the correlations ⟨A_i B_j⟩ of pairs of
// sites, from its right-canonical cores (core 0 holds the norm, every other core is
// right-orthonormal, so the environment right of any site is the identity and each value needs
// only the left environment: O(n χ³ d) for a site operator, O(m² χ³ d) for m × m correlations).
// Fermionic operators carry their Jordan–Wigner strings: for i < j, ⟨A_i B_j⟩ takes A·F at i
// and F on every site between when both are odd; a pair with i > j is reordered with the sign of
// the exchange. An operator (or pair) odd in fermions is refused: its value in a state of
// definite parity is 0, and it is no observable.
#include <complex>
#include <cstddef>
#include <string>
#include <vector>

#include "srcc/backend/backend.hpp"
#include "srcc/core/tensor.hpp"
#include "srcc/symmetric/block_tensor.hpp"
#include "srcc/train/site_type.hpp"

namespace srcc {

// ⟨O_i⟩ / ⟨ψ|ψ⟩ for i = 0 … n−1. Cores (l, r, u, 1) on the host, right-canonical.
template <class T>
std::vector<std::complex<double>> site_expectations(Kernels<T>& K, const std::vector<Tensor<T>>& cores,
                                                    const SiteOperator& o);

// ⟨A_i B_j⟩ / ⟨ψ|ψ⟩ for first ≤ i, j < last, row-major ((last − first)², row i − first).
// `parity` is the sites' F (the identity on sites without fermions).
template <class T>
std::vector<std::complex<double>> correlation_matrix(Kernels<T>& K, const std::vector<Tensor<T>>& cores,
                                                     const SiteOperator& a, const SiteOperator& b,
                                                     const SiteOperator& parity, std::size_t first, std::size_t last);

// The same of a charged state in its blocks (charged_local_observables.cpp): cores (l, r, u, d)
// labelled kCoreL … kCoreD, right-canonical as right_canonical_blocks leaves them. Each value
// equals the dense computation's to rounding at about the sectors' share of its work.
template <class T>
std::vector<std::complex<double>> site_expectations(Kernels<T>& K, const std::vector<BlockTensor<T>>& cores,
                                                    const SiteOperator& o);
template <class T>
std::vector<std::complex<double>> correlation_matrix(Kernels<T>& K, const std::vector<BlockTensor<T>>& cores,
                                                     const SiteOperator& a, const SiteOperator& b,
                                                     const SiteOperator& parity, std::size_t first, std::size_t last);
// A charged state's cores (l, r, u, d) brought to that form: each scaled to unit norm (only
// ratios are measured), then a QR per sector from the right, the norm in core 0.
template <class T>
std::vector<BlockTensor<T>> right_canonical_blocks(Kernels<T>& K, std::vector<BlockTensor<T>> cores, const ChargeRule& rule);

}  // namespace srcc
