// The per-thread cache of freed medium blocks: reuse by exact size on the freeing thread only,
// and its limit of four blocks.
#include "srcc/backend/cpu/thread_blocks.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <thread>
#include <vector>

namespace srcc {
namespace {

TEST(ThreadBlocks, ReusesAFreedBlockOfTheSameSizeOnTheSameThread) {
  const std::size_t size = 96 << 10;
  void* a = ThreadBlocks::take(size);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a) % 64, 0u);
  static_cast<char*>(a)[size - 1] = 1;  // all of it is ours
  ThreadBlocks::give(a, size);
  void* other_size = ThreadBlocks::take(size + 4096);
  EXPECT_NE(other_size, a);  // only the exact size is reused
  void* again = ThreadBlocks::take(size);
  EXPECT_EQ(again, a);
  ThreadBlocks::give(again, size);
  ThreadBlocks::give(other_size, size + 4096);
  // Another thread has its own blocks: it gets a fresh one while ours is kept.
  void* theirs = nullptr;
  std::thread([&] {
    theirs = ThreadBlocks::take(size);
    ThreadBlocks::give(theirs, size);
  }).join();
  EXPECT_NE(theirs, a);
  EXPECT_EQ(ThreadBlocks::take(size), a);
  ThreadBlocks::give(a, size);
}

TEST(ThreadBlocks, KeepsAtMostFourBlocks) {
  // On a thread of its own, so that blocks other tests left on this one do not count.
  std::thread([] {
    EXPECT_EQ(ThreadBlocks::held(), 0u);
    const std::size_t size = 200 << 10;
    std::vector<void*> blocks;
    for (int i = 0; i < 6; ++i) blocks.push_back(ThreadBlocks::take(size));
    for (void* p : blocks) ThreadBlocks::give(p, size);
    EXPECT_EQ(ThreadBlocks::held(), 4 * size);  // four slots; the fifth and sixth were freed
    // Taken again: the four kept ones.
    std::vector<void*> again;
    for (int i = 0; i < 4; ++i) again.push_back(ThreadBlocks::take(size));
    EXPECT_EQ(ThreadBlocks::held(), 0u);
    EXPECT_EQ(std::set<void*>(again.begin(), again.end()),
              std::set<void*>(blocks.begin(), blocks.begin() + 4));
    for (void* p : again) ThreadBlocks::give(p, size);
  }).join();
}

// A block freed during a thread's exit, after its slots are gone (a thread-local object made
// before them is destroyed after them), goes back to the heap; the thread's slots are not used
// again.
TEST(ThreadBlocks, ABlockFreedAfterTheThreadsSlotsAreGoneIsFreed) {
  struct FreesAtExit {
    void* block = nullptr;
    ~FreesAtExit() {
      if (block != nullptr) ThreadBlocks::give(block, 64 << 10);
      EXPECT_EQ(ThreadBlocks::held(), 0u);
    }
  };
  std::thread([] {
    thread_local FreesAtExit holder;  // made first, destroyed last
    holder.block = ThreadBlocks::take(64 << 10);
    ThreadBlocks::give(ThreadBlocks::take(32 << 10), 32 << 10);  // the slots exist now
    EXPECT_EQ(ThreadBlocks::held(), std::size_t{32} << 10);
  }).join();
}

}  // namespace
}  // namespace srcc
