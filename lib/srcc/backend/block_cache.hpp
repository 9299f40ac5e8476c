#pragma once
// A cache of freed memory blocks, reused by exact size: sweeps allocate the same sizes at every
// site, and a reused block costs neither an allocation call nor (on the host) page faults.
// Shared by the CPU backend (mmap'd blocks) and the CUDA backend (cudaMalloc'd blocks); `Free`
// releases a block for real.
#include <cstddef>
#include <functional>
#include <iterator>
#include <list>
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
    const auto [first, last] = by_size_.equal_range(bytes);
    if (first == last) return nullptr;
    const auto it = std::prev(last);
    void* p = it->second->p;
    cached_ -= bytes;
    by_age_.erase(it->second);
    by_size_.erase(it);
    return p;
  }
  // Keeps `p` for reuse, freeing the blocks given back longest ago where the cache would pass
  // its cap (a sweep's sizes drift from cut to cut: the newest blocks are the likeliest to be
  // asked for again); a block larger than the cap is freed at once.
  void give(void* p, std::size_t bytes) {
    if (bytes <= cap_) {
      std::lock_guard lock(mutex_);
      evict_to(cap_ - bytes);
      by_age_.push_back({p, bytes});
      by_size_.emplace(bytes, std::prev(by_age_.end()));
      cached_ += bytes;
      return;
    }
    free_(p, bytes);
  }
  // Frees cached blocks, oldest first, until at most `keep` bytes remain.
  void shrink(std::size_t keep = 0) {
    std::lock_guard lock(mutex_);
    evict_to(keep);
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
  struct Entry {
    void* p;
    std::size_t bytes;
  };
  void release_all() { shrink(0); }
  void evict_to(std::size_t keep) {  // the mutex held
    while (cached_ > keep && !by_age_.empty()) {
      const Entry e = by_age_.front();
      const auto [first, last] = by_size_.equal_range(e.bytes);
      for (auto it = first; it != last; ++it)
        if (it->second == by_age_.begin()) {
          by_size_.erase(it);
          break;
        }
      by_age_.pop_front();
      cached_ -= e.bytes;
      free_(e.p, e.bytes);
    }
  }
  std::size_t cap_, cached_ = 0;
  Free free_;
  std::mutex mutex_;
  std::list<Entry> by_age_;  // oldest first
  std::multimap<std::size_t, std::list<Entry>::iterator> by_size_;
};

}  // namespace srcc
