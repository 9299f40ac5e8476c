#pragma once
// Memory policy of a run, in one place: how budgets are derived from what the machine has, the
// margins kept for what the plan does not count, how much freed memory the backends may keep
// for reuse, and how the C allocator is set up. The plan (plan/) and the backends (backend/)
// take their numbers from here; docs/ARCHITECTURE.md ("Memory") explains the reasoning.
// Header-only apart from configure_allocator(), so the CUDA module can use it without linking.
#include <cstddef>
#include <cstdint>

namespace srcc::memory {

inline constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

// --- Host budget ----------------------------------------------------------------------------
// Without --host-memory: MemAvailable (or the cgroup's room, if lower) minus 10% and 256 MiB,
// left for the rest of the machine and for this process's own growth.
inline constexpr std::uint64_t detected_host_budget(std::uint64_t available) {
  const std::uint64_t margin = available / 10 + 256 * kMiB;
  return available > margin ? available - margin : 0;
}
// What a run needs besides its tensors (code, libraries, BLAS and HDF5 buffers): the plan
// subtracts it from the host budget so that the resident size stays within --host-memory.
inline constexpr std::uint64_t kProcessOverheadBytes = 48 * kMiB;
// Scratch space: the free space of --scratch-dir minus 5%.
inline constexpr std::uint64_t usable_scratch(std::uint64_t free_bytes) {
  return free_bytes - free_bytes / 20;
}

// --- Reuse of freed host memory (backend/cpu) -------------------------------------------------
// Blocks of at least this size come from the CPU backend's mmap pool (and from mmap in malloc,
// see configure_allocator); smaller ones from the heap.
inline constexpr std::size_t kLargeBlockBytes = 256 * 1024;
// The pool keeps freed blocks while the resident size stays this far below the host budget
// (what grows between two checks: small tensors from malloc, BLAS buffers) …
inline constexpr std::uint64_t kResidentMargin = 16 * kMiB;
// … and never more than this much.
inline constexpr std::uint64_t kHostCacheCapBytes = 512 * kMiB;
// The resident limit the CPU backend's pool works to for a host budget.
inline constexpr std::uint64_t host_pool_limit(std::uint64_t host_budget) {
  return host_budget > kResidentMargin ? host_budget - kResidentMargin : 0;
}
// A CPU backend made without a plan (tests, `distance`).
inline constexpr std::uint64_t kDefaultHostPoolBytes = 256 * kMiB;

// --- Device (backend/cuda) ------------------------------------------------------------------
// Without --gpu-memory: the device's free memory minus 5% and 512 MiB for cuBLAS/cuSOLVER work
// space (half of it where that leaves nothing).
inline constexpr std::uint64_t detected_device_budget(std::uint64_t free_bytes) {
  const std::uint64_t margin = free_bytes / 20 + 512 * kMiB;
  return free_bytes > margin ? free_bytes - margin : free_bytes / 2;
}
// Freed device blocks kept for reuse when no budget is known.
inline constexpr std::uint64_t kDeviceCacheDefaultBytes = 4096 * kMiB;
// Page-locked host memory each GPU backend stages its copies through (two buffers per
// direction, a quarter each); a GPU run's host budget pays for it.
inline constexpr std::uint64_t kStagingBytesPerDevice = 32 * kMiB;

// --- The C allocator ------------------------------------------------------------------------
// Sets glibc's malloc so that the resident size follows what is live (the budgets rely on it):
// blocks of kLargeBlockBytes or more are mmap'd (a fixed threshold: by default it grows and lets
// freed blocks pile up in the heap); at most two arenas (each read-ahead thread would otherwise
// get its own); the heap's top is given back only beyond 4 MiB free (at the default 128 KiB a
// sweep shrank and regrew it about ten times per site, each regrowth faulting its pages in
// again; 4 MiB is within the budget tests' slack). Process-wide; run() calls it, once.
void configure_allocator();

}  // namespace srcc::memory
