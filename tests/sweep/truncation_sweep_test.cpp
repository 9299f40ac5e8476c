// Tests of the truncation rules and the truncation sweep (lib/srcc/sweep/truncation.hpp,
// truncation_sweep.cpp) against dense references.
#include "srcc/sweep/truncation_sweep.hpp"

#include <gtest/gtest.h>

#include "../support/dense.hpp"
#include "../support/stacks.hpp"
#include "srcc/sweep/truncation.hpp"

namespace srcc::test {
namespace {

TEST(TruncationRank, EachRuleAndTheirCombination) {
  const std::vector<double> s = {10, 5, 1, 0.1, 0.01};
  EXPECT_EQ(truncation_rank(s, 0.0, 0.0, 0), 5u);
  EXPECT_EQ(truncation_rank(s, 0.0, 0.0, 3), 3u);
  EXPECT_EQ(truncation_rank(s, 0.05, 0.0, 0), 3u);   // keeps σ >= 0.5
  EXPECT_EQ(truncation_rank(s, 0.0, 0.01, 0), 3u);   // tail {0.1, 0.01} = 0.1005 <= 0.01·11.2
  EXPECT_EQ(truncation_rank(s, 0.0, 0.2, 0), 2u);    // tail {1, 0.1, 0.01} = 1.005 <= 2.24
  EXPECT_EQ(truncation_rank(s, 0.05, 0.01, 2), 2u);  // the strictest rule wins
  EXPECT_EQ(truncation_rank(s, 0.99, 0.0, 0), 1u);   // at least one value
  EXPECT_NEAR(discarded_norm(s, 3), std::sqrt(0.01 + 0.0001), 1e-15);
}

template <class T> class TrainAlgebra : public ::testing::Test {};
using ScalarTypes = ::testing::Types<double, cdouble>;
TYPED_TEST_SUITE(TrainAlgebra, ScalarTypes);

TYPED_TEST(TrainAlgebra, TruncatingAnExactTrainIsContractThenSvd) {
  using T = TypeParam;
  CpuOps<T> ops;
  auto& [backend, K, gemm, mover] = ops;
  auto cores = random_train<T>(TrainKind::kMps, 9, 12, 2, 4);
  const auto ref = dense_train(cores);
  right_canonicalize(cores, mover, gemm);
  EXPECT_LT(relative_error(dense_vector(cores), ref.v), 1e-13);  // same train
  EXPECT_LT(right_orthonormality_defect(cores), 1e-12);
  for (std::size_t chi : {3, 6}) {
    auto t = cores;
    const auto discarded = truncate_train(t, chi, 0.0, 0.0, mover, gemm, false);
    const double err = relative_error(dense_vector(t), ref.v);
    EXPECT_NEAR(err, svd_sweep_error(ref, chi), 1e-12 + 1e-9 * err) << "chi " << chi;
    double sum2 = 0;
    for (double d : discarded) sum2 += d * d;
    EXPECT_NEAR(std::sqrt(sum2), err, 1e-10) << "errors of the cuts add in quadrature";
    EXPECT_LT(right_orthonormality_defect(t), 1e-12);
    for (const auto& c : t) EXPECT_LE(c.shape[kLegR], chi);
  }
}

}  // namespace
}  // namespace srcc::test
