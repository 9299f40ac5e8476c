// Tests of axis permutation (lib/srcc/core/permute.cpp) against index arithmetic.
#include "srcc/core/permute.hpp"

#include <gtest/gtest.h>

#include <algorithm>
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

// out[i] = in[j] where j's index along in-axis perm[k] is i's index along out-axis k.
Tensor<double> permuted_by_indices(const Tensor<double>& in, const std::vector<std::size_t>& perm) {
  Shape shape(perm.size());
  for (std::size_t k = 0; k < perm.size(); ++k) shape[k] = in.shape[perm[k]];
  Tensor<double> out(shape);
  std::vector<std::size_t> idx(perm.size(), 0), from(perm.size());
  for (std::size_t flat = 0; flat < out.size(); ++flat) {
    std::size_t rest = flat;
    for (std::size_t k = perm.size(); k-- > 0;) {
      idx[k] = rest % shape[k];
      rest /= shape[k];
    }
    for (std::size_t k = 0; k < perm.size(); ++k) from[perm[k]] = idx[k];
    std::size_t src = 0;
    for (std::size_t a = 0; a < perm.size(); ++a) src = src * in.shape[a] + from[a];
    out.data[flat] = in.data[src];
  }
  return out;
}

// Every permutation of shapes with size-1 axes and axes that stay adjacent (which the copy
// drops and fuses), against the index arithmetic above.
TEST(Permute, EveryPermutationOfSeveralShapesMatchesIndexArithmetic) {
  for (const Shape& shape : {Shape{2, 3, 4, 5}, Shape{3, 1, 4, 2}, Shape{1, 6, 1, 5, 2},
                             Shape{2, 2, 3, 1, 3}, Shape{1, 1, 1}, Shape{7}}) {
    Tensor<double> in(shape);
    std::iota(in.data.begin(), in.data.end(), 1.0);
    std::vector<std::size_t> perm(shape.size());
    std::iota(perm.begin(), perm.end(), 0);
    do {
      const Tensor<double> got = permute(in, perm), want = permuted_by_indices(in, perm);
      ASSERT_EQ(got.shape, want.shape);
      ASSERT_EQ(got.data, want.data) << "shape rank " << shape.size() << ", perm "
                                     << perm[0] << "…";
    } while (std::next_permutation(perm.begin(), perm.end()));
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
