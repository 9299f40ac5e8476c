#pragma once
// One product on the calling thread, as the CPU backend's pool runs it in each task: the direct
// kernel where it applies and is faster, a few loops for tiny real products, BLAS otherwise.
#include <complex>
#include <cstddef>
#include <type_traits>

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

// Real products this small (at most kTinyWork multiply-adds, C's rows each a sum of at most
// kTinyTerms rows of B) are a few loops here: BLAS spends 30-70 ns a call on its checks and
// dispatch, 2-5x their arithmetic. A charged sweep makes millions of them where its sectors
// are a few indices wide (the transverse-field Ising chain's Z2 blocks: 2 x 20 over 1, batches
// of 80); docs/PERFORMANCE.md, "Tiny products". Above these bounds BLAS's kernels win.
inline constexpr std::size_t kTinyWork = 80, kTinyTerms = 4;

template <class T>
inline bool tiny_product(Op op_a, Op op_b, std::size_t m, std::size_t n, std::size_t k) {
  return !is_complex_v<T> && op_b == Op::kNone && op_a != Op::kConjTrans && k > 0 && m * k <= kTinyTerms &&
         m * n * k <= kTinyWork;
}

// C = alpha·op(A)·B + beta·C for a tiny_product: each row of C from k rows of B, summed first
// and then scaled by alpha, as BLAS does (scaling A first loses digits to underflow where its
// entries are near the smallest doubles); beta = 0: C is not read. Given `sum_squares`, adds
// Σ |C|² of the result.
template <class T>
inline void tiny_gemm(bool trans_a, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* a, std::size_t lda,
                      const T* b, std::size_t ldb, T beta, T* c, std::size_t ldc, double* sum_squares) {
  T sum[kTinyWork];
  for (std::size_t i = 0; i < m; ++i) {
    auto a_at = [&](std::size_t p) { return trans_a ? a[p * lda + i] : a[i * lda + p]; };
    const T first = a_at(0);
    for (std::size_t j = 0; j < n; ++j) sum[j] = first * b[j];
    for (std::size_t p = 1; p < k; ++p) {
      const T f = a_at(p);
      const T* __restrict bp = b + p * ldb;
      for (std::size_t j = 0; j < n; ++j) sum[j] += f * bp[j];
    }
    T* __restrict row = c + i * ldc;
    if (beta == T(0))
      for (std::size_t j = 0; j < n; ++j) row[j] = alpha * sum[j];
    else
      for (std::size_t j = 0; j < n; ++j) row[j] = alpha * sum[j] + beta * row[j];
  }
  if (sum_squares != nullptr) *sum_squares += block_sum_squares(m, n, c, ldc);
}

// One product on the calling thread: the direct kernel where it applies (complex double, B not
// transposed, A at most transposed; direct_gemm.hpp says why), BLAS otherwise. Given
// `sum_squares`, adds Σ |C|² of the result to it (the direct kernel as it stores C; after BLAS,
// a pass over C while it is in cache).
template <class T>
inline void gemm_here(Op op_a, Op op_b, std::size_t m, std::size_t n, std::size_t k, T alpha,
               const T* a, std::size_t lda, const T* b, std::size_t ldb, T beta, T* c,
               std::size_t ldc, double* sum_squares = nullptr) {
  if (tiny_product<T>(op_a, op_b, m, n, k))
    return tiny_gemm(op_a == Op::kTrans, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, sum_squares);
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
