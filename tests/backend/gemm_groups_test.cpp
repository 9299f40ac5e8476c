// The grouping a device issues GEMM chains by (backend/gemm_groups.hpp): wave i holds the i-th
// call of every chain, a wave's calls are grouped by shape and beta, each matrix of a strided
// batch listed apart at its offset, and nothing is lost or duplicated.
#include <gtest/gtest.h>

#include <set>

#include "srcc/backend/gemm_groups.hpp"

namespace srcc {
namespace {

TEST(GemmWaves, KeepEachChainsOrderAndGroupEachWaveByShape) {
  std::vector<double> a(1000), b(1000), c(1000);
  auto call = [&](std::size_t m, std::size_t at, double beta, std::size_t batch = 1) {
    return GemmCall<double>{Op::kNone, Op::kTrans, m, 4, 5, a.data() + at, 5, 20, b.data() + at, 5, 0, beta,
                            c.data() + at, 4, m * 4, batch};
  };
  const std::vector<std::vector<GemmCall<double>>> chains{
      {call(3, 0, 0), call(3, 0, 1), call(3, 0, 1)},  // one output, three calls
      {call(3, 100, 0)},                              // the same shape: grouped with the first
      {call(2, 200, 0, 3), call(2, 200, 1, 3)},       // another shape, a batch of three
      {call(2, 300, 0), call(3, 300, 1)},             // shapes differ between its calls
      {}};
  const auto waves = gemm_waves(chains);
  ASSERT_EQ(waves.size(), 3u);
  // Wave 0: m = 3 (chains 0 and 1), m = 2 with beta 0 (chain 2's three matrices and chain 3's).
  ASSERT_EQ(waves[0].size(), 2u);
  EXPECT_EQ(waves[0][0].m, 3u);
  EXPECT_EQ(waves[0][0].c, (std::vector<double*>{c.data(), c.data() + 100}));
  EXPECT_EQ(waves[0][1].m, 2u);
  EXPECT_EQ(waves[0][1].c, (std::vector<double*>{c.data() + 200, c.data() + 208, c.data() + 216, c.data() + 300}));
  EXPECT_EQ(waves[0][1].a, (std::vector<const double*>{a.data() + 200, a.data() + 220, a.data() + 240, a.data() + 300}));
  EXPECT_EQ(waves[0][1].b, (std::vector<const double*>{b.data() + 200, b.data() + 200, b.data() + 200, b.data() + 300}));
  EXPECT_EQ(waves[0][0].beta, 0.0);
  // Wave 1: the second calls, which accumulate (beta 1): chain 0 (m = 3), chain 2 (m = 2), chain 3 (m = 3).
  ASSERT_EQ(waves[1].size(), 2u);
  EXPECT_EQ(waves[1][0].beta, 1.0);
  EXPECT_EQ(waves[1][0].c, (std::vector<double*>{c.data(), c.data() + 300}));
  EXPECT_EQ(waves[1][1].c.size(), 3u);
  // Wave 2: chain 0's third call alone.
  ASSERT_EQ(waves[2].size(), 1u);
  EXPECT_EQ(waves[2][0].c, (std::vector<double*>{c.data()}));
  // No wave writes one output twice.
  for (const auto& wave : waves) {
    std::set<double*> seen;
    for (const auto& g : wave)
      for (double* p : g.c) EXPECT_TRUE(seen.insert(p).second);
  }
}

}  // namespace
}  // namespace srcc
