// Tests of axis permutation (lib/srcc/core/permute.cpp) against index arithmetic.
#include "srcc/core/permute.hpp"

#include <gtest/gtest.h>

#include <numeric>

namespace srcc {
namespace {

TEST(Permute, EveryElementLandsWhereItsIndicesSay) {
  Tensor<double> in({2, 3, 4, 5});
  std::iota(in.data.begin(), in.data.end(), 0.0);
  const std::vector<std::size_t> perm = {2, 0, 3, 1};
  const Tensor<double> out = permute(in, perm);
  ASSERT_EQ(out.shape, (Shape{4, 2, 5, 3}));
  for (std::size_t a = 0; a < 2; ++a)
    for (std::size_t b = 0; b < 3; ++b)
      for (std::size_t c = 0; c < 4; ++c)
        for (std::size_t d = 0; d < 5; ++d) {
          const double want = in.data[((a * 3 + b) * 4 + c) * 5 + d];
          // out[i0, i1, i2, i3] = in[...] with i0 = c, i1 = a, i2 = d, i3 = b.
          ASSERT_EQ(out.data[((c * 2 + a) * 5 + d) * 3 + b], want);
        }
}

TEST(Permute, MovingOnlySizeOneAxesIsAReshape) {
  EXPECT_TRUE(permutation_is_reshape({1, 4, 1, 3}, {0, 2, 1, 3}));
  EXPECT_TRUE(permutation_is_reshape({1, 4, 1, 3}, {1, 0, 3, 2}));   // 4 still before 3
  EXPECT_FALSE(permutation_is_reshape({1, 4, 1, 3}, {3, 1, 0, 2}));  // 3 moved before 4
  EXPECT_TRUE(permutation_is_reshape({5, 1, 1}, {0, 2, 1}));
  EXPECT_FALSE(permutation_is_reshape({5, 2, 1}, {1, 0, 2}));
}

}  // namespace
}  // namespace srcc
