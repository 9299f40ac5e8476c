#pragma once
// Which backend a run uses: --device cpu | gpu | gpu:N | gpu:0,1,…
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "srcc/backend/backend.hpp"

namespace srcc {

struct DeviceSpec {
  bool gpu = false;
  std::vector<int> ids;  // GPU ordinals (default {0})
  std::string text() const;  // "cpu", "gpu:0", "gpu:0,1"
};

// Throws UsageError naming --device and listing the valid forms.
DeviceSpec parse_device(std::string_view text);

// The backend for `spec`: the CPU backend, or the CUDA backend on the first id. Throws
// BackendError when CUDA is not built in, no device is visible, or an id is out of range,
// saying how many devices are visible and that --device cpu works.
std::unique_ptr<Backend> make_backend(const DeviceSpec& spec, int threads, std::size_t pool_bytes,
                                      std::size_t gpu_budget_bytes);

// One backend per device of `spec` (several for gpu:0,1,…), the first being the primary.
std::vector<std::unique_ptr<Backend>> make_backends(const DeviceSpec& spec, int threads,
                                                    std::size_t pool_bytes,
                                                    std::size_t gpu_budget_bytes);

// Visible CUDA devices (0 when CUDA is not built in or no driver answers); `why` says why not.
int cuda_device_count(std::string& why);

}  // namespace srcc
