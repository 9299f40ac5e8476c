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
  char blocks[7][1];
  {
    BlockCache cache(300, [&](void* p, std::size_t) { ++freed[p]; });
    cache.give(blocks[0], 100);
    cache.give(blocks[1], 100);
    cache.give(blocks[2], 150);  // 350 > cap: the block given back longest ago makes room
    EXPECT_EQ(freed[blocks[0]], 1);
    EXPECT_EQ(freed[blocks[1]], 0);
    EXPECT_EQ(cache.cached(), 250u);
    cache.give(blocks[5], 400);  // larger than the cap: freed at once, nothing else
    EXPECT_EQ(freed[blocks[5]], 1);
    EXPECT_EQ(cache.cached(), 250u);
    EXPECT_EQ(cache.take(120), nullptr) << "no block of exactly 120";
    EXPECT_EQ(cache.take(100), blocks[1]);
    EXPECT_EQ(cache.take(100), nullptr);
    EXPECT_EQ(cache.cached(), 150u);
    cache.give(blocks[3], 50);
    cache.shrink(60);  // frees blocks, oldest first, until at most 60 bytes remain
    EXPECT_EQ(freed[blocks[2]], 1);
    EXPECT_EQ(cache.cached(), 50u);
    EXPECT_EQ(cache.take(50), blocks[3]);
    cache.give(blocks[3], 50);
    cache.give(blocks[4], 200);
    cache.give(blocks[6], 100);  // 350: blocks[3] (the oldest) goes, not the larger blocks[4]
    EXPECT_EQ(freed[blocks[3]], 1);
    EXPECT_EQ(freed[blocks[4]], 0);
  }  // the destructor frees what is left
  for (auto& [p, n] : freed) EXPECT_EQ(n, p == blocks[1] ? 0 : 1) << "a block freed twice, or one taken freed";
  EXPECT_EQ(freed.size(), 7u) << "every block given and not taken is freed";
}

}  // namespace
}  // namespace srcc
