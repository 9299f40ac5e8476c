#pragma once
// The CUDA backend: cuBLAS for the GEMMs, cuSOLVER for QR, SVD and triangular inverses, device
// memory from a caching pool. Only backend/cuda/ includes CUDA headers; this header does not.
#include <cstddef>
#include <memory>
#include <string>

#include "srcc/backend/backend.hpp"

namespace srcc {

// Throws BackendError when CUDA is not built in, no device is visible (naming how many are and
// that --device cpu works) or `device` is out of range.
std::unique_ptr<Backend> make_cuda_backend(int device, std::size_t budget_bytes);

// True when this build includes the CUDA backend.
bool cuda_built();

}  // namespace srcc
