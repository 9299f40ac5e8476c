// The CUDA backend (see cuda_backend.hpp). Row-major GEMMs are issued to column-major cuBLAS as
// their transposes: C = op(A) op(B) (row-major) is Cᵀ = op(B)ᵀ op(A)ᵀ (column-major), i.e. the
// same call with A and B swapped. QR and SVD work on column-major matrices as in the interface.
// Everything runs on the device's compute stream; moves run on its copy stream (see
// device_context.hpp), and each kernel first waits for uploads into the memory it touches.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "srcc/backend/cuda/cuda_check.hpp"
#include "srcc/backend/cuda/cuda_module.hpp"
#include "srcc/backend/cuda/device_context.hpp"
#include "srcc/backend/cuda/device_types.hpp"
#include "srcc/backend/cuda/elementwise.cuh"
#include "srcc/backend/cuda/typed_calls.hpp"
#include "srcc/backend/gemm_groups.hpp"
#include "srcc/core/error.hpp"
#include "srcc/memory/policy.hpp"

namespace srcc::cuda {

namespace {

template <class T> class CudaKernels final : public Kernels<T> {
 public:
  using R = real_t<T>;
  explicit CudaKernels(std::shared_ptr<DeviceContext> ctx) : ctx_(std::move(ctx)) {}

  Buffer<T> allocate(std::size_t n) override {
    ctx_->use();
    return Buffer<T>(raw<T>(std::max<std::size_t>(n, 1)), n);
  }
  Buffer<T> adopt(std::vector<T>&& host, CopyClock* clock) override {
    Buffer<T> b = allocate(host.size());
    CopyClock c = ctx_->upload(b.data(), host.data(), host.size() * sizeof(T));
    if (clock) *clock = std::move(c);
    return b;
  }
  std::vector<T> download(const Buffer<T>& b, std::size_t n, CopyClock* clock,
                          const QueuePoint& after) override {
    std::vector<T> out(n);
    CopyClock c = ctx_->download(out.data(), b.data(), n * sizeof(T), after);
    if (clock) *clock = std::move(c);
    return out;
  }
  bool moves_data() const override { return true; }
  QueuePoint mark() override { return ctx_->mark(); }

  void gemm(Op op_a, Op op_b, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* a,
            std::size_t lda, std::size_t stride_a, const T* b, std::size_t ldb,
            std::size_t stride_b, T beta, T* c, std::size_t ldc, std::size_t stride_c,
            std::size_t batch) override {
    if (m == 0 || n == 0 || batch == 0) return;
    ready(a, b, c);
    // Row-major C = op(A) op(B) is column-major Cᵀ = op(B)ᵀ op(A)ᵀ: swap the operands.
    check_cublas(gemm_batched(ctx_->blas(), to_cublas(op_b), to_cublas(op_a), static_cast<int>(n),
                              static_cast<int>(m), static_cast<int>(k), dp(&alpha), dp(b),
                              static_cast<int>(ldb), static_cast<long long>(stride_b), dp(a),
                              static_cast<int>(lda), static_cast<long long>(stride_a), dp(&beta),
                              dp(c), static_cast<int>(ldc), static_cast<long long>(stride_c),
                              static_cast<int>(batch)),
                 "cublas<t>gemmStridedBatched");
  }

  // Each wave's groups (gemm_groups.hpp) as one pointer-array batched GEMM each, so that a
  // block-sparse contraction's many small products take a few launches; a group of one matrix
  // as gemm(). The pointer arrays go up on the compute stream and return to the pool behind it.
  void gemm_chains(const std::vector<std::vector<GemmCall<T>>>& chains) override {
    ctx_->use();
    // A call's strided batch lies in one allocation, so waiting for the upload that holds its
    // first matrices covers them all: once per call, not per matrix.
    for (const auto& chain : chains)
      for (const GemmCall<T>& g : chain) {
        ctx_->await(g.a);
        ctx_->await(g.b);
        ctx_->await(g.c);
      }
    for (const auto& wave : gemm_waves(chains))
      for (const GemmGroup<T>& g : wave) {
        const std::size_t count = g.c.size();
        if (count == 1) {
          gemm(g.op_a, g.op_b, g.m, g.n, g.k, T(1), g.a[0], g.lda, 0, g.b[0], g.ldb, 0, g.beta, g.c[0], g.ldc, 0, 1);
          continue;
        }
        // B's, A's, then C's pointers: row-major C = op(A) op(B) is column-major Cᵀ = op(B)ᵀ op(A)ᵀ.
        std::vector<void*> host(3 * count);
        for (std::size_t i = 0; i < count; ++i) {
          host[i] = const_cast<T*>(g.b[i]);
          host[count + i] = const_cast<T*>(g.a[i]);
          host[2 * count + i] = g.c[i];
        }
        const std::shared_ptr<void*> arrays = raw<void*>(3 * count);
        check_cuda(cudaMemcpyAsync(arrays.get(), host.data(), host.size() * sizeof(void*), cudaMemcpyHostToDevice,
                                   ctx_->compute()),
                   "cudaMemcpyAsync (GEMM pointers)");
        const auto* in = reinterpret_cast<const dev_t<T>* const*>(arrays.get());
        const auto* out = reinterpret_cast<dev_t<T>* const*>(arrays.get() + 2 * count);
        const T one(1);
        check_cublas(gemm_pointers(ctx_->blas(), to_cublas(g.op_b), to_cublas(g.op_a), static_cast<int>(g.n),
                                   static_cast<int>(g.m), static_cast<int>(g.k), dp(&one), in, static_cast<int>(g.ldb),
                                   in + count, static_cast<int>(g.lda), dp(&g.beta), out, static_cast<int>(g.ldc),
                                   static_cast<int>(count)),
                     "cublas<t>gemmBatched");
      }
  }

  void khatri_rao(std::size_t s, std::size_t nl, std::size_t nx, std::size_t ny, const T* env,
                  const T* omega, T* out) override {
    const std::size_t total = s * nl * nx * ny;
    if (total == 0) return;
    ready(env, omega, out);
    khatri_rao_kernel<<<blocks_for(total), kThreads, 0, ctx_->compute()>>>(
        s, nl, nx, ny, dp(env), dp(omega), dp(out), total);
    check_cuda(cudaGetLastError(), "khatri_rao kernel");
  }
  void swap_axes(std::size_t p, std::size_t x, std::size_t q, std::size_t y, std::size_t r,
                 const T* in, T* out) override {
    const std::size_t total = p * x * q * y * r;
    if (total == 0) return;
    ready(in, out);
    swap_axes_kernel<<<blocks_for(total), kThreads, 0, ctx_->compute()>>>(p, x, q, y, r, dp(in),
                                                                          dp(out), total);
    check_cuda(cudaGetLastError(), "swap_axes kernel");
  }
  void copy(std::size_t n, const T* in, T* out) override {
    if (n == 0) return;
    ready(in, out);
    check_cuda(cudaMemcpyAsync(out, in, n * sizeof(T), cudaMemcpyDeviceToDevice, ctx_->compute()),
               "cudaMemcpyAsync (device to device)");
  }
  // The runs as one strided copy (each run a row of a pitched 2-D copy).
  void copy_runs(std::size_t count, std::size_t len, const T* in, std::size_t ld_in, T* out,
                 std::size_t ld_out) override {
    if (count == 0 || len == 0) return;
    if (ld_in < len || ld_out < len) {  // runs that overlap their neighbours: one at a time
      Kernels<T>::copy_runs(count, len, in, ld_in, out, ld_out);
      return;
    }
    ready(in, out);
    check_cuda(cudaMemcpy2DAsync(out, ld_out * sizeof(T), in, ld_in * sizeof(T), len * sizeof(T), count,
                                 cudaMemcpyDeviceToDevice, ctx_->compute()),
               "cudaMemcpy2DAsync (runs)");
  }
  void zero(std::size_t n, T* x) override {
    if (n == 0) return;
    ready(x);
    check_cuda(cudaMemsetAsync(x, 0, n * sizeof(T), ctx_->compute()), "cudaMemsetAsync");
  }
  void conj(std::size_t n, const T* in, T* out) override {
    if (n == 0) return;
    ready(in, out);
    conj_kernel<<<blocks_for(n), kThreads, 0, ctx_->compute()>>>(n, dp(in), dp(out));
    check_cuda(cudaGetLastError(), "conj kernel");
  }
  void scale(std::size_t n, R alpha, T* x) override {
    if (n == 0) return;
    ready(x);
    check_cublas(scal(ctx_->blas(), static_cast<int>(n), alpha, dp(x)), "cublas<t>scal");
  }
  void add(std::size_t n, R alpha, const T* x, T* y) override {
    if (n == 0) return;
    ready(x, y);
    check_cublas(axpy(ctx_->blas(), static_cast<int>(n), alpha, dp(x), dp(y)), "cublas<t>axpy");
  }
  R norm(std::size_t n, const T* x) override {
    if (n == 0) return R(0);
    ready(x);
    R r = 0;  // host pointer mode: the call returns when the result is here
    check_cublas(nrm2(ctx_->blas(), static_cast<int>(n), dp(x), &r), "cublas<t>nrm2");
    return r;
  }

  void qr(std::size_t m, std::size_t n, T* y, T* r) override {
    ready(y, r);
    const int im = static_cast<int>(m), in = static_cast<int>(n);
    const std::size_t k = std::min(m, n);
    Buffer<T> tau = allocate(k);
    Buffer<int> info = int_buffer();
    int lwork = 0, lwork2 = 0;
    check_cusolver(geqrf_size(ctx_->solver(), im, in, dp(y), &lwork), "cusolverDn<t>geqrf_bufferSize");
    check_cusolver(orgqr_size(ctx_->solver(), im, static_cast<int>(k), dp(y), dp(tau.data()), &lwork2),
                   "cusolverDn<t>orgqr_bufferSize");
    Buffer<T> work = allocate(static_cast<std::size_t>(std::max(lwork, lwork2)));
    check_cusolver(geqrf(ctx_->solver(), im, in, dp(y), dp(tau.data()), dp(work.data()), lwork,
                         info.data()),
                   "cusolverDn<t>geqrf");
    upper_kernel<<<blocks_for(k * n), kThreads, 0, ctx_->compute()>>>(
        m, n, k, dp(static_cast<const T*>(y)), dp(r));
    check_cuda(cudaGetLastError(), "upper-triangle kernel");
    check_cusolver(orgqr(ctx_->solver(), im, static_cast<int>(k), dp(y), dp(tau.data()),
                         dp(work.data()), std::max(lwork, lwork2), info.data()),
                   "cusolverDn<t>orgqr/ungqr");
    check_info(info, "geqrf/orgqr", m, n);
  }

  void upper_inverse(std::size_t k, T* r) override {
    ready(r);
    std::size_t dev_bytes = 0, host_bytes = 0;
    check_cusolver(cusolverDnXtrtri_bufferSize(ctx_->solver(), CUBLAS_FILL_MODE_UPPER,
                                               CUBLAS_DIAG_NON_UNIT, static_cast<int64_t>(k),
                                               Dev<T>::data_type, r, static_cast<int64_t>(k),
                                               &dev_bytes, &host_bytes),
                   "cusolverDnXtrtri_bufferSize");
    Buffer<T> work = allocate(dev_bytes / sizeof(T) + 1);
    std::vector<char> host(host_bytes + 1);
    Buffer<int> info = int_buffer();
    check_cusolver(cusolverDnXtrtri(ctx_->solver(), CUBLAS_FILL_MODE_UPPER, CUBLAS_DIAG_NON_UNIT,
                                    static_cast<int64_t>(k), Dev<T>::data_type, r,
                                    static_cast<int64_t>(k), work.data(), dev_bytes, host.data(),
                                    host_bytes, info.data()),
                   "cusolverDnXtrtri");
    check_info(info, "trtri", k, k);
  }

  void svd(std::size_t m, std::size_t n, T* a, T* u, R* s_host, T* vt) override {
    ready(a, u, vt);
    const int im = static_cast<int>(m), in = static_cast<int>(n);
    const std::size_t k = std::min(m, n);
    gesvdjInfo_t params = nullptr;
    check_cusolver(cusolverDnCreateGesvdjInfo(&params), "cusolverDnCreateGesvdjInfo");
    std::shared_ptr<void> guard(params, [](void* p) {
      cusolverDnDestroyGesvdjInfo(static_cast<gesvdjInfo_t>(p));
    });
    std::shared_ptr<R> sigma = raw<R>(k + 1);
    Buffer<T> v = allocate(n * k);  // V (n × k); the interface wants Vᴴ (k × n)
    int lwork = 0;
    check_cusolver(gesvdj_size(ctx_->solver(), im, in, dp(a), sigma.get(), dp(u), dp(v.data()),
                               &lwork, params),
                   "cusolverDn<t>gesvdj_bufferSize");
    Buffer<T> work = allocate(static_cast<std::size_t>(std::max(lwork, 1)));
    Buffer<int> info = int_buffer();
    check_cusolver(gesvdj(ctx_->solver(), im, in, dp(a), sigma.get(), dp(u), dp(v.data()),
                          dp(work.data()), lwork, info.data(), params),
                   "cusolverDn<t>gesvdj");
    check_info(info, "gesvdj", m, n);
    check_cublas(adjoint(ctx_->blas(), static_cast<int>(n), static_cast<int>(k), dp(v.data()), dp(vt)),
                 "cublas<t>geam (adjoint)");
    check_cuda(cudaMemcpyAsync(s_host, sigma.get(), k * sizeof(R), cudaMemcpyDeviceToHost,
                               ctx_->compute()),
               "cudaMemcpyAsync (singular values)");
    ctx_->finish_compute();
  }

 private:
  // Selects the device and makes the compute stream wait for uploads into these operands.
  template <class... P> void ready(const P*... p) {
    ctx_->use();
    (ctx_->await(p), ...);
  }

  // n elements of type E from the device context, returned to it when the last owner goes.
  template <class E> std::shared_ptr<E> raw(std::size_t n) {
    const std::size_t bytes = n * sizeof(E);
    auto ctx = ctx_;
    return std::shared_ptr<E>(static_cast<E*>(ctx->allocate(bytes)),
                              [ctx, bytes](E* q) { ctx->release(q, bytes); });
  }
  Buffer<int> int_buffer() { return Buffer<int>(raw<int>(2), 1); }

  void check_info(Buffer<int>& info, const char* what, std::size_t m, std::size_t n) {
    int h = 0;
    check_cuda(cudaMemcpyAsync(&h, info.data(), sizeof(int), cudaMemcpyDeviceToHost, ctx_->compute()),
               "cudaMemcpyAsync (info)");
    ctx_->finish_compute();
    if (h != 0)
      throw NumericalError(std::string("cuSOLVER ") + what + " returned info " + std::to_string(h) +
                           " on a " + std::to_string(m) + " x " + std::to_string(n) + " matrix");
  }

  std::shared_ptr<DeviceContext> ctx_;
};

class CudaBackend final : public BackendOf<CudaKernels> {
 public:
  CudaBackend(int device, std::size_t budget)
      : CudaBackend(budget, std::make_shared<DeviceContext>(device, budget)) {}
  std::string name() const override { return "cuda:" + std::to_string(ctx_->device()); }
  std::size_t memory_budget() const override { return budget_; }
  std::size_t memory_peak() const override { return ctx_->peak(); }
  std::string library_info() const override {
    int runtime = 0, driver = 0, blas = 0;
    cudaRuntimeGetVersion(&runtime);
    cudaDriverGetVersion(&driver);
    cublasGetVersion(ctx_->blas(), &blas);
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, ctx_->device());
    return std::string(prop.name) + "; CUDA runtime " + std::to_string(runtime) + ", driver " +
           std::to_string(driver) + ", cuBLAS " + std::to_string(blas) + ", cuSOLVER";
  }

 private:
  CudaBackend(std::size_t budget, const std::shared_ptr<DeviceContext>& ctx)
      : BackendOf<CudaKernels>(ctx), budget_(budget), ctx_(ctx) {}
  std::size_t budget_;
  std::shared_ptr<DeviceContext> ctx_;
};

int device_count(std::string& why) {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    why = std::string("cudaGetDeviceCount: ") + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
    return 0;
  }
  if (n == 0) why = "no CUDA device is visible";
  return n;
}

std::unique_ptr<Backend> make_backend(int device, std::size_t budget_bytes) {
  std::string why;
  const int n = device_count(why);
  if (n == 0)
    throw BackendError("--device gpu:" + std::to_string(device) + ": 0 CUDA devices visible (" +
                       why + "); --device cpu works on this machine");
  if (device >= n)
    throw BackendError("--device gpu:" + std::to_string(device) + ": only " + std::to_string(n) +
                       " CUDA device(s) visible (gpu:0 … gpu:" + std::to_string(n - 1) + ")");
  if (budget_bytes == 0) {
    check_cuda(cudaSetDevice(device), "cudaSetDevice");
    std::size_t free_bytes = 0, total = 0;
    check_cuda(cudaMemGetInfo(&free_bytes, &total), "cudaMemGetInfo");
    budget_bytes = memory::detected_device_budget(free_bytes);
  }
  return std::make_unique<CudaBackend>(device, budget_bytes);
}

}  // namespace

}  // namespace srcc::cuda

extern "C" __attribute__((visibility("default"))) const srcc::CudaModule* srcc_cuda_module() {
  static const srcc::CudaModule module{&srcc::cuda::device_count, &srcc::cuda::make_backend};
  return &module;
}
