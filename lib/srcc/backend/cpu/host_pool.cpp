#include "srcc/backend/cpu/host_pool.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <new>

namespace srcc::cpu {

std::size_t resident_bytes() {
  static const int fd = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  static const long page = ::sysconf(_SC_PAGESIZE);
  char buf[128];
  if (fd < 0) return 0;
  const ssize_t n = ::pread(fd, buf, sizeof(buf) - 1, 0);
  if (n <= 0) return 0;
  buf[n] = '\0';
  unsigned long size = 0, resident = 0;
  if (std::sscanf(buf, "%lu %lu", &size, &resident) != 2) return 0;
  return static_cast<std::size_t>(resident) * static_cast<std::size_t>(page);
}

HostPool::HostPool(std::size_t limit)
    : limit_(limit),
      cache_(std::min<std::size_t>(limit, memory::kHostCacheCapBytes), [](void* p, std::size_t n) { munmap(p, n); }) {}

void* HostPool::get(std::size_t bytes) {
  if (void* p = cache_.take(bytes)) return p;
  if (cache_.cached() > 0) {
    const std::size_t rss = resident_bytes();
    if (rss + bytes > limit_) {
      const std::size_t over = rss + bytes - limit_;
      cache_.shrink(cache_.cached() > over ? cache_.cached() - over : 0);
    }
  }
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  return p;
}

void HostPool::put(void* p, std::size_t bytes) {
  if (resident_bytes() <= limit_)
    cache_.give(p, bytes);
  else
    munmap(p, bytes);
}

}  // namespace srcc::cpu
