#include "srcc/memory/policy.hpp"

#include <malloc.h>

#include <mutex>

namespace srcc::memory {

void configure_allocator() {
  static std::once_flag once;
  std::call_once(once, [] {
    mallopt(M_MMAP_THRESHOLD, static_cast<int>(kLargeBlockBytes));
    mallopt(M_TRIM_THRESHOLD, static_cast<int>(4 * kMiB));
    mallopt(M_ARENA_MAX, 2);
  });
}

}  // namespace srcc::memory
