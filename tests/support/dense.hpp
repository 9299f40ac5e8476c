#pragma once
// Independent dense references for tests: trains contracted by plain loops into full vectors,
// operator products by xtensor-blas, and exact SVD truncation bounds. Only for small trains.
#include <complex>
#include <vector>

#include "srcc/core/tensor.hpp"

namespace srcc::test {

using cd = std::complex<double>;

// Interleaved dense vector of a train of (l, r, u, d) cores: index (u_0, d_0, u_1, d_1, …),
// row-major. Contracted site by site with plain loops, no BLAS.
template <class T> std::vector<cd> dense_vector(const std::vector<Tensor<T>>& cores);

// The same operator as a matrix [(u_0 u_1 …), (d_0 d_1 …)] (row-major), and back.
std::vector<cd> interleaved_to_matrix(const std::vector<cd>& v, const std::vector<std::size_t>& ups,
                                      const std::vector<std::size_t>& downs);
std::vector<cd> matrix_to_interleaved(const std::vector<cd>& m, const std::vector<std::size_t>& ups,
                                      const std::vector<std::size_t>& downs);

// Dense product layers[0] · layers[1] · … (each an interleaved vector of a train with the
// given leg sizes); returns the interleaved vector of the product.
struct DenseTrain {
  std::vector<cd> v;
  std::vector<std::size_t> ups, downs;
};
template <class T> DenseTrain dense_train(const std::vector<Tensor<T>>& cores);
DenseTrain dense_product(const std::vector<DenseTrain>& layers);

double norm(const std::vector<cd>& v);
cd inner(const std::vector<cd>& a, const std::vector<cd>& b);  // ⟨a|b⟩ = Σ conj(a) b
double relative_error(const std::vector<cd>& got, const std::vector<cd>& ref);

// max over cuts of the error of the best rank-`chi` approximation across that cut, relative to
// ‖v‖ (exact SVD): no train with bonds <= chi can be closer to v.
double best_truncation_bound(const DenseTrain& t, std::size_t chi);
// Relative error of contract-then-SVD: the left-to-right sequence of SVD truncations to bond
// `chi` (TT-SVD) of the dense vector; its square is the sum of the discarded σ².
double svd_sweep_error(const DenseTrain& t, std::size_t chi);
// Singular values of v across cut j (sites 0..j on the left).
std::vector<double> cut_singular_values(const DenseTrain& t, std::size_t cut);

// max |⟨row i, row j⟩ − δ_ij| over the rows of each core j >= 1 reshaped to (l, r·u·d).
template <class T> double right_orthonormality_defect(const std::vector<Tensor<T>>& cores);

// H·ψ as a train, site by site with plain loops: bonds (l_H l_ψ, r_H r_ψ), no compression.
std::vector<Tensor<cdouble>> exact_product(const std::vector<Tensor<cdouble>>& h, const std::vector<Tensor<cdouble>>& psi);
// ⟨ψ|H|ψ⟩ by dense contraction (L ≤ 16: 65536 amplitudes).
cd energy(const std::vector<Tensor<cdouble>>& h, const std::vector<Tensor<cdouble>>& psi);

// ⟨bra|M|ket⟩ of dense vectors and a dense matrix (row-major, as interleaved_to_matrix gives it).
cd dense_sandwich(const std::vector<cd>& bra, const std::vector<cd>& m, const std::vector<cd>& ket);

}  // namespace srcc::test
