// Loads the CUDA backend module on first use (see cuda_module.hpp).
#include <dlfcn.h>

#include <mutex>
#include <string>

#include "srcc/backend/cuda/cuda_backend.hpp"
#include "srcc/backend/cuda/cuda_module.hpp"
#include "srcc/backend/device.hpp"
#include "srcc/core/error.hpp"
#include "srcc/core/module_path.hpp"

namespace srcc {

namespace {

const CudaModule* load(std::string& why) {
  static std::once_flag once;
  static const CudaModule* module = nullptr;
  static std::string error;
  std::call_once(once, [] {
    std::string path;
    void* handle = open_module(module_candidates("SRCC_CUDA_MODULE", SRCC_CUDA_MODULE, SRCC_INSTALL_LIBDIR),
                               RTLD_NOW | RTLD_LOCAL, "the CUDA backend (libsrcc_cuda.so; set SRCC_CUDA_MODULE)",
                               path, error);
    if (!handle) return;
    auto entry = reinterpret_cast<const CudaModule* (*)()>(dlsym(handle, "srcc_cuda_module"));
    if (!entry) {
      error = path + " is not a src-compress CUDA module";
      return;
    }
    module = entry();
  });
  why = error;
  return module;
}

}  // namespace

bool cuda_built() { return true; }

int cuda_device_count(std::string& why) {
  const CudaModule* m = load(why);
  return m ? m->device_count(why) : 0;
}

std::unique_ptr<Backend> make_cuda_backend(int device, std::size_t budget_bytes) {
  std::string why;
  const CudaModule* m = load(why);
  if (!m) throw BackendError("--device gpu: " + why + "; --device cpu works on this machine");
  return m->make_backend(device, budget_bytes);
}

}  // namespace srcc
