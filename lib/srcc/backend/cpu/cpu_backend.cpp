#include "srcc/backend/cpu/cpu_backend.hpp"

#include <cblas.h>
#include <lapacke.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cmath>
#include <cstring>
#include <map>
#include <mutex>
#include <type_traits>
#include <vector>

#include "srcc/backend/block_cache.hpp"
#include "srcc/backend/cpu/direct_gemm.hpp"
#include "srcc/backend/cpu/page_warmer.hpp"
#include "srcc/backend/cpu/small_qr.hpp"
#include "srcc/backend/cpu/thread_blocks.hpp"
#include "srcc/backend/cpu/work_pool.hpp"
#include "srcc/backend/gemm_profile.hpp"
#include "srcc/core/error.hpp"
#include "srcc/core/scaled_norm.hpp"

namespace srcc {

namespace {

CBLAS_TRANSPOSE to_cblas(Op op) {
  switch (op) {
    case Op::kNone: return CblasNoTrans;
    case Op::kTrans: return CblasTrans;
    case Op::kConjTrans: break;
  }
  return CblasConjTrans;
}

using blasint_t = blasint;
blasint_t bi(std::size_t v) { return static_cast<blasint_t>(v); }

// --- type dispatch to the BLAS / LAPACKE routine of each scalar type ---------------------

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

// The longest contraction the direct kernel takes: its column blocks of B (k × 12 complex
// numbers) must stay in L1/L2 while the row tiles pass over them. The sweep's products have
// k ≤ 2·N (N the largest bond); the sketch's k = N²·d is left to BLAS.
constexpr std::size_t kDirectMaxDepth = 512;
// B's rows at most this many elements apart (16 KiB in complex double). The kernel reads a
// column block of B row by row; rows far apart (the S update's Z', 40 KB) are each on another
// page, out of the prefetchers' reach, where BLAS copies B into a packed panel first and is
// faster (docs/PERFORMANCE.md, "The direct GEMM kernel").
constexpr std::size_t kDirectMaxRowGap = 1024;
// A contraction this short reads only that many rows of B per column block, whatever their
// gap, and BLAS's packing would cost more than its arithmetic (the left step's V = Ω·W, k = d:
// about 2.5× faster direct).
constexpr std::size_t kDirectAnyGapDepth = 4;

// Σ |x|² over the m × n block at c (rows ldc apart), in double.
template <class T>
double block_sum_squares(std::size_t m, std::size_t n, const T* c, std::size_t ldc) {
  double sum = 0;
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) sum += std::norm(std::complex<double>(c[i * ldc + j]));
  return sum;
}

// One product on the calling thread: the direct kernel where it applies (complex double, B not
// transposed, A at most transposed; direct_gemm.hpp says why), BLAS otherwise. Given
// `sum_squares`, adds Σ |C|² of the result to it (the direct kernel as it stores C; after BLAS,
// a pass over C while it is in cache).
template <class T>
void gemm_here(Op op_a, Op op_b, std::size_t m, std::size_t n, std::size_t k, T alpha,
               const T* a, std::size_t lda, const T* b, std::size_t ldb, T beta, T* c,
               std::size_t ldc, double* sum_squares = nullptr) {
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

lapack_int gesdd(lapack_int m, lapack_int n, cfloat* a, float* s, cfloat* u, cfloat* vt) {
  return complex_gesdd(m, n, a, s, u, vt);
}
lapack_int gesdd(lapack_int m, lapack_int n, cdouble* a, double* s, cdouble* u, cdouble* vt) {
  return complex_gesdd(m, n, a, s, u, vt);
}

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

template <class T> T conj_of(T x) {
  if constexpr (is_complex_v<T>) return std::conj(x);
  else return x;
}

void check_lapack(lapack_int info, const char* call, std::size_t m, std::size_t n) {
  if (info != 0)
    throw NumericalError(std::string("LAPACK ") + call + " failed with info " +
                         std::to_string(info) + " on a " + std::to_string(m) + " x " +
                         std::to_string(n) + " matrix");
}

// The process's resident set size in bytes, from /proc/self/statm (0 where unreadable).
std::size_t resident_bytes() {
  static const int fd = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  static const long page = ::sysconf(_SC_PAGESIZE);
  char buf[128];
  if (fd < 0) return 0;
  const ssize_t n = ::pread(fd, buf, sizeof(buf) - 1, 0);
  if (n <= 0) return 0;
  buf[n] = '\0';
  unsigned long size = 0, resident = 0;
  if (std::sscanf(buf, "%lu %lu", &size, &resident) != 2) return 0;
  return static_cast<std::size_t>(resident) * static_cast<std::size_t>(page);
}

// Large host blocks: mmap'd (so freeing really returns memory: the heap would fragment between
// long-lived environments and per-site temporaries), with a cache of freed blocks, since sweeps
// allocate the same sizes at every site and a reused block costs no page faults. A freed block
// is kept only while the process's resident size is within `limit` (the host budget), and the
// cache gives blocks back before a fresh block would push it past: under a tight budget the
// cache keeps what fits beside the blocks in use instead of nothing (memory/policy.hpp).
class HostPool {
 public:
  static constexpr std::size_t kLarge = memory::kLargeBlockBytes;
  explicit HostPool(std::size_t limit)
      : limit_(limit),
        cache_(std::min<std::size_t>(limit, memory::kHostCacheCapBytes),
               [](void* p, std::size_t n) { munmap(p, n); }) {}
  void* get(std::size_t bytes) {
    if (void* p = cache_.take(bytes)) return p;
    if (cache_.cached() > 0) {
      const std::size_t rss = resident_bytes();
      if (rss + bytes > limit_) {
        const std::size_t over = rss + bytes - limit_;
        cache_.shrink(cache_.cached() > over ? cache_.cached() - over : 0);
      }
    }
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    return p;
  }
  void put(void* p, std::size_t bytes) {
    if (resident_bytes() <= limit_)
      cache_.give(p, bytes);
    else
      munmap(p, bytes);
  }

 private:
  std::size_t limit_;
  BlockCache cache_;
};

// The smallest product (in multiply-adds) worth a task of its own: below it, handing work to
// another thread costs about as much as the work. 32³ is a few microseconds on one core.
constexpr double kMinTaskWork = 32.0 * 32.0 * 32.0;

// BLAS computes single-threaded inside the pool's tasks. OpenBLAS starts its own threads when
// it is loaded and lets them spin for about 2^28 cycles (a tenth of a second) before they sleep,
// so a short run lost a core to them: at one BLAS thread they are stopped (OpenBLAS restarts
// them itself if more threads are asked for later).
extern "C" int blas_thread_shutdown_(void) __attribute__((weak));
void blas_single_threaded() {
  openblas_set_num_threads(1);
  if (blas_thread_shutdown_ != nullptr) blas_thread_shutdown_();
}

// A large factorisation (QR, SVD), which the pool cannot split, gets BLAS's own threads for
// its duration.
class BlasThreadsFor {
 public:
  BlasThreadsFor(int threads, double work) : raise_(threads > 1 && work >= kLargeWork) {
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

struct CpuShared {
  std::shared_ptr<HostPool> memory;
  std::shared_ptr<PageWarmer> warmer;  // stepped by the pool's waiting threads
  std::shared_ptr<WorkPool> threads;
  std::shared_ptr<std::atomic<GemmProfile*>> profile;  // --profile-gemm; null when off
};

template <class T> class CpuKernels final : public Kernels<T> {
 public:
  using R = real_t<T>;
  explicit CpuKernels(const CpuShared& shared)
      : pool_(shared.memory),
        warmer_(shared.warmer),
        work_(shared.threads),
        profile_(shared.profile) {}

  Buffer<T> allocate(std::size_t n) override {
    // Uninitialised, 64-byte aligned: every kernel overwrites its output, and zero-filling
    // environment-sized blocks costs as much as the page faults it triggers.
    const std::size_t bytes = std::max<std::size_t>(n, 1) * sizeof(T);
    if (bytes >= HostPool::kLarge) {
      auto pool = pool_;
      return Buffer<T>(std::shared_ptr<T>(static_cast<T*>(pool->get(bytes)),
                                          [pool, bytes](T* q) { pool->put(q, bytes); }),
                       n);
    }
    if (bytes >= ThreadBlocks::kMinBytes)
      return Buffer<T>(std::shared_ptr<T>(static_cast<T*>(ThreadBlocks::take(bytes)),
                                          [bytes](T* q) { ThreadBlocks::give(q, bytes); }),
                       n);
    constexpr std::align_val_t kAlign{64};
    void* p = ::operator new(bytes, kAlign);
    return Buffer<T>(std::shared_ptr<T>(static_cast<T*>(p),
                                        [](T* q) { ::operator delete(q, kAlign); }),
                     n);
  }
  Buffer<T> adopt(std::vector<T>&& host, CopyClock* /*clock: nothing is copied*/) override {
    auto owner = std::make_shared<std::vector<T>>(std::move(host));
    const std::size_t n = owner->size();
    return Buffer<T>(std::shared_ptr<T>(owner, owner->data()), n);
  }
  std::vector<T> download(const Buffer<T>& b, std::size_t n, CopyClock* /*clock*/,
                          const QueuePoint& /*after: nothing runs behind the host*/) override {
    return std::vector<T>(b.data(), b.data() + n);
  }
  bool moves_data() const override { return false; }
  std::size_t concurrency() const override { return static_cast<std::size_t>(work_->threads()); }
  void for_each_task(std::size_t count, const std::function<void(std::size_t)>& task) override {
    work_->run(count, task);
  }
  void warm(T* p, std::size_t n) override {
    if (work_->threads() > 1) warmer_->start(p, n * sizeof(T));  // one thread never waits
  }
  Buffer<T> allocate_warmed(std::size_t n) override {
    Buffer<T> b = allocate(n);
    warm(b.data(), b.size());
    return b;
  }

  // A thread's piece of a batch aims at this many bytes of intermediates, about half of a core's
  // L2 on current x86 servers, so that a chain of products on it stays in cache (measured in
  // docs/PERFORMANCE.md, "Threads"); on one thread too.
  static constexpr std::size_t kPieceBytes = std::size_t{512} << 10;
  // Units of `unit_bytes` in such a piece: 1 … max(most, 1).
  static std::size_t per_piece(std::size_t unit_bytes, std::size_t most) {
    return std::clamp<std::size_t>(kPieceBytes / std::max<std::size_t>(unit_bytes, 1), 1,
                                   std::max<std::size_t>(most, 1));
  }
  std::size_t piece_units(std::size_t units, std::size_t unit_bytes) const override {
    return per_piece(unit_bytes, units / concurrency());
  }
  typename Kernels<T>::RowCut row_cut(std::size_t units, std::size_t unit_bytes) const override {
    return {std::clamp<std::size_t>(concurrency(), 1, units), per_piece(unit_bytes, units)};
  }

  void gemm(Op op_a, Op op_b, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* a,
            std::size_t lda, std::size_t stride_a, const T* b, std::size_t ldb,
            std::size_t stride_b, T beta, T* c, std::size_t ldc, std::size_t stride_c,
            std::size_t batch) override {
    gemm_summing(op_a, op_b, m, n, k, alpha, a, lda, stride_a, b, ldb, stride_b, beta, c, ldc,
                 stride_c, batch, nullptr);
  }

  R gemm_norm(Op op_a, Op op_b, std::size_t m, std::size_t n, std::size_t k, T alpha,
              const T* a, std::size_t lda, std::size_t stride_a, const T* b, std::size_t ldb,
              std::size_t stride_b, T beta, T* c, std::size_t ldc, std::size_t stride_c,
              std::size_t batch) override {
    double sum = 0;
    gemm_summing(op_a, op_b, m, n, k, alpha, a, lda, stride_a, b, ldb, stride_b, beta, c, ldc,
                 stride_c, batch, &sum);
    if (std::isfinite(sum) && sum > 1e-200) return static_cast<R>(std::sqrt(sum));
    // Squares that overflowed or underflowed: the results' norm the careful way.
    return Kernels<T>::gemm_norm_of(m, n, c, ldc, stride_c, batch);
  }

  // A product whose contraction is this many times longer than C is wide or tall (the sketch
  // Y = C_j Z'ᵀ: 50 × 100 over 2,500) is split along the contraction: panels of C would each
  // pack all of the long operand, while ranges of the contraction share nothing but C's small
  // sums (docs/PERFORMANCE.md, "Threads"). Below 8 the split lost: on short contractions the
  // sums cost what the split saves.
  static constexpr std::size_t kDeepProduct = 8;

  // C = alpha·A·B + beta·C with the contraction split in `parts` ranges: part 0 into C, the
  // others into their own m × n blocks, added to C at the end.
  void gemm_split_depth(Op op_a, Op op_b, std::size_t m, std::size_t n, std::size_t k, T alpha,
                        const T* a, std::size_t lda, const T* b, std::size_t ldb, T beta, T* c,
                        std::size_t ldc, std::size_t parts) {
    std::vector<std::vector<T>> partial(parts - 1, std::vector<T>(m * n));
    work_->run(parts, [&](std::size_t p) {
      const std::size_t k0 = k * p / parts, k1 = k * (p + 1) / parts;
      const T* ap = a + (op_a == Op::kNone ? k0 : k0 * lda);
      const T* bp = b + (op_b == Op::kNone ? k0 * ldb : k0);
      T* cp = p == 0 ? c : partial[p - 1].data();
      gemm_here(op_a, op_b, m, n, k1 - k0, alpha, ap, lda, bp, ldb, p == 0 ? beta : T(0), cp,
                p == 0 ? ldc : n);
    });
    for (const auto& part : partial)
      for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < n; ++j) c[i * ldc + j] += part[i * n + j];
  }

  void khatri_rao(std::size_t s, std::size_t nl, std::size_t nx, std::size_t ny, const T* env,
                  const T* omega, T* out) override {
    for (std::size_t a = 0; a < s; ++a)
      for (std::size_t x = 0; x < nx; ++x) {
        const T* om = omega + (a * nx + x) * ny;
        const T* e = env + a * nl;
        T* o = out + (a * nx + x) * nl * ny;
        for (std::size_t l = 0; l < nl; ++l)
          for (std::size_t y = 0; y < ny; ++y) o[l * ny + y] = e[l] * om[y];
      }
  }

  void swap_axes(std::size_t p, std::size_t x, std::size_t q, std::size_t y, std::size_t r,
                 const T* in, T* out) override {
    for (std::size_t ip = 0; ip < p; ++ip)
      for (std::size_t ix = 0; ix < x; ++ix)
        for (std::size_t iq = 0; iq < q; ++iq)
          for (std::size_t iy = 0; iy < y; ++iy)
            std::copy_n(in + (((ip * x + ix) * q + iq) * y + iy) * r, r,
                        out + (((ip * y + iy) * q + iq) * x + ix) * r);
  }

  void copy(std::size_t n, const T* in, T* out) override { std::copy_n(in, n, out); }
  void conj(std::size_t n, const T* in, T* out) override {
    for (std::size_t i = 0; i < n; ++i) out[i] = conj_of(in[i]);
  }
  void scale(std::size_t n, R alpha, T* x) override {
    for_chunks(n, [&](std::size_t lo, std::size_t hi) {
      for (std::size_t i = lo; i < hi; ++i) x[i] *= alpha;
    });
  }
  R norm(std::size_t n, const T* x) override {
    // One pass summing squares in double, in chunks over the pool: the sweep keeps its
    // environments at unit scale, so this neither overflows nor underflows in practice. Where it
    // does (a sum that is not finite, or so small that digits or everything underflowed), two
    // passes: the largest component, then a scaled sum.
    const R* v = reinterpret_cast<const R*>(x);
    const std::size_t m = n * (is_complex_v<T> ? 2 : 1);
    std::vector<double> part(chunks(m), 0.0);
    for_chunks(m, [&](std::size_t lo, std::size_t hi) {
      double s0 = 0, s1 = 0;
      std::size_t i = lo;
      for (; i + 1 < hi; i += 2) {
        s0 += static_cast<double>(v[i]) * static_cast<double>(v[i]);
        s1 += static_cast<double>(v[i + 1]) * static_cast<double>(v[i + 1]);
      }
      if (i < hi) s0 += static_cast<double>(v[i]) * static_cast<double>(v[i]);
      part[lo / chunk_size(m)] = s0 + s1;
    });
    double sum = 0;
    for (double p : part) sum += p;
    if (std::isfinite(sum) && sum > 1e-200) return static_cast<R>(std::sqrt(sum));
    return scaled_norm(v, m);
  }

  void qr(std::size_t m, std::size_t n, T* y, T* r) override {
    // The sweep's sketches (complex double, up to 512 rows): our blocked QR (small_qr.hpp);
    // with SRCC_DIRECT_GEMM=0 LAPACK, as everything else.
    if constexpr (std::is_same_v<T, cdouble>) {
      if (m >= n && n > 0 && m <= small_qr::kMaxRows &&
          direct_gemm::kernel() != direct_gemm::Kernel::kNone &&
          small_qr::householder_qr(m, n, y, r))
        return;
    }
    const std::size_t k = std::min(m, n);
    BlasThreadsFor blas(work_->threads(), static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k));
    std::vector<T> tau(k);
    check_lapack(geqrf(bi(m), bi(n), y, tau.data()), "geqrf", m, n);
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t i = 0; i < k; ++i) r[j * k + i] = i <= j ? y[j * m + i] : T{};
    check_lapack(orgqr(bi(m), bi(k), y, tau.data()), "orgqr/ungqr", m, k);
  }

  void upper_inverse(std::size_t k, T* r) override {
    BlasThreadsFor blas(work_->threads(), static_cast<double>(k) * static_cast<double>(k) * static_cast<double>(k) / 3);
    check_lapack(trtri(bi(k), r), "trtri", k, k);
  }

  void svd(std::size_t m, std::size_t n, T* a, T* u, R* s_host, T* vt) override {
    BlasThreadsFor blas(work_->threads(), 4.0 * static_cast<double>(m) * static_cast<double>(n) *
                                              static_cast<double>(std::min(m, n)));
    // (The complex overloads of gesdd work in padded copies: see complex_gesdd.)
    check_lapack(gesdd(bi(m), bi(n), a, s_host, u, vt), "gesdd", m, n);
  }

 private:
  // gemm(), adding Σ |C_i|² of the results to `*sum_squares` when it is given.
  void gemm_summing(Op op_a, Op op_b, std::size_t m, std::size_t n, std::size_t k, T alpha,
                    const T* a, std::size_t lda, std::size_t stride_a, const T* b,
                    std::size_t ldb, std::size_t stride_b, T beta, T* c, std::size_t ldc,
                    std::size_t stride_c, std::size_t batch, double* sum_squares) {
    if (m == 0 || n == 0 || batch == 0) return;
    // --profile-gemm: times this call, whichever way below it returns.
    const GemmTimer timer(profile_->load(std::memory_order_relaxed),
                          {static_cast<int>(op_a), static_cast<int>(op_b), m, n, k, batch,
                           WorkPool::in_task()},
                          gemm_flops<T>(m, n, k, batch));
    // C_i for i in [first, last), or one panel of C_0 (rows r0 … r0+mm, columns c0 … c0+nn),
    // its Σ |C|² added to *ss when ss is given.
    auto run = [&](std::size_t first, std::size_t last, std::size_t r0, std::size_t mm,
                   std::size_t c0, std::size_t nn, double* ss) {
      const std::size_t a0 = op_a == Op::kNone ? r0 * lda : r0;
      const std::size_t b0 = op_b == Op::kNone ? c0 : c0 * ldb;
      for (std::size_t i = first; i < last; ++i)
        gemm_here(op_a, op_b, mm, nn, k, alpha, a + i * stride_a + a0, lda, b + i * stride_b + b0,
                  ldb, beta, c + i * stride_c + r0 * ldc + c0, ldc, ss);
    };
    const double work = static_cast<double>(m) * static_cast<double>(n) *
                        static_cast<double>(std::max<std::size_t>(k, 1));
    const std::size_t most = static_cast<std::size_t>(
        std::clamp(work * static_cast<double>(batch) / kMinTaskWork, 1.0,
                   static_cast<double>(work_->threads())));
    if (most < 2) return run(0, batch, 0, m, 0, n, sum_squares);
    // Each part's sum of squares on its own, added up at the end.
    std::vector<double> part_sums;
    auto part_sum = [&](std::size_t p) {
      return sum_squares != nullptr ? &part_sums[p] : nullptr;
    };
    auto add_parts = [&] {
      if (sum_squares != nullptr)
        for (double x : part_sums) *sum_squares += x;
    };
    if (batch > 1) {
      // Independent products: equal contiguous ranges of the batch, one per thread.
      const std::size_t parts = std::min(batch, most);
      part_sums.assign(parts, 0.0);
      work_->run(parts, [&](std::size_t p) {
        run(batch * p / parts, batch * (p + 1) / parts, 0, m, 0, n, part_sum(p));
      });
      return add_parts();
    }
    if (k >= kDeepProduct * std::max(m, n)) {
      gemm_split_depth(op_a, op_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, most);
      if (sum_squares != nullptr) *sum_squares += block_sum_squares(m, n, c, ldc);
      return;
    }
    // One product: panels of C's rows (or columns, when it is wider than tall); each panel
    // multiplies all of the other operand, which BLAS packs once per panel.
    const bool by_rows = m >= n;
    const std::size_t extent = by_rows ? m : n;
    const std::size_t parts = std::min(most, extent);
    part_sums.assign(parts, 0.0);
    work_->run(parts, [&](std::size_t p) {
      const std::size_t lo = extent * p / parts, hi = extent * (p + 1) / parts;
      if (by_rows) run(0, 1, lo, hi - lo, 0, n, part_sum(p));
      else run(0, 1, 0, m, lo, hi - lo, part_sum(p));
    });
    add_parts();
  }

  // Element-wise passes over large arrays are split into chunks of at least kMinChunk elements,
  // one per thread at most; chunk i covers [i·chunk_size, (i+1)·chunk_size).
  static constexpr std::size_t kMinChunk = std::size_t{1} << 15;
  std::size_t chunks(std::size_t n) const {
    return std::clamp<std::size_t>(n / kMinChunk, 1, static_cast<std::size_t>(work_->threads()));
  }
  std::size_t chunk_size(std::size_t n) const { return (n + chunks(n) - 1) / chunks(n); }
  template <class F> void for_chunks(std::size_t n, F&& f) {
    const std::size_t size = chunk_size(n), count = n == 0 ? 0 : (n + size - 1) / size;
    work_->run(count, [&](std::size_t i) { f(i * size, std::min(n, (i + 1) * size)); });
  }

  std::shared_ptr<HostPool> pool_;
  std::shared_ptr<PageWarmer> warmer_;
  std::shared_ptr<WorkPool> work_;
  std::shared_ptr<std::atomic<GemmProfile*>> profile_;
};

class CpuBackend final : public BackendOf<CpuKernels> {
 public:
  CpuBackend(int threads, std::size_t pool_bytes)
      : CpuBackend(threads, pool_bytes, std::make_shared<PageWarmer>()) {}
  std::string name() const override { return "cpu"; }
  std::string library_info() const override { return blas_info(); }
  int threads() const override { return work_->threads(); }
  bool profile_gemms(GemmProfile* profile) override {
    profile_->store(profile);
    return true;
  }

 private:
  CpuBackend(int threads, std::size_t pool_bytes, const std::shared_ptr<PageWarmer>& warmer)
      : CpuBackend(CpuShared{std::make_shared<HostPool>(pool_bytes), warmer,
                             std::make_shared<WorkPool>(threads, warmer),
                             std::make_shared<std::atomic<GemmProfile*>>(nullptr)}) {}
  explicit CpuBackend(const CpuShared& shared)
      : BackendOf<CpuKernels>(shared), work_(shared.threads), profile_(shared.profile) {}
  std::shared_ptr<WorkPool> work_;
  std::shared_ptr<std::atomic<GemmProfile*>> profile_;
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend(int threads, std::size_t pool_bytes) {
  // The BLAS library's own default (OPENBLAS_NUM_THREADS or the cores), read before the first
  // backend sets BLAS to one thread.
  static const int library_default = openblas_get_num_threads();
  if (threads <= 0) threads = library_default;
  blas_single_threaded();
  return std::make_unique<CpuBackend>(threads, pool_bytes);
}

std::string blas_info() {
  std::string cfg = openblas_get_config();
  while (!cfg.empty() && cfg.back() == ' ') cfg.pop_back();
  return "OpenBLAS " + cfg + "; LAPACKE";
}

}  // namespace srcc
