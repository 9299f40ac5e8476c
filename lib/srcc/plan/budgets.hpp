#pragma once
// Memory and disk budgets of a run: given by flags or detected from the machine.
#include <cstdint>
#include <string>

namespace srcc {

struct Budgets {
  std::uint64_t host_bytes = 0;     // --host-memory: tensor memory the run may use on the host
  bool host_detected = false;       // true when not given (available memory minus a margin)
  std::uint64_t gpu_bytes = 0;      // --gpu-memory: device budget (GPU backend); 0 = free - margin
  std::string scratch_dir;          // --scratch-dir: where spilled environments go
  std::uint64_t scratch_bytes = 0;  // free space in scratch_dir minus a margin
  std::uint64_t pinned_bytes = 0;   // page-locked staging of the GPU backends (host memory)
};

// An equal share of every budget for one of `parts` parts of a run that hold their memory side
// by side (the terms of a sum); the scratch directory is shared, and the host memory the process
// needs once (memory::kProcessOverheadBytes, the pinned staging) is in every share.
Budgets share_of(const Budgets& whole, std::size_t parts);

// The host budget alone: `given` (--host-memory) when not 0, else detected as below.
std::uint64_t host_budget(std::uint64_t given);

// Fills what was not given: host memory from MemAvailable (and the cgroup limit, if lower),
// scratch directory from $TMPDIR or /tmp, and their usable parts by memory/policy.hpp. Throws
// UsageError when the scratch directory does not exist.
Budgets resolve_budgets(std::uint64_t host_bytes, std::uint64_t gpu_bytes,
                        const std::string& scratch_dir);

}  // namespace srcc
