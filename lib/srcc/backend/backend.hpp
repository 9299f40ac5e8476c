#pragma once
// The interface the sweep computes through. Every operation works on memory the backend owns
// (host memory for the CPU backend, device memory for a GPU backend): the sweep never touches
// elements directly, so the same sweep runs on every backend. Matrices are row-major unless a
// function says column-major (the LAPACK-facing factorisations do, see sweep.cpp for why).
#include <algorithm>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "srcc/core/dtype.hpp"
#include "srcc/core/scaled_norm.hpp"

namespace srcc {

enum class Op { kNone, kTrans, kConjTrans };

class GemmProfile;  // gemm_profile.hpp

// Real flops of a (batched) GEMM: a complex multiply-add is 8, a real one 2. What CountingGemm
// reports and what --profile-gemm sums, so that the two agree.
template <class T>
double gemm_flops(std::size_t m, std::size_t n, std::size_t k, std::size_t batch) {
  return (is_complex_v<T> ? 8.0 : 2.0) * static_cast<double>(m) * static_cast<double>(n) *
         static_cast<double>(k) * static_cast<double>(batch);
}

// The seconds a host<->device copy took, on the device's own clock (CUDA events). Calling it
// may wait for the copy to finish, so the transfer log calls it late, when the run's log is
// complete, and copies keep overlapping the computation meanwhile.
using CopyClock = std::function<double()>;

// A point in the work queued on a backend (Kernels::mark): a download after it copies what that
// work left, even when issued later, from another thread, with more work queued meanwhile.
using QueuePoint = std::shared_ptr<const void>;

// Backend-owned array of n elements, released by whatever made it.
template <class T> class Buffer {
 public:
  Buffer() = default;
  Buffer(std::shared_ptr<T> p, std::size_t n) : ptr_(std::move(p)), size_(n) {}

  T* data() { return ptr_.get(); }
  const T* data() const { return ptr_.get(); }
  std::size_t size() const { return size_; }
  std::size_t bytes() const { return size_ * sizeof(T); }
  void reset() {
    ptr_.reset();
    size_ = 0;
  }

 private:
  std::shared_ptr<T> ptr_;
  std::size_t size_ = 0;
};

// One GEMM of gemm_chains(): gemm()'s arguments with alpha = 1.
template <class T> struct GemmCall {
  Op op_a = Op::kNone, op_b = Op::kNone;
  std::size_t m = 0, n = 0, k = 0;
  const T* a = nullptr;
  std::size_t lda = 0, stride_a = 0;
  const T* b = nullptr;
  std::size_t ldb = 0, stride_b = 0;
  T beta = T(0);
  T* c = nullptr;
  std::size_t ldc = 0, stride_c = 0, batch = 1;
};

template <class T> class Kernels {
 public:
  using R = real_t<T>;
  virtual ~Kernels() = default;

  virtual Buffer<T> allocate(std::size_t n) = 0;  // uninitialised: callers overwrite it
  // Makes host data available to the kernels: the CPU backend takes the vector over without a
  // copy, a device backend uploads it. `moves_data()` tells which, for the transfer log. A
  // device backend may return before the copy has finished: every later call on these kernels
  // sees the data. Where it times the copy itself, it sets `*clock` (see CopyClock).
  virtual Buffer<T> adopt(std::vector<T>&& host, CopyClock* clock = nullptr) = 0;
  // The first n elements of b in host memory, after every computation queued before the call,
  // or, given `after`, after the computation queued before that mark.
  virtual std::vector<T> download(const Buffer<T>& b, std::size_t n, CopyClock* clock = nullptr,
                                  const QueuePoint& after = nullptr) = 0;
  virtual bool moves_data() const = 0;
  // Independent pieces of work that may run at once: a host backend spreads task(0 … count-1)
  // over its threads (calls made inside a task then run on that task's thread), a device
  // backend runs them in order on its queue. `concurrency()` says how many run at once.
  virtual std::size_t concurrency() const { return 1; }
  virtual void for_each_task(std::size_t count, const std::function<void(std::size_t)>& task) {
    for (std::size_t i = 0; i < count; ++i) task(i);
  }
  // Marks the work queued so far (see QueuePoint). A host backend has nothing in flight: null.
  virtual QueuePoint mark() { return nullptr; }
  // The n elements at p will be written soon: a host backend may fault their pages in while its
  // threads would otherwise wait. One range at a time: a call replaces the last one, and
  // warm(nullptr, 0) withdraws it; either returns when no thread is at the old range any more,
  // so call it before that memory may be freed. The contents are never changed.
  virtual void warm(T* /*p*/, std::size_t /*n*/) {}
  // n elements that the next step will write, allocated now and handed to warm(); a backend
  // that warms nothing withdraws the last range and returns an empty buffer (the step then
  // allocates its output itself).
  virtual Buffer<T> allocate_warmed(std::size_t /*n*/) {
    warm(nullptr, 0);
    return Buffer<T>();
  }

  // How a batch of independent units (sketch columns, rows of S) is cut into work. A host
  // backend cuts it into pieces whose intermediates stay in a core's cache, a device takes a
  // batch whole. `unit_bytes` is the intermediate memory one unit needs.
  // Units per piece when `units` are spread over concurrency() threads, each taking pieces.
  virtual std::size_t piece_units(std::size_t units, std::size_t /*unit_bytes*/) const {
    return units;
  }
  // Tasks that each take an equal range of `units`, and the units a range is computed in at a
  // time (chunks that keep a chain of products in cache).
  struct RowCut {
    std::size_t tasks = 1, chunk = 1;
  };
  virtual RowCut row_cut(std::size_t units, std::size_t /*unit_bytes*/) const {
    return {1, units};
  }

  // Row-major, strided batched GEMM: for i < batch,
  //   C_i = alpha · op(A_i) · op(B_i) + beta · C_i,   C_i is m × n, op(A_i) m × k, op(B_i) k × n,
  // with X_i = X + i · stride_x.
  virtual void gemm(Op op_a, Op op_b, std::size_t m, std::size_t n, std::size_t k, T alpha,
                    const T* a, std::size_t lda, std::size_t stride_a, const T* b,
                    std::size_t ldb, std::size_t stride_b, T beta, T* c, std::size_t ldc,
                    std::size_t stride_c, std::size_t batch) = 0;
  // Independent chains of GEMMs, as a block-sparse contraction makes them: each chain writes one
  // output (its first call may overwrite, beta 0; the later ones accumulate), no two chains write
  // the same memory, and no chain reads what another writes. A host backend runs many chains as
  // tasks over its threads (each GEMM on one), few in order with all of them per GEMM; a device
  // issues the i-th calls of all chains together, one batched launch per shape
  // (backend/gemm_groups.hpp).
  virtual void gemm_chains(const std::vector<std::vector<GemmCall<T>>>& chains) {
    auto run = [&](std::size_t i) {
      for (const GemmCall<T>& g : chains[i])
        gemm(g.op_a, g.op_b, g.m, g.n, g.k, T(1), g.a, g.lda, g.stride_a, g.b, g.ldb, g.stride_b, g.beta, g.c, g.ldc,
             g.stride_c, g.batch);
    };
    if (chains.size() >= 4 * concurrency())
      for_each_task(chains.size(), run);
    else
      for (std::size_t i = 0; i < chains.size(); ++i) run(i);
  }
  // gemm(), returning the Frobenius norm of all the C_i it wrote. The CPU backend sums the
  // squares as its kernel stores them (no pass over C afterwards); others take norm() after.
  virtual R gemm_norm(Op op_a, Op op_b, std::size_t m, std::size_t n, std::size_t k, T alpha,
                      const T* a, std::size_t lda, std::size_t stride_a, const T* b,
                      std::size_t ldb, std::size_t stride_b, T beta, T* c, std::size_t ldc,
                      std::size_t stride_c, std::size_t batch) {
    gemm(op_a, op_b, m, n, k, alpha, a, lda, stride_a, b, ldb, stride_b, beta, c, ldc, stride_c,
         batch);
    return gemm_norm_of(m, n, c, ldc, stride_c, batch);
  }

  // out[a, x, l, y] = env[a, l] · omega[a, x, y] for a < s, x < nx, l < nl, y < ny: the
  // Khatri–Rao product of a sketched environment with one site's test tensor.
  virtual void khatri_rao(std::size_t s, std::size_t nl, std::size_t nx, std::size_t ny,
                          const T* env, const T* omega, T* out) = 0;

  // out[p, y, q, x, r] = in[p, x, q, y, r]: swaps two axes of a 5-axis row-major array.
  virtual void swap_axes(std::size_t p, std::size_t x, std::size_t q, std::size_t y,
                         std::size_t r, const T* in, T* out) = 0;

  virtual void copy(std::size_t n, const T* in, T* out) = 0;
  // `count` runs of `len` contiguous elements, run i from in + i·ld_in to out + i·ld_out: how
  // the blocks of a block-sparse tensor go into and out of a charge sector's matrix.
  virtual void copy_runs(std::size_t count, std::size_t len, const T* in, std::size_t ld_in, T* out,
                         std::size_t ld_out) {
    for (std::size_t i = 0; i < count; ++i) copy(len, in + i * ld_in, out + i * ld_out);
  }
  // Sets n elements to zero (a sector's matrix before its blocks go in).
  virtual void zero(std::size_t n, T* x) {
    if (n == 0) return;
    Buffer<T> z = adopt(std::vector<T>(n));
    copy(n, z.data(), x);
  }
  virtual void conj(std::size_t n, const T* in, T* out) = 0;  // element-wise conjugate
  virtual void scale(std::size_t n, R alpha, T* x) = 0;
  virtual void add(std::size_t n, R alpha, const T* x, T* y) = 0;  // y += alpha·x (the terms of a sum)
  virtual R norm(std::size_t n, const T* x) = 0;  // Frobenius norm
  // The Frobenius norm of the batch of m × n matrices C_i at c + i·stride_c, rows ldc apart.
  R gemm_norm_of(std::size_t m, std::size_t n, const T* c, std::size_t ldc, std::size_t stride_c,
                 std::size_t batch) {
    if (ldc == n && (batch == 1 || stride_c == m * n)) return norm(m * n * batch, c);
    std::vector<R> rows;
    for (std::size_t i = 0; i < batch; ++i)
      for (std::size_t r = 0; r < m; ++r) rows.push_back(norm(n, c + i * stride_c + r * ldc));
    return scaled_norm(rows.data(), rows.size());
  }

  // Thin QR of the column-major m × n matrix y (ld = m): on return y holds Q (m × k,
  // k = min(m, n), orthonormal columns) and r the upper-triangular k × n factor (column-major,
  // ld = k).
  virtual void qr(std::size_t m, std::size_t n, T* y, T* r) = 0;
  // The same R alone (y is left overwritten): a backend that can skips forming Q.
  virtual void qr_r(std::size_t m, std::size_t n, T* y, T* r) { qr(m, n, y, r); }
  // In-place inverse of the upper-triangular k × k column-major matrix r (ld = k); throws
  // NumericalError when r is singular.
  virtual void upper_inverse(std::size_t k, T* r) = 0;
  // SVD of the column-major m × n matrix a (destroyed): u (m × k), vt (k × n), k = min(m, n),
  // column-major with leading dimension = rows; the k singular values (descending) are
  // returned in host memory `s_host`, since the truncation decision is made on the host.
  virtual void svd(std::size_t m, std::size_t n, T* a, T* u, R* s_host, T* vt) = 0;
  // The same without the right factor (u and the values only): a backend that can skips it.
  virtual void left_svd(std::size_t m, std::size_t n, T* a, T* u, R* s_host) {
    Buffer<T> vt = allocate(std::min(m, n) * n);
    svd(m, n, a, u, s_host, vt.data());
  }
};

// A compute device: hands out the kernels for each scalar type.
class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;          // "cpu", "cuda:0"
  virtual std::string library_info() const = 0;  // BLAS/LAPACK (or CUDA) versions in use
  // Bytes of device memory the backend may use; 0 for a backend that computes in host memory.
  virtual std::size_t memory_budget() const { return 0; }
  // Largest amount of device memory in use at once so far (0 for a host backend).
  virtual std::size_t memory_peak() const { return 0; }
  // Threads that compute in host memory (the CPU backend's pool); 0 for a device backend.
  virtual int threads() const { return 0; }
  // Times every GEMM by shape into `profile` from now on (null: stop), which must outlive the
  // backend's use. False where the backend cannot: a GPU queues its GEMMs asynchronously.
  virtual bool profile_gemms(GemmProfile* /*profile*/) { return false; }
  template <class T> Kernels<T>& kernels();

 protected:
  virtual Kernels<float>& kernels_f32() = 0;
  virtual Kernels<double>& kernels_f64() = 0;
  virtual Kernels<cfloat>& kernels_c64() = 0;
  virtual Kernels<cdouble>& kernels_c128() = 0;
};

// A backend whose four kernel sets are instances of one class template, all constructed from
// the same arguments.
template <template <class> class K> class BackendOf : public Backend {
 protected:
  template <class... Args>
  explicit BackendOf(const Args&... args) : f32_(args...), f64_(args...), c64_(args...), c128_(args...) {}
  Kernels<float>& kernels_f32() override { return f32_; }
  Kernels<double>& kernels_f64() override { return f64_; }
  Kernels<cfloat>& kernels_c64() override { return c64_; }
  Kernels<cdouble>& kernels_c128() override { return c128_; }

 private:
  K<float> f32_;
  K<double> f64_;
  K<cfloat> c64_;
  K<cdouble> c128_;
};

template <> inline Kernels<float>& Backend::kernels<float>() { return kernels_f32(); }
template <> inline Kernels<double>& Backend::kernels<double>() { return kernels_f64(); }
template <> inline Kernels<cfloat>& Backend::kernels<cfloat>() { return kernels_c64(); }
template <> inline Kernels<cdouble>& Backend::kernels<cdouble>() { return kernels_c128(); }

}  // namespace srcc
