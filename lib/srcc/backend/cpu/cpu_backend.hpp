#pragma once
// The CPU backend: OpenBLAS (cblas) for GEMMs, LAPACKE for QR and SVD, host memory.
#include <memory>

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

// `K` where it computes in host memory, else the kernels of a one-thread CPU backend made into
// `keep`: for a few small products on host data beside a device's run.
template <class T> Kernels<T>& host_kernels(Kernels<T>& K, std::unique_ptr<Backend>& keep) {
  if (!K.moves_data()) return K;
  keep = make_cpu_backend(1);
  return keep->template kernels<T>();
}

// The BLAS library's build string.
std::string blas_info();

}  // namespace srcc
