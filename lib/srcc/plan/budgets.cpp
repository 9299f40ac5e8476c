#include "srcc/plan/budgets.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "srcc/core/error.hpp"
#include "srcc/core/options.hpp"
#include "srcc/memory/policy.hpp"

namespace srcc {

namespace {

std::uint64_t available_memory() {
  std::uint64_t avail = 0;
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t value = 0;
  std::string unit;
  while (meminfo >> key >> value >> unit)
    if (key == "MemAvailable:") avail = value * 1024;
  // A cgroup v2 limit (batch schedulers set one per job) may be lower than the machine's.
  std::ifstream cg("/sys/fs/cgroup/memory.max");
  std::string limit;
  if (cg >> limit && limit != "max") {
    std::ifstream cur("/sys/fs/cgroup/memory.current");
    std::uint64_t used = 0;
    cur >> used;
    std::uint64_t lim = 0;
    const auto [end, ec] = std::from_chars(limit.data(), limit.data() + limit.size(), lim);
    if (ec == std::errc() && end == limit.data() + limit.size() && lim > used)
      avail = std::min(avail, lim - used);
  }
  return avail;
}

}  // namespace

std::uint64_t host_budget(std::uint64_t given) {
  return given > 0 ? given : memory::detected_host_budget(available_memory());
}

Budgets resolve_budgets(std::uint64_t host_bytes, std::uint64_t gpu_bytes,
                        const std::string& scratch_dir) {
  Budgets b;
  b.gpu_bytes = gpu_bytes;
  b.host_bytes = host_budget(host_bytes);
  b.host_detected = host_bytes == 0;
  b.scratch_dir = scratch_dir;
  if (b.scratch_dir.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    b.scratch_dir = tmp && *tmp ? tmp : "/tmp";
  }
  std::error_code ec;
  if (!std::filesystem::is_directory(b.scratch_dir, ec))
    throw UsageError(opt::kScratchDir.name() + ": " + b.scratch_dir + " is not a directory");
  const auto space = std::filesystem::space(b.scratch_dir, ec);
  if (!ec) b.scratch_bytes = memory::usable_scratch(space.available);
  return b;
}

Budgets share_of(const Budgets& whole, std::size_t parts) {
  Budgets b = whole;
  const std::uint64_t n = parts > 0 ? parts : 1;
  // What the process holds once (its own overhead, pinned staging) is in every share whole; the
  // tensors' room is what is split.
  const std::uint64_t once = std::min<std::uint64_t>(whole.host_bytes, memory::kProcessOverheadBytes + whole.pinned_bytes);
  b.host_bytes = once + (whole.host_bytes - once) / n;
  b.gpu_bytes /= n;
  b.scratch_bytes /= n;
  return b;
}

}  // namespace srcc
