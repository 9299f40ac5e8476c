#pragma once
// Large host blocks for the CPU backend: mmap'd (so freeing really returns memory: the heap would
// fragment between long-lived environments and per-site temporaries), with a cache of freed
// blocks, since sweeps allocate the same sizes at every site and a reused block costs no page
// faults. A freed block is kept only while the process's resident size is within `limit` (the
// host budget), and the cache gives blocks back before a fresh block would push it past: under a
// tight budget the cache keeps what fits beside the blocks in use instead of nothing
// (memory/policy.hpp).
#include <cstddef>

#include "srcc/backend/block_cache.hpp"
#include "srcc/memory/policy.hpp"

namespace srcc::cpu {

// The process's resident set size in bytes, from /proc/self/statm (0 where unreadable).
std::size_t resident_bytes();

class HostPool {
 public:
  static constexpr std::size_t kLarge = memory::kLargeBlockBytes;
  explicit HostPool(std::size_t limit);
  void* get(std::size_t bytes);  // throws std::bad_alloc
  void put(void* p, std::size_t bytes);

 private:
  std::size_t limit_;
  BlockCache cache_;
};

}  // namespace srcc::cpu
