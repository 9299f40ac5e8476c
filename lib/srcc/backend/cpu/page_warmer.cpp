#include "srcc/backend/cpu/page_warmer.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <thread>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14; older headers lack the name
#endif

namespace srcc {

namespace {
std::uintptr_t page_size() {
  static const std::uintptr_t size = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  return size;
}
}  // namespace

void PageWarmer::start(const void* p, std::size_t bytes) {
  stop();
  if (p == nullptr || bytes == 0 || !supported_.load()) return;
  // Whole pages: the first and last may hold other data too, which populating leaves as it is.
  const std::uintptr_t page = page_size();
  const auto begin = reinterpret_cast<std::uintptr_t>(p) / page * page;
  const std::uintptr_t end = (reinterpret_cast<std::uintptr_t>(p) + bytes + page - 1) / page * page;
  next_.store(begin);
  end_.store(end);
}

void PageWarmer::stop() {
  end_.store(0);
  // A step that read the old end before the store above is still populating: wait for it.
  while (active_.load() != 0) std::this_thread::yield();
}

bool PageWarmer::step() {
  if (end_.load() == 0) return false;  // the common case, without touching the counters
  active_.fetch_add(1);
  bool did = false;
  const std::uintptr_t end = end_.load();  // after the increment: stop() waits for us
  if (end != 0) {
    const std::uintptr_t at = next_.fetch_add(kChunkBytes);
    if (at < end) {
      const std::size_t len = std::min<std::uintptr_t>(kChunkBytes, end - at);
      if (madvise(reinterpret_cast<void*>(at), len, MADV_POPULATE_WRITE) == 0) {
        populated_.fetch_add(len);
      } else if (errno == EINVAL) {
        supported_.store(false);  // an older kernel: the sweep's own writes fault the pages in
        end_.store(0);
      }
      did = true;
    }
  }
  active_.fetch_sub(1);
  return did;
}

}  // namespace srcc
