#pragma once
// The sweep's GEMM entry point: counts real flops (a complex multiply-add is 8) and turns a
// batch of matrix-vector products with one shared matrix into a single GEMM.
#include <atomic>

#include "srcc/backend/backend.hpp"

namespace srcc {

template <class T> class CountingGemm {
 public:
  explicit CountingGemm(Kernels<T>& k) : k_(k) {}

  void operator()(Op op_a, Op op_b, std::size_t m, std::size_t n, std::size_t k, T alpha,
                  const T* a, std::size_t lda, std::size_t stride_a, const T* b, std::size_t ldb,
                  std::size_t stride_b, T beta, T* c, std::size_t ldc, std::size_t stride_c,
                  std::size_t batch) {
    product(false, op_a, op_b, m, n, k, alpha, a, lda, stride_a, b, ldb, stride_b, beta, c, ldc,
            stride_c, batch);
  }
  // The same, returning the Frobenius norm of everything written to C (Kernels::gemm_norm).
  real_t<T> with_norm(Op op_a, Op op_b, std::size_t m, std::size_t n, std::size_t k, T alpha,
                      const T* a, std::size_t lda, std::size_t stride_a, const T* b,
                      std::size_t ldb, std::size_t stride_b, T beta, T* c, std::size_t ldc,
                      std::size_t stride_c, std::size_t batch) {
    return product(true, op_a, op_b, m, n, k, alpha, a, lda, stride_a, b, ldb, stride_b, beta, c,
                   ldc, stride_c, batch);
  }
  // Single GEMM: C = alpha · op(A) · op(B) + beta · C.
  void operator()(Op op_a, Op op_b, std::size_t m, std::size_t n, std::size_t k, T alpha,
                  const T* a, std::size_t lda, const T* b, std::size_t ldb, T beta, T* c,
                  std::size_t ldc) {
    (*this)(op_a, op_b, m, n, k, alpha, a, lda, 0, b, ldb, 0, beta, c, ldc, 0, 1);
  }

  double flops() const { return flops_.load(); }

  // The strided product behind both: with `norm` as with_norm(), without as operator() (0
  // returned), for callers where only some of a chain of products need the norm.
  real_t<T> product(bool norm, Op op_a, Op op_b, std::size_t m, std::size_t n, std::size_t k,
                    T alpha, const T* a, std::size_t lda, std::size_t stride_a, const T* b,
                    std::size_t ldb, std::size_t stride_b, T beta, T* c, std::size_t ldc,
                    std::size_t stride_c, std::size_t batch) {
    flops_.fetch_add(gemm_flops<T>(m, n, k, batch));
    if (batch > 1 && n == 1 && op_a == Op::kTrans && op_b == Op::kNone && stride_a == 0 &&
        stride_b == k && stride_c == m) {
      // C_i = Aᵀ b_i for all i is C[batch, m] = B[batch, k] · A[k, m]. (The bottom layer of a
      // right block has no trailing axes, so this is the common case there.)
      const T* matrix = a;
      const std::size_t matrix_ld = lda;
      op_a = Op::kNone;
      n = m;
      m = batch;
      a = b;  // the vectors, as rows of length k
      lda = k;
      b = matrix;
      ldb = matrix_ld;
      ldc = n;
      stride_a = stride_b = stride_c = 0;
      batch = 1;
    }
    if (norm)
      return k_.gemm_norm(op_a, op_b, m, n, k, alpha, a, lda, stride_a, b, ldb, stride_b, beta,
                          c, ldc, stride_c, batch);
    k_.gemm(op_a, op_b, m, n, k, alpha, a, lda, stride_a, b, ldb, stride_b, beta, c, ldc,
            stride_c, batch);
    return 0;
  }

 private:
  Kernels<T>& k_;
  std::atomic<double> flops_{0};  // tasks on several threads may count at once
};

}  // namespace srcc
