#include "srcc/backend/cpu/cpu_backend.hpp"

#include "srcc/backend/cpu/blas_core.hpp"

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
#include "srcc/backend/cpu/host_pool.hpp"
#include "srcc/backend/cpu/lapack_calls.hpp"
#include "srcc/backend/cpu/one_product.hpp"
#include "srcc/backend/cpu/page_warmer.hpp"
#include "srcc/backend/cpu/small_qr.hpp"
#include "srcc/backend/cpu/thread_blocks.hpp"
#include "srcc/backend/cpu/work_pool.hpp"
#include "srcc/backend/gemm_profile.hpp"
#include "srcc/core/error.hpp"
#include "srcc/core/scaled_norm.hpp"

namespace srcc {

namespace {

using namespace cpu;

template <class T> T conj_of(T x) {
  if constexpr (is_complex_v<T>) return std::conj(x);
  else return x;
}

// The smallest product (in multiply-adds) worth a task of its own: below it, handing work to
// another thread costs about as much as the work. 32³ is a few microseconds on one core.
constexpr double kMinTaskWork = 32.0 * 32.0 * 32.0;

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
    std::size_t bytes = std::max<std::size_t>(n, 1) * sizeof(T);
    if (bytes >= HostPool::kLarge) {
      // Mapped in size classes, so that a freed block serves the next of nearly its size (the
      // symmetric sweep's sector matrices change size from cut to cut): the spare tail is never
      // touched, so it costs no resident memory.
      bytes = BlockCache::size_class(bytes);
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

  // swap_axes: runs of at least kLongRun elements are copied whole (memmove pays from there);
  // shorter ones are moved in tiles of kTile × kTile runs.
  static constexpr std::size_t kLongRun = 16, kTile = 16;

  void swap_axes(std::size_t p, std::size_t x, std::size_t q, std::size_t y, std::size_t r,
                 const T* in, T* out) override {
    // With one of the swapped axes of size 1 the move is a transposition of the other with q.
    if (y == 1) std::swap(q, y);
    else if (x == 1) std::swap(x, q);
    if (r >= kLongRun) {
      for (std::size_t ip = 0; ip < p; ++ip)
        for (std::size_t ix = 0; ix < x; ++ix)
          for (std::size_t iq = 0; iq < q; ++iq)
            for (std::size_t iy = 0; iy < y; ++iy)
              std::copy_n(in + (((ip * x + ix) * q + iq) * y + iy) * r, r,
                          out + (((ip * y + iy) * q + iq) * x + ix) * r);
      return;
    }
    // Short runs (mostly a transposition proper, r = 1): a call to memmove per run cost more
    // than the copy. Each (p, q) slice is an x × y matrix of runs, moved in tiles.
    const std::size_t ld_in = q * y * r, ld_out = q * x * r;
    for (std::size_t ip = 0; ip < p; ++ip)
      for (std::size_t iq = 0; iq < q; ++iq) {
        const T* src = in + (ip * x * q * y + iq * y) * r;
        T* dst = out + (ip * y * q * x + iq * x) * r;
        if (r == 1) transpose_tiles(x, y, std::integral_constant<std::size_t, 1>{}, src, ld_in, dst, ld_out);
        else transpose_tiles(x, y, r, src, ld_in, dst, ld_out);
      }
  }

  // dst[iy, ix] = src[ix, iy] for runs of r elements, row strides ld_in and ld_out: tiles of
  // kTile × kTile runs keep both sides' lines in the L1 cache until they are used whole; a
  // narrow side (the physical or an MPO bond leg, y ≤ kTile) is one tile wide.
  template <class Run>
  static void transpose_tiles(std::size_t x, std::size_t y, Run r, const T* src, std::size_t ld_in, T* dst,
                              std::size_t ld_out) {
    for (std::size_t x0 = 0; x0 < x; x0 += kTile)
      for (std::size_t y0 = 0; y0 < y; y0 += kTile) {
        const std::size_t x1 = std::min(x, x0 + kTile), y1 = std::min(y, y0 + kTile);
        for (std::size_t ix = x0; ix < x1; ++ix)
          for (std::size_t iy = y0; iy < y1; ++iy)
            for (std::size_t k = 0; k < r; ++k) dst[iy * ld_out + ix * r + k] = src[ix * ld_in + iy * r + k];
      }
  }

  void copy(std::size_t n, const T* in, T* out) override { std::copy_n(in, n, out); }
  void copy_runs(std::size_t count, std::size_t len, const T* in, std::size_t ld_in, T* out,
                 std::size_t ld_out) override {
    for (std::size_t i = 0; i < count; ++i) std::copy_n(in + i * ld_in, len, out + i * ld_out);
  }
  void zero(std::size_t n, T* x) override { std::fill_n(x, n, T(0)); }
  void conj(std::size_t n, const T* in, T* out) override {
    for (std::size_t i = 0; i < n; ++i) out[i] = conj_of(in[i]);
  }
  void scale(std::size_t n, R alpha, T* x) override {
    for_chunks(n, [&](std::size_t lo, std::size_t hi) {
      for (std::size_t i = lo; i < hi; ++i) x[i] *= alpha;
    });
  }
  void add(std::size_t n, R alpha, const T* x, T* y) override {
    for_chunks(n, [&](std::size_t lo, std::size_t hi) {
      for (std::size_t i = lo; i < hi; ++i) y[i] += alpha * x[i];
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
    const Reflectors f = factor_r(m, n, y, r);
    if (f.block == 0 || k >= 128) {  // from 128 columns orgqr blocks itself, and is the faster
      std::vector<T> tau = f.t;
      if (f.block > 0) {
        tau.resize(k);
        for (std::size_t i = 0; i < k; ++i) tau[i] = f.t[i * f.block + i % f.block];
      }
      check_lapack(orgqr(bi(m), bi(k), y, tau.data()), "orgqr/ungqr", m, k);
      return;
    }
    // Q from the blocks of reflectors, applied to the identity's first k columns.
    std::vector<T> q(m * k, T{});
    for (std::size_t i = 0; i < k; ++i) q[i * m + i] = T(1);
    check_lapack(gemqrt_q(bi(m), bi(k), bi(f.block), y, f.t.data(), q.data()), "gemqrt", m, k);
    std::copy(q.begin(), q.end(), y);
  }
  void qr_r(std::size_t m, std::size_t n, T* y, T* r) override { factor_r(m, n, y, r); }

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

  // U and the values alone. Below kLeftSvdByQrIteration columns and rows a real SVD is faster by
  // QR iteration updating U only (gesvd) than by divide and conquer forming both factors
  // (gesdd): 1.15–1.8× at 16–128 on the development VM, about even at 160–250; complex ones gain
  // nothing (docs/PERFORMANCE.md, "Charges").
  static constexpr std::size_t kLeftSvdByQrIteration = 160;
  void left_svd(std::size_t m, std::size_t n, T* a, T* u, R* s_host) override {
    if constexpr (!is_complex_v<T>) {
      if (std::min(m, n) < kLeftSvdByQrIteration) {
        BlasThreadsFor blas(work_->threads(), 4.0 * static_cast<double>(m) * static_cast<double>(n) *
                                                  static_cast<double>(std::min(m, n)));
        check_lapack(gesvd_left(bi(m), bi(n), a, s_host, u), "gesvd", m, n);
        return;
      }
    }
    Kernels<T>::left_svd(m, n, a, u, s_host);
  }

 private:
  // A QR's reflectors as it leaves them in y: their τ (block 0, geqrf), or their blocks' factors
  // (block × k, geqrt).
  struct Reflectors {
    std::vector<T> t;
    std::size_t block = 0;
  };
  // The QR of y, R copied out (column-major k × n, k = min(m, n)). LAPACK's geqrf factorises
  // fewer than 128 columns unblocked, column after column in level-2 BLAS, and larger ones in
  // panels factorised so; geqrt blocks them (a block of reflectors applied at once, each block
  // by a recursive QR) and leaves the same reflectors and R to rounding: for real matrices of
  // 16–127 columns 1.6–2.7× faster on the development VM, 1.3× at 200 columns, and below 128
  // columns Q formed from the blocks 1.3–1.5× faster than orgqr. Complex ones gain too little
  // (docs/PERFORMANCE.md, "Measured and not kept" and the levers of "At equal accuracy").
  Reflectors factor_r(std::size_t m, std::size_t n, T* y, T* r) {
    const std::size_t k = std::min(m, n);
    BlasThreadsFor blas(work_->threads(), static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k));
    Reflectors f;
    if (!is_complex_v<T> && k >= 16) {
      f.block = k < 128 ? 16 : 32;
      f.t.resize(f.block * k);
      check_lapack(geqrt(bi(m), bi(n), bi(f.block), y, f.t.data()), "geqrt", m, n);
    } else {
      f.t.resize(k);
      check_lapack(geqrf(bi(m), bi(n), y, f.t.data()), "geqrf", m, n);
    }
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t i = 0; i < k; ++i) r[j * k + i] = i <= j ? y[j * m + i] : T{};
    return f;
  }

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
      // A batch of tiny products in one call: its operand shared by the batch read once.
      if (tiny_product(op_b, mm, nn, k))
        return tiny_gemm(op_a, mm, nn, k, alpha, a + first * stride_a + a0, lda, stride_a, b + first * stride_b + b0,
                         ldb, stride_b, beta, c + first * stride_c + r0 * ldc + c0, ldc, stride_c, last - first, ss);
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

Backend& host_side_backend() {
  // Never destroyed: its pool's threads must not be joined during static destruction at exit.
  static Backend* const backend = make_cpu_backend(1).release();
  return *backend;
}

std::recursive_mutex& host_side_mutex() {
  static std::recursive_mutex mutex;
  return mutex;
}

std::string blas_info() {
  std::string cfg = openblas_get_config();
  while (!cfg.empty() && cfg.back() == ' ') cfg.pop_back();
  return "OpenBLAS " + cfg + "; kernels " + blas_core() + "; LAPACKE";
}

}  // namespace srcc
