#include "srcc/backend/device.hpp"

#include <charconv>

#include "srcc/backend/cpu/cpu_backend.hpp"
#include "srcc/backend/cuda/cuda_backend.hpp"
#include "srcc/core/error.hpp"
#include "srcc/core/options.hpp"

namespace srcc {

std::string DeviceSpec::text() const {
  if (!gpu) return "cpu";
  std::string out = "gpu:";
  for (std::size_t i = 0; i < ids.size(); ++i) out += (i ? "," : "") + std::to_string(ids[i]);
  return out;
}

DeviceSpec parse_device(std::string_view text) {
  auto fail = [&] {
    return UsageError(opt::kDevice.name() + ": '" + std::string(text) +
                      "' is not a device (valid: cpu, gpu, gpu:N, gpu:0,1,…)");
  };
  if (text == "cpu") return {};
  if (text == "gpu") return {true, {0}};
  if (text.substr(0, 4) != "gpu:" || text.size() == 4) throw fail();
  DeviceSpec d{true, {}};
  std::string_view rest = text.substr(4);
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    int id = -1;
    const auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), id);
    if (ec != std::errc() || ptr != item.data() + item.size() || id < 0) throw fail();
    d.ids.push_back(id);
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
    if (rest.empty()) throw fail();  // a trailing comma
  }
  return d;
}

std::unique_ptr<Backend> make_backend(const DeviceSpec& spec, int threads, std::size_t pool_bytes,
                                      std::size_t gpu_budget_bytes) {
  if (!spec.gpu) return make_cpu_backend(threads, pool_bytes);
  return make_cuda_backend(spec.ids.front(), gpu_budget_bytes);
}

std::vector<std::unique_ptr<Backend>> make_backends(const DeviceSpec& spec, int threads,
                                                    std::size_t pool_bytes,
                                                    std::size_t gpu_budget_bytes) {
  std::vector<std::unique_ptr<Backend>> out;
  if (!spec.gpu) {
    out.push_back(make_cpu_backend(threads, pool_bytes));
    return out;
  }
  for (std::size_t i = 0; i < spec.ids.size(); ++i)
    for (std::size_t k = 0; k < i; ++k)
      if (spec.ids[k] == spec.ids[i])
        throw UsageError(opt::kDevice.name() + " " + spec.text() + ": gpu:" + std::to_string(spec.ids[i]) +
                         " is listed twice");
  for (int id : spec.ids) out.push_back(make_cuda_backend(id, gpu_budget_bytes));
  return out;
}

}  // namespace srcc
