#pragma once
// The CPU backend's calls into BLAS and LAPACK: one overload per scalar type for each routine
// the kernels use, LAPACK's status turned into an error, and BLAS's own threads switched off
// (the backend's pool computes) or on for one large factorisation.
#include <cblas.h>
#include <lapacke.h>

#include <cstddef>

#include "srcc/backend/backend.hpp"
#include "srcc/backend/cpu/work_pool.hpp"

namespace srcc::cpu {

using blasint_t = blasint;
inline blasint_t bi(std::size_t v) { return static_cast<blasint_t>(v); }
CBLAS_TRANSPOSE to_cblas(Op op);

// Row-major C = alpha·op(A)·op(B) + beta·C on the calling thread.
void gemm1(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, blasint_t m, blasint_t n, blasint_t k,
           float alpha, const float* a, blasint_t lda, const float* b, blasint_t ldb, float beta,
           float* c, blasint_t ldc);
void gemm1(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, blasint_t m, blasint_t n, blasint_t k,
           double alpha, const double* a, blasint_t lda, const double* b, blasint_t ldb,
           double beta, double* c, blasint_t ldc);
void gemm1(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, blasint_t m, blasint_t n, blasint_t k,
           cfloat alpha, const cfloat* a, blasint_t lda, const cfloat* b, blasint_t ldb,
           cfloat beta, cfloat* c, blasint_t ldc);
void gemm1(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, blasint_t m, blasint_t n, blasint_t k,
           cdouble alpha, const cdouble* a, blasint_t lda, const cdouble* b, blasint_t ldb,
           cdouble beta, cdouble* c, blasint_t ldc);

// Column-major QR (geqrf: R in the upper triangle, reflectors below; orgqr: Q from them), the
// thin SVD (gesdd, JOBZ = 'S'), the inverse of an upper triangle (trtri), each returning LAPACK's info.
lapack_int geqrf(lapack_int m, lapack_int n, float* a, float* tau);
lapack_int geqrf(lapack_int m, lapack_int n, double* a, double* tau);
lapack_int geqrf(lapack_int m, lapack_int n, cfloat* a, cfloat* tau);
lapack_int geqrf(lapack_int m, lapack_int n, cdouble* a, cdouble* tau);
// geqrt: the same factorisation blocked nb columns at a time (R and the reflectors as geqrf
// leaves them; each block's triangular factor in t, nb × min(m, n), whose diagonal is τ).
lapack_int geqrt(lapack_int m, lapack_int n, lapack_int nb, float* a, float* t);
lapack_int geqrt(lapack_int m, lapack_int n, lapack_int nb, double* a, double* t);
lapack_int geqrt(lapack_int m, lapack_int n, lapack_int nb, cfloat* a, cfloat* t);
lapack_int geqrt(lapack_int m, lapack_int n, lapack_int nb, cdouble* a, cdouble* t);
// Q (m × k, into q, which holds the identity's first k columns) from geqrt's reflectors v and
// their blocks' factors t: the blocked counterpart of orgqr.
lapack_int gemqrt_q(lapack_int m, lapack_int k, lapack_int nb, const float* v, const float* t, float* q);
lapack_int gemqrt_q(lapack_int m, lapack_int k, lapack_int nb, const double* v, const double* t, double* q);
lapack_int gemqrt_q(lapack_int m, lapack_int k, lapack_int nb, const cfloat* v, const cfloat* t, cfloat* q);
lapack_int gemqrt_q(lapack_int m, lapack_int k, lapack_int nb, const cdouble* v, const cdouble* t, cdouble* q);
lapack_int orgqr(lapack_int m, lapack_int k, float* a, const float* tau);
lapack_int orgqr(lapack_int m, lapack_int k, double* a, const double* tau);
lapack_int orgqr(lapack_int m, lapack_int k, cfloat* a, const cfloat* tau);
lapack_int orgqr(lapack_int m, lapack_int k, cdouble* a, const cdouble* tau);
lapack_int gesdd(lapack_int m, lapack_int n, float* a, float* s, float* u, float* vt);
lapack_int gesdd(lapack_int m, lapack_int n, double* a, double* s, double* u, double* vt);
lapack_int gesdd(lapack_int m, lapack_int n, cfloat* a, float* s, cfloat* u, cfloat* vt);
lapack_int gesdd(lapack_int m, lapack_int n, cdouble* a, double* s, cdouble* u, cdouble* vt);
// The thin SVD's U and values alone (gesvd, JOBU = 'S', JOBVT = 'N': QR iteration on the
// bidiagonal, U updated and no right factor formed).
lapack_int gesvd_left(lapack_int m, lapack_int n, float* a, float* s, float* u);
lapack_int gesvd_left(lapack_int m, lapack_int n, double* a, double* s, double* u);
lapack_int trtri(lapack_int k, float* a);
lapack_int trtri(lapack_int k, double* a);
lapack_int trtri(lapack_int k, cfloat* a);
lapack_int trtri(lapack_int k, cdouble* a);

// Throws NumericalError naming the call and the matrix when `info` is not 0.
void check_lapack(lapack_int info, const char* call, std::size_t m, std::size_t n);

// BLAS single-threaded (and its spinning threads stopped): the backend's pool computes.
void blas_single_threaded();

// A large factorisation (QR, SVD), which the pool cannot split, gets BLAS's own threads for
// its duration.
class BlasThreadsFor {
 public:
  // Inside a pool task BLAS stays on its one thread: the task is the parallelism there.
  BlasThreadsFor(int threads, double work) : raise_(threads > 1 && work >= kLargeWork && !WorkPool::in_task()) {
    if (raise_) openblas_set_num_threads(threads);
  }
  ~BlasThreadsFor() {
    if (raise_) blas_single_threaded();
  }
  BlasThreadsFor(const BlasThreadsFor&) = delete;
  BlasThreadsFor& operator=(const BlasThreadsFor&) = delete;

 private:
  static constexpr double kLargeWork = 256.0 * 256.0 * 256.0;
  bool raise_;
};

}  // namespace srcc::cpu
