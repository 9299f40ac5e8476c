#pragma once
// The boundary between the main library and the CUDA backend, which is built as a separate
// module (libsrcc_cuda.so) and loaded with dlopen only when a run asks for a GPU: linking the
// CUDA libraries into every process costs some 250 MB of resident memory at start-up, which
// CPU runs and their --host-memory budgets should not pay. No CUDA headers here.
#include <cstddef>
#include <memory>
#include <string>

#include "srcc/backend/backend.hpp"

namespace srcc {

struct CudaModule {
  int (*device_count)(std::string& why);
  std::unique_ptr<Backend> (*make_backend)(int device, std::size_t budget_bytes);
};

}  // namespace srcc

// Exported by the module under this unmangled name.
extern "C" const srcc::CudaModule* srcc_cuda_module();
