#pragma once
// One C++ name per cuBLAS / cuSOLVER routine family, overloaded on the element type, so that
// the kernels are written once for all four types.
#include <cublas_v2.h>
#include <cuComplex.h>
#include <cusolverDn.h>

#include "srcc/backend/backend.hpp"

namespace srcc::cuda {

inline cublasOperation_t to_cublas(Op op) {
  return op == Op::kNone ? CUBLAS_OP_N : op == Op::kTrans ? CUBLAS_OP_T : CUBLAS_OP_C;
}

inline cublasStatus_t gemm_batched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                            int n, int k, const float* alpha, const float* a, int lda,
                            long long sa, const float* b, int ldb, long long sb,
                            const float* beta, float* c, int ldc, long long sc, int batch) {
  return cublasSgemmStridedBatched(h, ta, tb, m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, c,
                                   ldc, sc, batch);
}
inline cublasStatus_t gemm_batched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                            int n, int k, const double* alpha, const double* a, int lda,
                            long long sa, const double* b, int ldb, long long sb,
                            const double* beta, double* c, int ldc, long long sc, int batch) {
  return cublasDgemmStridedBatched(h, ta, tb, m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, c,
                                   ldc, sc, batch);
}
inline cublasStatus_t gemm_batched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                            int n, int k, const cuFloatComplex* alpha, const cuFloatComplex* a,
                            int lda, long long sa, const cuFloatComplex* b, int ldb, long long sb,
                            const cuFloatComplex* beta, cuFloatComplex* c, int ldc, long long sc,
                            int batch) {
  return cublasCgemmStridedBatched(h, ta, tb, m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, c,
                                   ldc, sc, batch);
}
inline cublasStatus_t gemm_batched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                            int n, int k, const cuDoubleComplex* alpha, const cuDoubleComplex* a,
                            int lda, long long sa, const cuDoubleComplex* b, int ldb,
                            long long sb, const cuDoubleComplex* beta, cuDoubleComplex* c,
                            int ldc, long long sc, int batch) {
  return cublasZgemmStridedBatched(h, ta, tb, m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, c,
                                   ldc, sc, batch);
}

// Pointer-array batched GEMMs (the arrays in device memory): a group of gemm_chains().
inline cublasStatus_t gemm_pointers(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                                    const float* alpha, const float* const* a, int lda, const float* const* b, int ldb,
                                    const float* beta, float* const* c, int ldc, int batch) {
  return cublasSgemmBatched(h, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, batch);
}
inline cublasStatus_t gemm_pointers(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                                    const double* alpha, const double* const* a, int lda, const double* const* b, int ldb,
                                    const double* beta, double* const* c, int ldc, int batch) {
  return cublasDgemmBatched(h, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, batch);
}
inline cublasStatus_t gemm_pointers(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                                    const cuFloatComplex* alpha, const cuFloatComplex* const* a, int lda,
                                    const cuFloatComplex* const* b, int ldb, const cuFloatComplex* beta,
                                    cuFloatComplex* const* c, int ldc, int batch) {
  return cublasCgemmBatched(h, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, batch);
}
inline cublasStatus_t gemm_pointers(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                                    const cuDoubleComplex* alpha, const cuDoubleComplex* const* a, int lda,
                                    const cuDoubleComplex* const* b, int ldb, const cuDoubleComplex* beta,
                                    cuDoubleComplex* const* c, int ldc, int batch) {
  return cublasZgemmBatched(h, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, batch);
}

inline cublasStatus_t scal(cublasHandle_t h, int n, float a, float* x) { return cublasSscal(h, n, &a, x, 1); }
inline cublasStatus_t scal(cublasHandle_t h, int n, double a, double* x) { return cublasDscal(h, n, &a, x, 1); }
inline cublasStatus_t scal(cublasHandle_t h, int n, float a, cuFloatComplex* x) { return cublasCsscal(h, n, &a, x, 1); }
inline cublasStatus_t scal(cublasHandle_t h, int n, double a, cuDoubleComplex* x) { return cublasZdscal(h, n, &a, x, 1); }

// y += a·x for a real a (host pointer mode).
inline cublasStatus_t axpy(cublasHandle_t h, int n, float a, const float* x, float* y) {
  return cublasSaxpy(h, n, &a, x, 1, y, 1);
}
inline cublasStatus_t axpy(cublasHandle_t h, int n, double a, const double* x, double* y) {
  return cublasDaxpy(h, n, &a, x, 1, y, 1);
}
inline cublasStatus_t axpy(cublasHandle_t h, int n, float a, const cuFloatComplex* x, cuFloatComplex* y) {
  const cuFloatComplex c = make_cuFloatComplex(a, 0.f);
  return cublasCaxpy(h, n, &c, x, 1, y, 1);
}
inline cublasStatus_t axpy(cublasHandle_t h, int n, double a, const cuDoubleComplex* x, cuDoubleComplex* y) {
  const cuDoubleComplex c = make_cuDoubleComplex(a, 0.0);
  return cublasZaxpy(h, n, &c, x, 1, y, 1);
}

inline cublasStatus_t nrm2(cublasHandle_t h, int n, const float* x, float* r) { return cublasSnrm2(h, n, x, 1, r); }
inline cublasStatus_t nrm2(cublasHandle_t h, int n, const double* x, double* r) { return cublasDnrm2(h, n, x, 1, r); }
inline cublasStatus_t nrm2(cublasHandle_t h, int n, const cuFloatComplex* x, float* r) { return cublasScnrm2(h, n, x, 1, r); }
inline cublasStatus_t nrm2(cublasHandle_t h, int n, const cuDoubleComplex* x, double* r) { return cublasDznrm2(h, n, x, 1, r); }

// C = conj-transpose of A (m × n column-major → n × m).
inline cublasStatus_t adjoint(cublasHandle_t h, int m, int n, const float* a, float* c) {
  const float one = 1, zero = 0;
  return cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, n, m, &one, a, m, &zero, c, n, c, n);
}
inline cublasStatus_t adjoint(cublasHandle_t h, int m, int n, const double* a, double* c) {
  const double one = 1, zero = 0;
  return cublasDgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, n, m, &one, a, m, &zero, c, n, c, n);
}
inline cublasStatus_t adjoint(cublasHandle_t h, int m, int n, const cuFloatComplex* a, cuFloatComplex* c) {
  const cuFloatComplex one = make_cuFloatComplex(1, 0), zero = make_cuFloatComplex(0, 0);
  return cublasCgeam(h, CUBLAS_OP_C, CUBLAS_OP_N, n, m, &one, a, m, &zero, c, n, c, n);
}
inline cublasStatus_t adjoint(cublasHandle_t h, int m, int n, const cuDoubleComplex* a, cuDoubleComplex* c) {
  const cuDoubleComplex one = make_cuDoubleComplex(1, 0), zero = make_cuDoubleComplex(0, 0);
  return cublasZgeam(h, CUBLAS_OP_C, CUBLAS_OP_N, n, m, &one, a, m, &zero, c, n, c, n);
}

// QR: geqrf then orgqr/ungqr (typed legacy API).
#define SRCC_QR_FUNCS(D, R, GEQRF, ORGQR)                                                        \
  inline cusolverStatus_t geqrf_size(cusolverDnHandle_t h, int m, int n, D* a, int* lwork) {          \
    return GEQRF##_bufferSize(h, m, n, a, m, lwork);                                            \
  }                                                                                             \
  inline cusolverStatus_t geqrf(cusolverDnHandle_t h, int m, int n, D* a, D* tau, D* work, int lwork,  \
                         int* info) {                                                           \
    return GEQRF(h, m, n, a, m, tau, work, lwork, info);                                        \
  }                                                                                             \
  inline cusolverStatus_t orgqr_size(cusolverDnHandle_t h, int m, int k, D* a, D* tau, int* lwork) {   \
    return ORGQR##_bufferSize(h, m, k, k, a, m, tau, lwork);                                    \
  }                                                                                             \
  inline cusolverStatus_t orgqr(cusolverDnHandle_t h, int m, int k, D* a, D* tau, D* work, int lwork,  \
                         int* info) {                                                           \
    return ORGQR(h, m, k, k, a, m, tau, work, lwork, info);                                     \
  }
SRCC_QR_FUNCS(float, float, cusolverDnSgeqrf, cusolverDnSorgqr)
SRCC_QR_FUNCS(double, double, cusolverDnDgeqrf, cusolverDnDorgqr)
SRCC_QR_FUNCS(cuFloatComplex, float, cusolverDnCgeqrf, cusolverDnCungqr)
SRCC_QR_FUNCS(cuDoubleComplex, double, cusolverDnZgeqrf, cusolverDnZungqr)
#undef SRCC_QR_FUNCS

// SVD by Jacobi (gesvdj works for any m, n; econ = 1 gives the thin factors).
#define SRCC_SVD_FUNCS(D, R, GESVDJ)                                                               \
  inline cusolverStatus_t gesvdj_size(cusolverDnHandle_t h, int m, int n, D* a, R* s, D* u, D* v,        \
                               int* lwork, gesvdjInfo_t p) {                                      \
    return GESVDJ##_bufferSize(h, CUSOLVER_EIG_MODE_VECTOR, 1, m, n, a, m, s, u, m, v, n, lwork, \
                               p);                                                                \
  }                                                                                               \
  inline cusolverStatus_t gesvdj(cusolverDnHandle_t h, int m, int n, D* a, R* s, D* u, D* v, D* work,    \
                          int lwork, int* info, gesvdjInfo_t p) {                                 \
    return GESVDJ(h, CUSOLVER_EIG_MODE_VECTOR, 1, m, n, a, m, s, u, m, v, n, work, lwork, info,  \
                  p);                                                                             \
  }
SRCC_SVD_FUNCS(float, float, cusolverDnSgesvdj)
SRCC_SVD_FUNCS(double, double, cusolverDnDgesvdj)
SRCC_SVD_FUNCS(cuFloatComplex, float, cusolverDnCgesvdj)
SRCC_SVD_FUNCS(cuDoubleComplex, double, cusolverDnZgesvdj)
#undef SRCC_SVD_FUNCS

}  // namespace srcc::cuda
