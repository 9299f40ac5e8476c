#include "srcc/backend/cpu/lapack_calls.hpp"

#include <algorithm>
#include <complex>
#include <string>
#include <type_traits>
#include <vector>

#include "srcc/core/error.hpp"

namespace srcc::cpu {

CBLAS_TRANSPOSE to_cblas(Op op) {
  switch (op) {
    case Op::kNone: return CblasNoTrans;
    case Op::kTrans: return CblasTrans;
    case Op::kConjTrans: break;
  }
  return CblasConjTrans;
}

void gemm1(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, blasint_t m, blasint_t n, blasint_t k,
           float alpha, const float* a, blasint_t lda, const float* b, blasint_t ldb, float beta,
           float* c, blasint_t ldc) {
  cblas_sgemm(CblasRowMajor, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
void gemm1(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, blasint_t m, blasint_t n, blasint_t k,
           double alpha, const double* a, blasint_t lda, const double* b, blasint_t ldb,
           double beta, double* c, blasint_t ldc) {
  cblas_dgemm(CblasRowMajor, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
void gemm1(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, blasint_t m, blasint_t n, blasint_t k,
           cfloat alpha, const cfloat* a, blasint_t lda, const cfloat* b, blasint_t ldb,
           cfloat beta, cfloat* c, blasint_t ldc) {
  cblas_cgemm(CblasRowMajor, ta, tb, m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc);
}
void gemm1(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, blasint_t m, blasint_t n, blasint_t k,
           cdouble alpha, const cdouble* a, blasint_t lda, const cdouble* b, blasint_t ldb,
           cdouble beta, cdouble* c, blasint_t ldc) {
  cblas_zgemm(CblasRowMajor, ta, tb, m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc);
}

lapack_int geqrf(lapack_int m, lapack_int n, float* a, float* tau) {
  return LAPACKE_sgeqrf(LAPACK_COL_MAJOR, m, n, a, m, tau);
}
lapack_int geqrf(lapack_int m, lapack_int n, double* a, double* tau) {
  return LAPACKE_dgeqrf(LAPACK_COL_MAJOR, m, n, a, m, tau);
}
lapack_int geqrf(lapack_int m, lapack_int n, cfloat* a, cfloat* tau) {
  return LAPACKE_cgeqrf(LAPACK_COL_MAJOR, m, n, reinterpret_cast<lapack_complex_float*>(a), m,
                        reinterpret_cast<lapack_complex_float*>(tau));
}
lapack_int geqrf(lapack_int m, lapack_int n, cdouble* a, cdouble* tau) {
  return LAPACKE_zgeqrf(LAPACK_COL_MAJOR, m, n, reinterpret_cast<lapack_complex_double*>(a), m,
                        reinterpret_cast<lapack_complex_double*>(tau));
}

lapack_int geqrt(lapack_int m, lapack_int n, lapack_int nb, float* a, float* t) {
  return LAPACKE_sgeqrt(LAPACK_COL_MAJOR, m, n, nb, a, m, t, nb);
}
lapack_int geqrt(lapack_int m, lapack_int n, lapack_int nb, double* a, double* t) {
  return LAPACKE_dgeqrt(LAPACK_COL_MAJOR, m, n, nb, a, m, t, nb);
}
lapack_int geqrt(lapack_int m, lapack_int n, lapack_int nb, cfloat* a, cfloat* t) {
  return LAPACKE_cgeqrt(LAPACK_COL_MAJOR, m, n, nb, reinterpret_cast<lapack_complex_float*>(a), m,
                        reinterpret_cast<lapack_complex_float*>(t), nb);
}
lapack_int geqrt(lapack_int m, lapack_int n, lapack_int nb, cdouble* a, cdouble* t) {
  return LAPACKE_zgeqrt(LAPACK_COL_MAJOR, m, n, nb, reinterpret_cast<lapack_complex_double*>(a), m,
                        reinterpret_cast<lapack_complex_double*>(t), nb);
}

lapack_int gemqrt_q(lapack_int m, lapack_int k, lapack_int nb, const float* v, const float* t, float* q) {
  return LAPACKE_sgemqrt(LAPACK_COL_MAJOR, 'L', 'N', m, k, k, nb, v, m, t, nb, q, m);
}
lapack_int gemqrt_q(lapack_int m, lapack_int k, lapack_int nb, const double* v, const double* t, double* q) {
  return LAPACKE_dgemqrt(LAPACK_COL_MAJOR, 'L', 'N', m, k, k, nb, v, m, t, nb, q, m);
}
lapack_int gemqrt_q(lapack_int m, lapack_int k, lapack_int nb, const cfloat* v, const cfloat* t, cfloat* q) {
  return LAPACKE_cgemqrt(LAPACK_COL_MAJOR, 'L', 'N', m, k, k, nb, reinterpret_cast<const lapack_complex_float*>(v), m,
                         reinterpret_cast<const lapack_complex_float*>(t), nb, reinterpret_cast<lapack_complex_float*>(q), m);
}
lapack_int gemqrt_q(lapack_int m, lapack_int k, lapack_int nb, const cdouble* v, const cdouble* t, cdouble* q) {
  return LAPACKE_zgemqrt(LAPACK_COL_MAJOR, 'L', 'N', m, k, k, nb, reinterpret_cast<const lapack_complex_double*>(v), m,
                         reinterpret_cast<const lapack_complex_double*>(t), nb, reinterpret_cast<lapack_complex_double*>(q), m);
}

lapack_int orgqr(lapack_int m, lapack_int k, float* a, const float* tau) {
  return LAPACKE_sorgqr(LAPACK_COL_MAJOR, m, k, k, a, m, tau);
}
lapack_int orgqr(lapack_int m, lapack_int k, double* a, const double* tau) {
  return LAPACKE_dorgqr(LAPACK_COL_MAJOR, m, k, k, a, m, tau);
}
lapack_int orgqr(lapack_int m, lapack_int k, cfloat* a, const cfloat* tau) {
  return LAPACKE_cungqr(LAPACK_COL_MAJOR, m, k, k, reinterpret_cast<lapack_complex_float*>(a), m,
                        reinterpret_cast<const lapack_complex_float*>(tau));
}
lapack_int orgqr(lapack_int m, lapack_int k, cdouble* a, const cdouble* tau) {
  return LAPACKE_zungqr(LAPACK_COL_MAJOR, m, k, k, reinterpret_cast<lapack_complex_double*>(a),
                        m, reinterpret_cast<const lapack_complex_double*>(tau));
}

lapack_int gesdd(lapack_int m, lapack_int n, float* a, float* s, float* u, float* vt) {
  return LAPACKE_sgesdd(LAPACK_COL_MAJOR, 'S', m, n, a, m, s, u, m, vt, std::min(m, n));
}
lapack_int gesdd(lapack_int m, lapack_int n, double* a, double* s, double* u, double* vt) {
  return LAPACKE_dgesdd(LAPACK_COL_MAJOR, 'S', m, n, a, m, s, u, m, vt, std::min(m, n));
}
namespace {

// ?gesdd_work with JOBZ = 'S' for cfloat (c) and cdouble (z); work, rwork and iwork are ours.
template <class T>
lapack_int gesdd_work(lapack_int m, lapack_int n, T* a, real_t<T>* s, T* u, T* vt, T* work,
                      lapack_int lwork, real_t<T>* rwork, lapack_int* iwork) {
  const lapack_int k = std::min(m, n);
  if constexpr (std::is_same_v<T, cfloat>) {
    using C = lapack_complex_float;
    const auto c = [](T* p) { return reinterpret_cast<C*>(p); };
    return LAPACKE_cgesdd_work(LAPACK_COL_MAJOR, 'S', m, n, c(a), m, s, c(u), m, c(vt), k, c(work),
                               lwork, rwork, iwork);
  } else {
    using C = lapack_complex_double;
    const auto c = [](T* p) { return reinterpret_cast<C*>(p); };
    return LAPACKE_zgesdd_work(LAPACK_COL_MAJOR, 'S', m, n, c(a), m, s, c(u), m, c(vt), k, c(work),
                               lwork, rwork, iwork);
  }
}

// The complex SVD. Debian's OpenBLAS 0.3.21 reads past the end of the arrays it works on here
// (its SkylakeX gemv_n kernel, reached through ?labrd for A and through ?ungbr → ?ungl2 when
// forming Vᴴ): an A that ended where its mapping ended (our pool's blocks are exact-size mmaps)
// crashed a run, and forming Vᴴ crashed the sanitizer suite once. So every array the call
// touches — A, U, Vᴴ and the workspaces — is a copy with a row or column and a cache line to
// spare, and the factors are copied out.
template <class T>
lapack_int complex_gesdd(lapack_int m, lapack_int n, T* a, real_t<T>* s, T* u, T* vt) {
  using R = real_t<T>;
  const lapack_int k = std::min(m, n), big = std::max(m, n);
  const auto count = [](lapack_int x) { return static_cast<std::size_t>(x); };
  const std::size_t spare = count(big) + 64 / sizeof(T);
  std::vector<T> pa(count(m) * count(n) + spare), pu(count(m) * count(k) + spare),
      pvt(count(k) * count(n) + spare);
  std::copy(a, a + count(m) * count(n), pa.begin());
  // LAPACK's rwork bound for JOBZ = 'S' (as LAPACKE sizes it), and iwork 8·min(m, n).
  const lapack_int lrwork = std::max<lapack_int>(1, k * std::max(5 * k + 7, 2 * big + 2 * k + 1));
  std::vector<R> rwork(count(lrwork) + spare);
  std::vector<lapack_int> iwork(8 * count(k) + spare);
  T query{};
  lapack_int info = gesdd_work(m, n, pa.data(), s, pu.data(), pvt.data(), &query, -1,
                               rwork.data(), iwork.data());
  if (info != 0) return info;
  const lapack_int lwork = std::max<lapack_int>(1, static_cast<lapack_int>(std::real(query)));
  std::vector<T> work(count(lwork) + spare);
  info = gesdd_work(m, n, pa.data(), s, pu.data(), pvt.data(), work.data(), lwork, rwork.data(),
                    iwork.data());
  if (info != 0) return info;
  std::copy(pu.begin(), pu.begin() + static_cast<std::ptrdiff_t>(count(m) * count(k)), u);
  std::copy(pvt.begin(), pvt.begin() + static_cast<std::ptrdiff_t>(count(k) * count(n)), vt);
  return 0;
}

}  // namespace

lapack_int gesdd(lapack_int m, lapack_int n, cfloat* a, float* s, cfloat* u, cfloat* vt) {
  return complex_gesdd(m, n, a, s, u, vt);
}
lapack_int gesdd(lapack_int m, lapack_int n, cdouble* a, double* s, cdouble* u, cdouble* vt) {
  return complex_gesdd(m, n, a, s, u, vt);
}

namespace {

template <class T> lapack_int real_gesvd_left(lapack_int m, lapack_int n, T* a, T* s, T* u) {
  std::vector<T> superb(static_cast<std::size_t>(std::max<lapack_int>(1, std::min(m, n))));
  T none{};  // VT is not referenced with JOBVT = 'N'
  if constexpr (std::is_same_v<T, float>) return LAPACKE_sgesvd(LAPACK_COL_MAJOR, 'S', 'N', m, n, a, m, s, u, m, &none, 1, superb.data());
  else return LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'S', 'N', m, n, a, m, s, u, m, &none, 1, superb.data());
}

}  // namespace

lapack_int gesvd_left(lapack_int m, lapack_int n, float* a, float* s, float* u) { return real_gesvd_left(m, n, a, s, u); }
lapack_int gesvd_left(lapack_int m, lapack_int n, double* a, double* s, double* u) { return real_gesvd_left(m, n, a, s, u); }

lapack_int trtri(lapack_int k, float* a) {
  return LAPACKE_strtri(LAPACK_COL_MAJOR, 'U', 'N', k, a, k);
}
lapack_int trtri(lapack_int k, double* a) {
  return LAPACKE_dtrtri(LAPACK_COL_MAJOR, 'U', 'N', k, a, k);
}
lapack_int trtri(lapack_int k, cfloat* a) {
  return LAPACKE_ctrtri(LAPACK_COL_MAJOR, 'U', 'N', k, reinterpret_cast<lapack_complex_float*>(a),
                        k);
}
lapack_int trtri(lapack_int k, cdouble* a) {
  return LAPACKE_ztrtri(LAPACK_COL_MAJOR, 'U', 'N', k,
                        reinterpret_cast<lapack_complex_double*>(a), k);
}

void check_lapack(lapack_int info, const char* call, std::size_t m, std::size_t n) {
  if (info != 0)
    throw NumericalError(std::string("LAPACK ") + call + " failed with info " +
                         std::to_string(info) + " on a " + std::to_string(m) + " x " +
                         std::to_string(n) + " matrix");
}

// BLAS computes single-threaded inside the pool's tasks. OpenBLAS starts its own threads when
// it is loaded and lets them spin for about 2^28 cycles (a tenth of a second) before they sleep,
// so a short run lost a core to them: at one BLAS thread they are stopped (OpenBLAS restarts
// them itself if more threads are asked for later).
extern "C" int blas_thread_shutdown_(void) __attribute__((weak));
void blas_single_threaded() {
  openblas_set_num_threads(1);
  if (blas_thread_shutdown_ != nullptr) blas_thread_shutdown_();
}

}  // namespace srcc::cpu
