// Tests of the cache of freed blocks (lib/srcc/backend/block_cache.hpp): exact-size reuse, the
// last freed first, the cap, shrinking, and that every block is freed exactly once.
#include "srcc/backend/block_cache.hpp"

#include <gtest/gtest.h>

#include <map>

namespace srcc {
namespace {

// Of several blocks of one size, the one freed last is reused first: it is the likeliest to
// be still in cache (the sweep frees and asks for blocks of the same size at every site).
TEST(BlockCache, ReusesTheBlockFreedLast) {
  char blocks[3][1];
  BlockCache cache(1000, [](void*, std::size_t) {});
  cache.give(blocks[0], 100);
  cache.give(blocks[1], 100);
  cache.give(blocks[2], 100);
  EXPECT_EQ(cache.take(100), blocks[2]);
  EXPECT_EQ(cache.take(100), blocks[1]);
  cache.give(blocks[2], 100);
  EXPECT_EQ(cache.take(100), blocks[2]);
  EXPECT_EQ(cache.take(100), blocks[0]);
  EXPECT_EQ(cache.take(100), nullptr);
}

TEST(BlockCache, ReusesOnlyExactSizesWithinItsCapAndFreesEachBlockOnce) {
  std::map<void*, int> freed;
  char blocks[6][1];
  {
    BlockCache cache(300, [&](void* p, std::size_t) { ++freed[p]; });
    cache.give(blocks[0], 100);
    cache.give(blocks[1], 100);
    cache.give(blocks[2], 150);  // 350 > cap: freed at once
    EXPECT_EQ(freed[blocks[2]], 1);
    EXPECT_EQ(cache.cached(), 200u);
    EXPECT_EQ(cache.take(120), nullptr) << "no block of exactly 120";
    void* a = cache.take(100);
    EXPECT_TRUE(a == blocks[0] || a == blocks[1]);
    EXPECT_EQ(cache.cached(), 100u);
    cache.give(blocks[3], 50);
    cache.shrink(60);  // frees blocks until at most 60 bytes remain
    EXPECT_LE(cache.cached(), 60u);
    cache.give(blocks[4], 200);
  }  // the destructor frees what is left
  for (auto& [p, n] : freed) EXPECT_EQ(n, 1) << "freed twice";
  EXPECT_EQ(freed.size(), 4u) << "every block given and not taken is freed";
}

}  // namespace
}  // namespace srcc
