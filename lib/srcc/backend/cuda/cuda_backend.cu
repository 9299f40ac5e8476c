// The CUDA backend (see cuda_backend.hpp). Row-major GEMMs are issued to column-major cuBLAS as
// their transposes: C = op(A) op(B) (row-major) is Cᵀ = op(B)ᵀ op(A)ᵀ (column-major), i.e. the
// same call with A and B swapped. QR and SVD work on column-major matrices as in the interface.
#include <cublas_v2.h>
#include <cuComplex.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "srcc/backend/block_cache.hpp"
#include "srcc/backend/cuda/cuda_module.hpp"
#include "srcc/core/error.hpp"

namespace srcc {

namespace {

// ---- error reporting: every failure names the call and the status ------------------------

void check_cuda(cudaError_t e, const char* call) {
  if (e != cudaSuccess)
    throw BackendError(std::string(call) + " failed: " + cudaGetErrorName(e) + " (" +
                       cudaGetErrorString(e) + ")");
}

void check_cublas(cublasStatus_t s, const char* call) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw BackendError(std::string(call) + " failed: " + cublasGetStatusName(s));
}

const char* cusolver_status_name(cusolverStatus_t s) {
  switch (s) {
    case CUSOLVER_STATUS_SUCCESS: return "CUSOLVER_STATUS_SUCCESS";
    case CUSOLVER_STATUS_NOT_INITIALIZED: return "CUSOLVER_STATUS_NOT_INITIALIZED";
    case CUSOLVER_STATUS_ALLOC_FAILED: return "CUSOLVER_STATUS_ALLOC_FAILED";
    case CUSOLVER_STATUS_INVALID_VALUE: return "CUSOLVER_STATUS_INVALID_VALUE";
    case CUSOLVER_STATUS_ARCH_MISMATCH: return "CUSOLVER_STATUS_ARCH_MISMATCH";
    case CUSOLVER_STATUS_EXECUTION_FAILED: return "CUSOLVER_STATUS_EXECUTION_FAILED";
    case CUSOLVER_STATUS_INTERNAL_ERROR: return "CUSOLVER_STATUS_INTERNAL_ERROR";
    case CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED: return "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
    default: return "CUSOLVER_STATUS_(other)";
  }
}

void check_cusolver(cusolverStatus_t s, const char* call) {
  if (s != CUSOLVER_STATUS_SUCCESS)
    throw BackendError(std::string(call) + " failed: " + cusolver_status_name(s));
}

// ---- scalar types on the device ------------------------------------------------------------

template <class T> struct Dev;
template <> struct Dev<float> {
  using type = float;
  static constexpr cudaDataType data_type = CUDA_R_32F;
  __device__ static float mul(float a, float b) { return a * b; }
  __device__ static float conj(float a) { return a; }
};
template <> struct Dev<double> {
  using type = double;
  static constexpr cudaDataType data_type = CUDA_R_64F;
  __device__ static double mul(double a, double b) { return a * b; }
  __device__ static double conj(double a) { return a; }
};
template <> struct Dev<cfloat> {
  using type = cuFloatComplex;
  static constexpr cudaDataType data_type = CUDA_C_32F;
  __device__ static cuFloatComplex mul(cuFloatComplex a, cuFloatComplex b) { return cuCmulf(a, b); }
  __device__ static cuFloatComplex conj(cuFloatComplex a) { return cuConjf(a); }
};
template <> struct Dev<cdouble> {
  using type = cuDoubleComplex;
  static constexpr cudaDataType data_type = CUDA_C_64F;
  __device__ static cuDoubleComplex mul(cuDoubleComplex a, cuDoubleComplex b) { return cuCmul(a, b); }
  __device__ static cuDoubleComplex conj(cuDoubleComplex a) { return cuConj(a); }
};

template <class T> using dev_t = typename Dev<T>::type;
template <class T> dev_t<T>* dp(T* p) { return reinterpret_cast<dev_t<T>*>(p); }
template <class T> const dev_t<T>* dp(const T* p) { return reinterpret_cast<const dev_t<T>*>(p); }

constexpr unsigned kThreads = 256;
unsigned blocks_for(std::size_t n) {
  return static_cast<unsigned>(std::min<std::size_t>((n + kThreads - 1) / kThreads, 1u << 20));
}

// ---- element-wise kernels (grid-stride loops) ---------------------------------------------

template <class D>
__global__ void khatri_rao_kernel(std::size_t s, std::size_t nl, std::size_t nx, std::size_t ny,
                                  const D* env, const D* omega, D* out, std::size_t total) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < total;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    // out[a, x, l, y] = env[a, l] · omega[a, x, y]
    const std::size_t y = i % ny, l = (i / ny) % nl, x = (i / (ny * nl)) % nx, a = i / (ny * nl * nx);
    out[i] = Dev<D>::mul(env[a * nl + l], omega[(a * nx + x) * ny + y]);
  }
}
// Dev<D> for device types: map back from the device type.
template <> struct Dev<cuFloatComplex> : Dev<cfloat> {};
template <> struct Dev<cuDoubleComplex> : Dev<cdouble> {};

template <class D>
__global__ void swap_axes_kernel(std::size_t p, std::size_t x, std::size_t q, std::size_t y,
                                 std::size_t r, const D* in, D* out, std::size_t total) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < total;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    // i indexes in[ip, ix, iq, iy, ir]; out[ip, iy, iq, ix, ir].
    const std::size_t ir = i % r, iy = (i / r) % y, iq = (i / (r * y)) % q,
                      ix = (i / (r * y * q)) % x, ip = i / (r * y * q * x);
    out[(((ip * y + iy) * q + iq) * x + ix) * r + ir] = in[i];
  }
}

template <class D> __global__ void conj_kernel(std::size_t n, const D* in, D* out) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    out[i] = Dev<D>::conj(in[i]);
}

// r (k × n, column-major, ld = k) = upper triangle of a (m × n, ld = m).
template <class D>
__global__ void upper_kernel(std::size_t m, std::size_t n, std::size_t k, const D* a, D* r) {
  const std::size_t total = k * n;
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < total;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const std::size_t row = i % k, col = i / k;
    D zero{};
    r[i] = row <= col ? a[col * m + row] : zero;
  }
}

// ---- typed cuBLAS / cuSOLVER entry points ----------------------------------------------------

cublasOperation_t to_cublas(Op op) {
  return op == Op::kNone ? CUBLAS_OP_N : op == Op::kTrans ? CUBLAS_OP_T : CUBLAS_OP_C;
}

cublasStatus_t gemm_batched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                            int n, int k, const float* alpha, const float* a, int lda,
                            long long sa, const float* b, int ldb, long long sb,
                            const float* beta, float* c, int ldc, long long sc, int batch) {
  return cublasSgemmStridedBatched(h, ta, tb, m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, c,
                                   ldc, sc, batch);
}
cublasStatus_t gemm_batched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                            int n, int k, const double* alpha, const double* a, int lda,
                            long long sa, const double* b, int ldb, long long sb,
                            const double* beta, double* c, int ldc, long long sc, int batch) {
  return cublasDgemmStridedBatched(h, ta, tb, m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, c,
                                   ldc, sc, batch);
}
cublasStatus_t gemm_batched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                            int n, int k, const cuFloatComplex* alpha, const cuFloatComplex* a,
                            int lda, long long sa, const cuFloatComplex* b, int ldb, long long sb,
                            const cuFloatComplex* beta, cuFloatComplex* c, int ldc, long long sc,
                            int batch) {
  return cublasCgemmStridedBatched(h, ta, tb, m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, c,
                                   ldc, sc, batch);
}
cublasStatus_t gemm_batched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                            int n, int k, const cuDoubleComplex* alpha, const cuDoubleComplex* a,
                            int lda, long long sa, const cuDoubleComplex* b, int ldb,
                            long long sb, const cuDoubleComplex* beta, cuDoubleComplex* c,
                            int ldc, long long sc, int batch) {
  return cublasZgemmStridedBatched(h, ta, tb, m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, c,
                                   ldc, sc, batch);
}

cublasStatus_t scal(cublasHandle_t h, int n, float a, float* x) { return cublasSscal(h, n, &a, x, 1); }
cublasStatus_t scal(cublasHandle_t h, int n, double a, double* x) { return cublasDscal(h, n, &a, x, 1); }
cublasStatus_t scal(cublasHandle_t h, int n, float a, cuFloatComplex* x) { return cublasCsscal(h, n, &a, x, 1); }
cublasStatus_t scal(cublasHandle_t h, int n, double a, cuDoubleComplex* x) { return cublasZdscal(h, n, &a, x, 1); }

cublasStatus_t nrm2(cublasHandle_t h, int n, const float* x, float* r) { return cublasSnrm2(h, n, x, 1, r); }
cublasStatus_t nrm2(cublasHandle_t h, int n, const double* x, double* r) { return cublasDnrm2(h, n, x, 1, r); }
cublasStatus_t nrm2(cublasHandle_t h, int n, const cuFloatComplex* x, float* r) { return cublasScnrm2(h, n, x, 1, r); }
cublasStatus_t nrm2(cublasHandle_t h, int n, const cuDoubleComplex* x, double* r) { return cublasDznrm2(h, n, x, 1, r); }

// C = conj-transpose of A (m × n column-major → n × m).
cublasStatus_t adjoint(cublasHandle_t h, int m, int n, const float* a, float* c) {
  const float one = 1, zero = 0;
  return cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, n, m, &one, a, m, &zero, c, n, c, n);
}
cublasStatus_t adjoint(cublasHandle_t h, int m, int n, const double* a, double* c) {
  const double one = 1, zero = 0;
  return cublasDgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, n, m, &one, a, m, &zero, c, n, c, n);
}
cublasStatus_t adjoint(cublasHandle_t h, int m, int n, const cuFloatComplex* a, cuFloatComplex* c) {
  const cuFloatComplex one = make_cuFloatComplex(1, 0), zero = make_cuFloatComplex(0, 0);
  return cublasCgeam(h, CUBLAS_OP_C, CUBLAS_OP_N, n, m, &one, a, m, &zero, c, n, c, n);
}
cublasStatus_t adjoint(cublasHandle_t h, int m, int n, const cuDoubleComplex* a, cuDoubleComplex* c) {
  const cuDoubleComplex one = make_cuDoubleComplex(1, 0), zero = make_cuDoubleComplex(0, 0);
  return cublasZgeam(h, CUBLAS_OP_C, CUBLAS_OP_N, n, m, &one, a, m, &zero, c, n, c, n);
}

// QR: geqrf then orgqr/ungqr (typed legacy API).
#define SRCC_QR_FUNCS(D, R, GEQRF, ORGQR)                                                        \
  cusolverStatus_t geqrf_size(cusolverDnHandle_t h, int m, int n, D* a, int* lwork) {          \
    return GEQRF##_bufferSize(h, m, n, a, m, lwork);                                            \
  }                                                                                             \
  cusolverStatus_t geqrf(cusolverDnHandle_t h, int m, int n, D* a, D* tau, D* work, int lwork,  \
                         int* info) {                                                           \
    return GEQRF(h, m, n, a, m, tau, work, lwork, info);                                        \
  }                                                                                             \
  cusolverStatus_t orgqr_size(cusolverDnHandle_t h, int m, int k, D* a, D* tau, int* lwork) {   \
    return ORGQR##_bufferSize(h, m, k, k, a, m, tau, lwork);                                    \
  }                                                                                             \
  cusolverStatus_t orgqr(cusolverDnHandle_t h, int m, int k, D* a, D* tau, D* work, int lwork,  \
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
  cusolverStatus_t gesvdj_size(cusolverDnHandle_t h, int m, int n, D* a, R* s, D* u, D* v,        \
                               int* lwork, gesvdjInfo_t p) {                                      \
    return GESVDJ##_bufferSize(h, CUSOLVER_EIG_MODE_VECTOR, 1, m, n, a, m, s, u, m, v, n, lwork, \
                               p);                                                                \
  }                                                                                               \
  cusolverStatus_t gesvdj(cusolverDnHandle_t h, int m, int n, D* a, R* s, D* u, D* v, D* work,    \
                          int lwork, int* info, gesvdjInfo_t p) {                                 \
    return GESVDJ(h, CUSOLVER_EIG_MODE_VECTOR, 1, m, n, a, m, s, u, m, v, n, work, lwork, info,  \
                  p);                                                                             \
  }
SRCC_SVD_FUNCS(float, float, cusolverDnSgesvdj)
SRCC_SVD_FUNCS(double, double, cusolverDnDgesvdj)
SRCC_SVD_FUNCS(cuFloatComplex, float, cusolverDnCgesvdj)
SRCC_SVD_FUNCS(cuDoubleComplex, double, cusolverDnZgesvdj)
#undef SRCC_SVD_FUNCS

// ---- device memory: a caching pool within the budget -----------------------------------------

class DevicePool {
 public:
  // budget = 0: no limit. Freed blocks are cached up to the budget (or 4 GiB without one).
  DevicePool(int device, std::size_t budget)
      : device_(device),
        budget_(budget),
        cache_(budget > 0 ? budget : 4ull << 30, [device](void* p, std::size_t) {
          cudaSetDevice(device);
          cudaFree(p);
        }) {}
  void* get(std::size_t bytes) {
    if (void* p = cache_.take(bytes)) {
      note(live_ += bytes);
      return p;
    }
    if (budget_ > 0 && live_ + cache_.cached() + bytes > budget_)
      cache_.shrink(budget_ > live_ + bytes ? budget_ - live_ - bytes : 0);
    if (budget_ > 0 && live_ + bytes > budget_)
      throw ResourceError("device memory: " + std::to_string(live_ + bytes) +
                          " bytes needed on cuda:" + std::to_string(device_) +
                          ", --gpu-memory allows " + std::to_string(budget_));
    void* p = nullptr;
    check_cuda(cudaMalloc(&p, bytes), "cudaMalloc");
    note(live_ += bytes);
    return p;
  }
  std::size_t peak() const { return peak_; }
  void put(void* p, std::size_t bytes) {
    live_ -= bytes;
    cache_.give(p, bytes);
  }

 private:
  int device_;
  std::size_t budget_;
  void note(std::size_t live) {
    std::size_t old = peak_.load();
    while (live > old && !peak_.compare_exchange_weak(old, live)) {
    }
  }
  std::atomic<std::size_t> live_{0};
  std::atomic<std::size_t> peak_{0};
  BlockCache cache_;
};

struct Handles {
  int device = 0;
  cublasHandle_t blas = nullptr;
  cusolverDnHandle_t solver = nullptr;
  explicit Handles(int d) : device(d) {
    check_cuda(cudaSetDevice(device), "cudaSetDevice");
    check_cublas(cublasCreate(&blas), "cublasCreate");
    check_cusolver(cusolverDnCreate(&solver), "cusolverDnCreate");
  }
  ~Handles() {
    if (solver) cusolverDnDestroy(solver);
    if (blas) cublasDestroy(blas);
  }
};

template <class T> class CudaKernels final : public Kernels<T> {
 public:
  using R = real_t<T>;
  using D = dev_t<T>;
  CudaKernels(std::shared_ptr<DevicePool> pool, std::shared_ptr<Handles> h)
      : pool_(std::move(pool)), h_(std::move(h)) {}

  Buffer<T> allocate(std::size_t n) override {
    use();
    const std::size_t bytes = std::max<std::size_t>(n, 1) * sizeof(T);
    auto pool = pool_;
    return Buffer<T>(std::shared_ptr<T>(static_cast<T*>(pool->get(bytes)),
                                        [pool, bytes](T* q) { pool->put(q, bytes); }),
                     n);
  }
  Buffer<T> adopt(std::vector<T>&& host) override {
    use();
    Buffer<T> b = allocate(host.size());
    check_cuda(cudaMemcpy(b.data(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice),
               "cudaMemcpy (host to device)");
    return b;
  }
  std::vector<T> download(const Buffer<T>& b, std::size_t n) override {
    use();
    std::vector<T> out(n);
    check_cuda(cudaMemcpy(out.data(), b.data(), n * sizeof(T), cudaMemcpyDeviceToHost),
               "cudaMemcpy (device to host)");
    return out;
  }
  bool moves_data() const override { return true; }

  void gemm(Op op_a, Op op_b, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* a,
            std::size_t lda, std::size_t stride_a, const T* b, std::size_t ldb,
            std::size_t stride_b, T beta, T* c, std::size_t ldc, std::size_t stride_c,
            std::size_t batch) override {
    use();
    if (m == 0 || n == 0 || batch == 0) return;
    // Row-major C = op(A) op(B) is column-major Cᵀ = op(B)ᵀ op(A)ᵀ: swap the operands.
    check_cublas(gemm_batched(h_->blas, to_cublas(op_b), to_cublas(op_a), static_cast<int>(n),
                              static_cast<int>(m), static_cast<int>(k), dp(&alpha), dp(b),
                              static_cast<int>(ldb), static_cast<long long>(stride_b), dp(a),
                              static_cast<int>(lda), static_cast<long long>(stride_a), dp(&beta),
                              dp(c), static_cast<int>(ldc), static_cast<long long>(stride_c),
                              static_cast<int>(batch)),
                 "cublas<t>gemmStridedBatched");
  }

  void khatri_rao(std::size_t s, std::size_t nl, std::size_t nx, std::size_t ny, const T* env,
                  const T* omega, T* out) override {
    use();
    const std::size_t total = s * nl * nx * ny;
    if (total == 0) return;
    khatri_rao_kernel<<<blocks_for(total), kThreads>>>(s, nl, nx, ny, dp(env), dp(omega), dp(out), total);
    check_cuda(cudaGetLastError(), "khatri_rao kernel");
  }
  void swap_axes(std::size_t p, std::size_t x, std::size_t q, std::size_t y, std::size_t r,
                 const T* in, T* out) override {
    use();
    const std::size_t total = p * x * q * y * r;
    if (total == 0) return;
    swap_axes_kernel<<<blocks_for(total), kThreads>>>(p, x, q, y, r, dp(in), dp(out), total);
    check_cuda(cudaGetLastError(), "swap_axes kernel");
  }
  void copy(std::size_t n, const T* in, T* out) override {
    use();
    check_cuda(cudaMemcpy(out, in, n * sizeof(T), cudaMemcpyDeviceToDevice), "cudaMemcpy (device)");
  }
  void conj(std::size_t n, const T* in, T* out) override {
    use();
    if (n == 0) return;
    conj_kernel<<<blocks_for(n), kThreads>>>(n, dp(in), dp(out));
    check_cuda(cudaGetLastError(), "conj kernel");
  }
  void scale(std::size_t n, R alpha, T* x) override {
    use();
    check_cublas(scal(h_->blas, static_cast<int>(n), alpha, dp(x)), "cublas<t>scal");
  }
  R norm(std::size_t n, const T* x) override {
    use();
    R r = 0;
    check_cublas(nrm2(h_->blas, static_cast<int>(n), dp(x), &r), "cublas<t>nrm2");
    return r;
  }

  void qr(std::size_t m, std::size_t n, T* y, T* r) override {
    use();
    const int im = static_cast<int>(m), in = static_cast<int>(n);
    const std::size_t k = std::min(m, n);
    Buffer<T> tau = allocate(k);
    Buffer<int> info = int_buffer();
    int lwork = 0, lwork2 = 0;
    check_cusolver(geqrf_size(h_->solver, im, in, dp(y), &lwork), "cusolverDn<t>geqrf_bufferSize");
    check_cusolver(orgqr_size(h_->solver, im, static_cast<int>(k), dp(y), dp(tau.data()), &lwork2),
                   "cusolverDn<t>orgqr_bufferSize");
    Buffer<T> work = allocate(static_cast<std::size_t>(std::max(lwork, lwork2)));
    check_cusolver(geqrf(h_->solver, im, in, dp(y), dp(tau.data()), dp(work.data()), lwork,
                         info.data()),
                   "cusolverDn<t>geqrf");
    upper_kernel<<<blocks_for(k * n), kThreads>>>(m, n, k, dp(static_cast<const T*>(y)), dp(r));
    check_cuda(cudaGetLastError(), "upper-triangle kernel");
    check_cusolver(orgqr(h_->solver, im, static_cast<int>(k), dp(y), dp(tau.data()),
                         dp(work.data()), std::max(lwork, lwork2), info.data()),
                   "cusolverDn<t>orgqr/ungqr");
    check_info(info, "geqrf/orgqr", m, n);
  }

  void upper_inverse(std::size_t k, T* r) override {
    use();
    std::size_t dev_bytes = 0, host_bytes = 0;
    check_cusolver(cusolverDnXtrtri_bufferSize(h_->solver, CUBLAS_FILL_MODE_UPPER,
                                               CUBLAS_DIAG_NON_UNIT, static_cast<int64_t>(k),
                                               Dev<T>::data_type, r, static_cast<int64_t>(k),
                                               &dev_bytes, &host_bytes),
                   "cusolverDnXtrtri_bufferSize");
    Buffer<T> work = allocate(dev_bytes / sizeof(T) + 1);
    std::vector<char> host(host_bytes + 1);
    Buffer<int> info = int_buffer();
    check_cusolver(cusolverDnXtrtri(h_->solver, CUBLAS_FILL_MODE_UPPER, CUBLAS_DIAG_NON_UNIT,
                                    static_cast<int64_t>(k), Dev<T>::data_type, r,
                                    static_cast<int64_t>(k), work.data(), dev_bytes, host.data(),
                                    host_bytes, info.data()),
                   "cusolverDnXtrtri");
    check_info(info, "trtri", k, k);
  }

  void svd(std::size_t m, std::size_t n, T* a, T* u, R* s_host, T* vt) override {
    use();
    const int im = static_cast<int>(m), in = static_cast<int>(n);
    const std::size_t k = std::min(m, n);
    gesvdjInfo_t params = nullptr;
    check_cusolver(cusolverDnCreateGesvdjInfo(&params), "cusolverDnCreateGesvdjInfo");
    std::shared_ptr<void> guard(params, [](void* p) {
      cusolverDnDestroyGesvdjInfo(static_cast<gesvdjInfo_t>(p));
    });
    auto sigma = std::shared_ptr<R>(static_cast<R*>(pool_->get(k * sizeof(R) + 8)),
                                    [pool = pool_, bytes = k * sizeof(R) + 8](R* p) { pool->put(p, bytes); });
    Buffer<T> v = allocate(n * k);  // V (n × k); the interface wants Vᴴ (k × n)
    int lwork = 0;
    check_cusolver(gesvdj_size(h_->solver, im, in, dp(a), sigma.get(), dp(u), dp(v.data()), &lwork,
                               params),
                   "cusolverDn<t>gesvdj_bufferSize");
    Buffer<T> work = allocate(static_cast<std::size_t>(std::max(lwork, 1)));
    Buffer<int> info = int_buffer();
    check_cusolver(gesvdj(h_->solver, im, in, dp(a), sigma.get(), dp(u), dp(v.data()),
                          dp(work.data()), lwork, info.data(), params),
                   "cusolverDn<t>gesvdj");
    check_info(info, "gesvdj", m, n);
    check_cublas(adjoint(h_->blas, static_cast<int>(n), static_cast<int>(k), dp(v.data()), dp(vt)),
                 "cublas<t>geam (adjoint)");
    check_cuda(cudaMemcpy(s_host, sigma.get(), k * sizeof(R), cudaMemcpyDeviceToHost),
               "cudaMemcpy (singular values)");
  }

 private:
  // Several devices may be driven from one thread: every entry point selects its own.
  void use() const { cudaSetDevice(h_->device); }

  Buffer<int> int_buffer() {
    auto pool = pool_;
    return Buffer<int>(std::shared_ptr<int>(static_cast<int*>(pool->get(sizeof(int) * 2)),
                                            [pool](int* q) { pool->put(q, sizeof(int) * 2); }),
                       1);
  }
  void check_info(Buffer<int>& info, const char* what, std::size_t m, std::size_t n) {
    int h = 0;
    check_cuda(cudaMemcpy(&h, info.data(), sizeof(int), cudaMemcpyDeviceToHost), "cudaMemcpy (info)");
    if (h != 0)
      throw NumericalError(std::string("cuSOLVER ") + what + " returned info " + std::to_string(h) +
                           " on a " + std::to_string(m) + " x " + std::to_string(n) + " matrix");
  }

  std::shared_ptr<DevicePool> pool_;
  std::shared_ptr<Handles> h_;
};

class CudaBackend final : public BackendOf<CudaKernels> {
 public:
  CudaBackend(int device, std::size_t budget)
      : CudaBackend(device, budget, std::make_shared<DevicePool>(device, budget),
                    std::make_shared<Handles>(device)) {}
  std::string name() const override { return "cuda:" + std::to_string(device_); }
  std::size_t memory_budget() const override { return budget_; }
  std::size_t memory_peak() const override { return pool_->peak(); }
  std::string library_info() const override {
    int runtime = 0, driver = 0, blas = 0;
    cudaRuntimeGetVersion(&runtime);
    cudaDriverGetVersion(&driver);
    cublasGetVersion(handles_->blas, &blas);
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, device_);
    return std::string(prop.name) + "; CUDA runtime " + std::to_string(runtime) + ", driver " +
           std::to_string(driver) + ", cuBLAS " + std::to_string(blas) + ", cuSOLVER";
  }

 private:
  CudaBackend(int device, std::size_t budget, const std::shared_ptr<DevicePool>& pool,
              const std::shared_ptr<Handles>& handles)
      : BackendOf<CudaKernels>(pool, handles),
        device_(device),
        budget_(budget),
        pool_(pool),
        handles_(handles) {}
  int device_;
  std::size_t budget_;
  std::shared_ptr<DevicePool> pool_;
  std::shared_ptr<Handles> handles_;
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
    // Default budget: the device's free memory minus 5% and 512 MiB for cuBLAS/cuSOLVER.
    check_cuda(cudaSetDevice(device), "cudaSetDevice");
    std::size_t free_bytes = 0, total = 0;
    check_cuda(cudaMemGetInfo(&free_bytes, &total), "cudaMemGetInfo");
    const std::size_t margin = free_bytes / 20 + (512u << 20);
    budget_bytes = free_bytes > margin ? free_bytes - margin : free_bytes / 2;
  }
  return std::make_unique<CudaBackend>(device, budget_bytes);
}

}  // namespace

}  // namespace srcc

extern "C" __attribute__((visibility("default"))) const srcc::CudaModule* srcc_cuda_module() {
  static const srcc::CudaModule module{&srcc::device_count, &srcc::make_backend};
  return &module;
}
