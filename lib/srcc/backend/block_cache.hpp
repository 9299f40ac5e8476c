#pragma once
// A cache of freed memory blocks, reused by exact size: sweeps allocate the same sizes at every
// site, and a reused block costs neither an allocation call nor (on the host) page faults.
// Shared by the CPU backend (mmap'd blocks) and the CUDA backend (cudaMalloc'd blocks); `Free`
// releases a block for real.
#include <cstddef>
#include <functional>
#include <iterator>
#include <map>
#include <mutex>

namespace srcc {

class BlockCache {
 public:
  using Free = std::function<void(void*, std::size_t)>;
  BlockCache(std::size_t cap_bytes, Free free) : cap_(cap_bytes), free_(std::move(free)) {}
  ~BlockCache() { release_all(); }
  BlockCache(const BlockCache&) = delete;
  BlockCache& operator=(const BlockCache&) = delete;

  // A cached block of exactly `bytes` (of several, the one given back last: the likeliest to be
  // still in cache), or nullptr. n = 100, N = 50: the right sweep's S then reuses the
  // environment the sketch read just before, not one freed many sites earlier.
  void* take(std::size_t bytes) {
    std::lock_guard lock(mutex_);
    const auto [first, last] = blocks_.equal_range(bytes);
    if (first == last) return nullptr;
    const auto it = std::prev(last);
    void* p = it->second;
    cached_ -= bytes;
    blocks_.erase(it);
    return p;
  }
  // Keeps `p` for reuse while the cache stays within its cap; frees it otherwise.
  void give(void* p, std::size_t bytes) {
    {
      std::lock_guard lock(mutex_);
      if (cached_ + bytes <= cap_) {
        blocks_.emplace(bytes, p);
        cached_ += bytes;
        return;
      }
    }
    free_(p, bytes);
  }
  // Frees cached blocks until at most `keep` bytes remain.
  void shrink(std::size_t keep = 0) {
    std::lock_guard lock(mutex_);
    for (auto it = blocks_.begin(); it != blocks_.end() && cached_ > keep;) {
      free_(it->second, it->first);
      cached_ -= it->first;
      it = blocks_.erase(it);
    }
  }
  std::size_t cached() const { return cached_; }

  // `bytes` rounded up to a size whose binary form has only its four leading bits set (at most
  // 12.5% more): sizes that differ a little share a class, and so a cached block.
  static std::size_t size_class(std::size_t bytes) {
    std::size_t shift = 0;
    while ((bytes >> shift) >= 16) ++shift;
    return ((bytes + (std::size_t{1} << shift) - 1) >> shift) << shift;
  }

 private:
  void release_all() { shrink(0); }
  std::size_t cap_, cached_ = 0;
  Free free_;
  std::mutex mutex_;
  std::multimap<std::size_t, void*> blocks_;
};

}  // namespace srcc
