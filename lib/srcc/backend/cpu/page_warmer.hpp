#pragma once
// Faults in the pages of memory the sweep will write soon, in the time the backend's threads
// would otherwise spend waiting. Every environment of the left sweep is fresh memory (they are
// all held until the right sweep), and the first write to each 4 KiB page costs a page fault
// that would otherwise land inside the per-column products (docs/PERFORMANCE.md, "Memory").
// The threads still pay for every page, but a thread that has run out of work pays for them
// instead of polling.
//
// One region at a time. step() is what a waiting thread calls (work_pool.hpp): it populates the
// next small chunk with madvise(MADV_POPULATE_WRITE), which maps pages writable without
// touching their contents, so a chunk the sweep has meanwhile started writing is left intact.
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "srcc/backend/cpu/work_pool.hpp"

namespace srcc {

class PageWarmer final : public IdleWork {
 public:
  // Chunk one step populates: four pages, so that a waiting thread that took a step starts its
  // next task only a few µs late (16 KiB was the best of the sizes measured in
  // docs/PERFORMANCE.md).
  static constexpr std::size_t kChunkBytes = std::size_t{16} << 10;

  // Makes [p, p + bytes) the region to warm, replacing the previous one (see stop()).
  void start(const void* p, std::size_t bytes);
  // Withdraws the region: no step starts on it after this returns, and none is still running,
  // so its memory may then be freed.
  void stop();
  // Populates the region's next chunk; false when there is nothing (left) to do.
  bool step() override;

  // Bytes populated so far (for tests).
  std::size_t populated() const { return populated_.load(); }

 private:
  std::atomic<std::uintptr_t> next_{0}, end_{0};
  std::atomic<int> active_{0};
  std::atomic<bool> supported_{true};  // MADV_POPULATE_WRITE exists (Linux 5.14 and later)
  std::atomic<std::size_t> populated_{0};
};

}  // namespace srcc
