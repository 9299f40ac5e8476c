#pragma once
// The CPU backend: OpenBLAS (cblas) for GEMMs, LAPACKE for QR and SVD, host memory.
#include <memory>

#include "srcc/backend/backend.hpp"

namespace srcc {

// `threads` = BLAS threads (0 leaves the library's default).
std::unique_ptr<Backend> make_cpu_backend(int threads);

// BLAS threads currently in use, and the library's build string.
int blas_threads();
std::string blas_info();

}  // namespace srcc
