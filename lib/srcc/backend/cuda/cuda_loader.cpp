// Loads the CUDA backend module on first use (see cuda_module.hpp).
#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>
#include <mutex>

#include "srcc/backend/cuda/cuda_backend.hpp"
#include "srcc/backend/cuda/cuda_module.hpp"
#include "srcc/backend/device.hpp"
#include "srcc/core/error.hpp"

namespace srcc {

namespace {

// Where the module may be, in order: $SRCC_CUDA_MODULE; beside the executable or in ../LIBDIR
// (cmake --install) or ../lib (a copied build); the path this build wrote it to.
std::vector<std::string> candidates() {
  std::vector<std::string> out;
  if (const char* env = std::getenv("SRCC_CUDA_MODULE"); env && *env) return {env};
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const auto name = std::filesystem::path(SRCC_CUDA_MODULE).filename();
    out.push_back((exe.parent_path() / name).string());
    out.push_back((exe.parent_path().parent_path() / SRCC_INSTALL_LIBDIR / name).string());
    out.push_back((exe.parent_path().parent_path() / "lib" / name).string());
  }
  out.emplace_back(SRCC_CUDA_MODULE);
  return out;
}

const CudaModule* load(std::string& why) {
  static std::once_flag once;
  static const CudaModule* module = nullptr;
  static std::string error;
  std::call_once(once, [] {
    const auto paths = candidates();
    std::string path;
    void* handle = nullptr;
    for (const auto& p : paths) {
      std::error_code ec;
      if (paths.size() > 1 && !std::filesystem::exists(p, ec)) continue;
      path = p;
      handle = dlopen(p.c_str(), RTLD_NOW | RTLD_LOCAL);
      break;
    }
    if (path.empty()) {
      error = "no CUDA backend module (libsrcc_cuda.so) beside the executable, in ../" SRCC_INSTALL_LIBDIR " or at " +
              std::string(SRCC_CUDA_MODULE) + " (set SRCC_CUDA_MODULE)";
      return;
    }
    if (!handle) {
      error = "cannot load the CUDA backend " + path + ": " + dlerror();
      return;
    }
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
