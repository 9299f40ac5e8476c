#pragma once
// The CPU backend: OpenBLAS (cblas) for GEMMs, LAPACKE for QR and SVD, host memory.
#include <memory>
#include <mutex>

#include "srcc/backend/backend.hpp"
#include "srcc/memory/policy.hpp"

namespace srcc {

// `threads`: the backend's threads (0: the BLAS library's default, i.e. OPENBLAS_NUM_THREADS or
// the cores). BLAS itself is set to one thread; the backend spreads batches and large products
// over its own threads (see work_pool.hpp). Blocks of 256 KiB and more come
// from mmap and are returned to the system when freed, except that freed blocks are kept for
// reuse while the process's resident size stays within `pool_bytes` (at most 512 MiB are
// kept): sweeps allocate the same sizes at every site, and a reused block costs no page
// faults. A run passes its host budget less a small margin.
std::unique_ptr<Backend> make_cpu_backend(int threads,
                                          std::size_t pool_bytes = memory::kDefaultHostPoolBytes);

// The process's CPU backend for host-side work beside a device (small products and sector
// factorisations on host data), one thread, made on first use (making a backend costs
// milliseconds) and kept; used under host_side_mutex().
Backend& host_side_backend();
std::recursive_mutex& host_side_mutex();

// `K` where it computes in host memory, else host_side_backend()'s kernels, with `lock` taken on
// its mutex for as long as the caller uses them (another thread waits; this one may nest).
template <class T> Kernels<T>& host_kernels(Kernels<T>& K, std::unique_lock<std::recursive_mutex>& lock) {
  if (!K.moves_data()) return K;
  lock = std::unique_lock<std::recursive_mutex>(host_side_mutex());
  return host_side_backend().template kernels<T>();
}

// The BLAS library's build string.
std::string blas_info();

}  // namespace srcc
