#pragma once
// The element-wise kernels of the CUDA backend (grid-stride loops): the Khatri–Rao product,
// the 5-axis swap, conjugation and the upper triangle of a QR factor. Launched on the compute
// stream by cuda_backend.cu, their only includer.
#include <algorithm>
#include <cstddef>

#include "srcc/backend/cuda/device_types.hpp"

namespace srcc::cuda {

constexpr unsigned kThreads = 256;
inline unsigned blocks_for(std::size_t n) {
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

}  // namespace srcc::cuda
