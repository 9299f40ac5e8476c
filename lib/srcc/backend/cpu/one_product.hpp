#pragma once
// One product on the calling thread, as the CPU backend's pool runs it in each task: the direct
// kernel where it applies and is faster, kernels of fixed sizes for tiny products, BLAS otherwise.
#include <array>
#include <complex>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "srcc/backend/backend.hpp"
#include "srcc/backend/cpu/direct_gemm.hpp"
#include "srcc/backend/cpu/lapack_calls.hpp"

namespace srcc::cpu {

// The longest contraction the direct kernel takes: its column blocks of B (k × 12 complex
// numbers) must stay in L1/L2 while the row tiles pass over them. The sweep's products have
// k ≤ 2·N (N the largest bond); the sketch's k = N²·d is left to BLAS.
inline constexpr std::size_t kDirectMaxDepth = 512;
// B's rows at most this many elements apart (16 KiB in complex double). The kernel reads a
// column block of B row by row; rows far apart (the S update's Z', 40 KB) are each on another
// page, out of the prefetchers' reach, where BLAS copies B into a packed panel first and is
// faster (docs/PERFORMANCE.md, "The direct GEMM kernel").
inline constexpr std::size_t kDirectMaxRowGap = 1024;
// A contraction this short reads only that many rows of B per column block, whatever their
// gap, and BLAS's packing would cost more than its arithmetic (the left step's V = Ω·W, k = d:
// about 2.5× faster direct).
inline constexpr std::size_t kDirectAnyGapDepth = 4;

// Σ |x|² over the m × n block at c (rows ldc apart), in double.
template <class T>
inline double block_sum_squares(std::size_t m, std::size_t n, const T* c, std::size_t ldc) {
  double sum = 0;
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) sum += std::norm(std::complex<double>(c[i * ldc + j]));
  return sum;
}

// Products this small — op(A) at most kTinyRows × kTinyDepth, at most kTinyWork
// multiply-adds — run in loops whose row and contraction counts are compile-time constants:
// A's few numbers stay in registers and each element of B is loaded once for every row of C.
// BLAS spends 30-70 ns a call on its checks and dispatch, 2-10x their arithmetic, and a
// charged sweep makes millions of them where its sectors are a few indices wide (an MPO's
// blocks, TeNPy's Z2 Ising chain: 2 x 20 over 1, batches of 80). Above these bounds BLAS's
// kernels win (docs/PERFORMANCE.md, "Tiny products").
inline constexpr std::size_t kTinyRows = 4, kTinyDepth = 8, kTinyWork = 128;

inline bool tiny_product(Op op_b, std::size_t m, std::size_t n, std::size_t k) {
  return op_b == Op::kNone && m >= 1 && m <= kTinyRows && k >= 1 && k <= kTinyDepth && m * n * k <= kTinyWork;
}

// a·b, complex ones spelled out: the language's complex product checks its result for NaNs
// and falls back to a library call, which keeps these loops from being vectorised.
template <class T> inline T times(const T& a, const T& b) {
  if constexpr (is_complex_v<T>)
    return T(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
  else
    return a * b;
}
template <class T> inline T conj_if(const T& a, bool conj) {
  if constexpr (is_complex_v<T>)
    return conj ? std::conj(a) : a;
  else
    return a;
}

// C_i = alpha·op(A_i)·B_i + beta·C_i for i < batch (X_i = X + i·stride_x) with op(A) M × K:
// each element's sum over K first, then scaled by alpha, as BLAS does (scaling A first loses
// digits to underflow where its entries are near the smallest doubles); beta = 0: C is not
// read. A shared by the batch (stride 0, a layer's block) is read once.
template <class T, std::size_t M, std::size_t K>
void tiny_gemm_fixed(Op op_a, std::size_t n, T alpha, const T* a, std::size_t lda, std::size_t stride_a, const T* b,
                     std::size_t ldb, std::size_t stride_b, T beta, T* c, std::size_t ldc, std::size_t stride_c,
                     std::size_t batch) {
  T coef[M][K] = {};  // read once the first item has set it (a compiler cannot tell)
  const bool overwrite = beta == T(0), trans_a = op_a != Op::kNone, conj_a = op_a == Op::kConjTrans;
  for (std::size_t item = 0; item < batch; ++item) {
    if (item == 0 || stride_a != 0) {
      const T* ai = a + item * stride_a;
      for (std::size_t i = 0; i < M; ++i)
        for (std::size_t p = 0; p < K; ++p) coef[i][p] = conj_if(trans_a ? ai[p * lda + i] : ai[i * lda + p], conj_a);
    }
    const T* bi = b + item * stride_b;
    T* ci = c + item * stride_c;
    for (std::size_t j = 0; j < n; ++j) {
      T column[K];
      for (std::size_t p = 0; p < K; ++p) column[p] = bi[p * ldb + j];
      for (std::size_t i = 0; i < M; ++i) {
        T sum = times(coef[i][0], column[0]);
        for (std::size_t p = 1; p < K; ++p) sum += times(coef[i][p], column[p]);
        T& out = ci[i * ldc + j];
        out = overwrite ? times(alpha, sum) : times(alpha, sum) + times(beta, out);
      }
    }
  }
}

template <class T>
using TinyGemm = void (*)(Op, std::size_t, T, const T*, std::size_t, std::size_t, const T*, std::size_t, std::size_t, T,
                          T*, std::size_t, std::size_t, std::size_t);
template <class T, std::size_t M, std::size_t... K>
constexpr std::array<TinyGemm<T>, sizeof...(K)> tiny_gemm_row(std::index_sequence<K...>) {
  return {&tiny_gemm_fixed<T, M, K + 1>...};
}
template <class T, std::size_t... M>
constexpr std::array<std::array<TinyGemm<T>, kTinyDepth>, sizeof...(M)> tiny_gemm_table(std::index_sequence<M...>) {
  return {tiny_gemm_row<T, M + 1>(std::make_index_sequence<kTinyDepth>())...};
}
// tiny_gemm_fixed<T, m, k> at [m − 1][k − 1].
template <class T>
inline constexpr auto kTinyGemms = tiny_gemm_table<T>(std::make_index_sequence<kTinyRows>());

// A batch of tiny_products: C_i = alpha·op(A_i)·B_i + beta·C_i. Given `sum_squares`, adds
// Σ |C_i|² of the results.
template <class T>
inline void tiny_gemm(Op op_a, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* a, std::size_t lda,
                      std::size_t stride_a, const T* b, std::size_t ldb, std::size_t stride_b, T beta, T* c,
                      std::size_t ldc, std::size_t stride_c, std::size_t batch, double* sum_squares) {
  kTinyGemms<T>[m - 1][k - 1](op_a, n, alpha, a, lda, stride_a, b, ldb, stride_b, beta, c, ldc, stride_c, batch);
  if (sum_squares != nullptr)
    for (std::size_t i = 0; i < batch; ++i) *sum_squares += block_sum_squares(m, n, c + i * stride_c, ldc);
}

// One product on the calling thread: a tiny product's kernel, else the direct kernel where it
// applies (complex double, B not transposed, A at most transposed; direct_gemm.hpp says why),
// BLAS otherwise. Given `sum_squares`, adds Σ |C|² of the result to it (the direct kernel as it
// stores C; after the others, a pass over C while it is in cache).
template <class T>
inline void gemm_here(Op op_a, Op op_b, std::size_t m, std::size_t n, std::size_t k, T alpha,
               const T* a, std::size_t lda, const T* b, std::size_t ldb, T beta, T* c,
               std::size_t ldc, double* sum_squares = nullptr) {
  if (tiny_product(op_b, m, n, k))
    return tiny_gemm(op_a, m, n, k, alpha, a, lda, 0, b, ldb, 0, beta, c, ldc, 0, 1, sum_squares);
  if constexpr (std::is_same_v<T, cdouble>) {
    if (op_b == Op::kNone && op_a != Op::kConjTrans && k <= kDirectMaxDepth &&
        (ldb <= kDirectMaxRowGap || k <= kDirectAnyGapDepth) &&
        direct_gemm::kernel() != direct_gemm::Kernel::kNone)
      return direct_gemm::zgemm(op_a == Op::kTrans, m, n, k, alpha, a, lda, b, ldb, beta, c,
                                ldc, sum_squares);
  }
  gemm1(to_cblas(op_a), to_cblas(op_b), bi(m), bi(n), bi(k), alpha, a, bi(lda), b, bi(ldb), beta,
        c, bi(ldc));
  if (sum_squares != nullptr) *sum_squares += block_sum_squares(m, n, c, ldc);
}

}  // namespace srcc::cpu
