// Built instead of cuda_backend.cu when CMake found no CUDA toolkit.
#include "srcc/backend/cuda/cuda_backend.hpp"
#include "srcc/backend/device.hpp"
#include "srcc/core/error.hpp"

namespace srcc {

bool cuda_built() { return false; }

int cuda_device_count(std::string& why) {
  why = "this build of src-compress has no CUDA backend (no CUDA toolkit when it was built)";
  return 0;
}

std::unique_ptr<Backend> make_cuda_backend(int, std::size_t) {
  throw BackendError(
      "--device gpu: this build of src-compress has no CUDA backend (CMake found no CUDA "
      "toolkit); rebuild where nvcc is available, or use --device cpu");
}

}  // namespace srcc
