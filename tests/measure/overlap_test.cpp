// Inner products and distances of trains (lib/srcc/measure/overlap.cpp) against dense vectors.
#include "srcc/measure/overlap.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "../support/dense.hpp"
#include "../support/h5_fixture.hpp"
#include "../support/stacks.hpp"
#include "srcc/core/error.hpp"
#include "srcc/core/text.hpp"
#include "srcc/measure/compare.hpp"

namespace srcc::test {
namespace {

template <class T> class Overlap : public ::testing::Test {};
using ScalarTypes = ::testing::Types<double, cdouble>;
TYPED_TEST_SUITE(Overlap, ScalarTypes);

TYPED_TEST(Overlap, InnerProductAndDistanceMatchDenseVectors) {
  using T = TypeParam;
  CpuOps<T> ops;
  auto& [backend, K, gemm, mover] = ops;
  const auto a = random_train<T>(TrainKind::kMpo, 5, 3, 2, 1);
  auto b = random_train<T>(TrainKind::kMpo, 5, 2, 2, 2);
  const auto va = dense_vector(a), vb = dense_vector(b);
  cdouble dot = 0;
  for (std::size_t i = 0; i < va.size(); ++i) dot += std::conj(va[i]) * vb[i];
  const cdouble got = inner_product(a, b, K);
  EXPECT_LT(std::abs(got - dot), 1e-14 * std::abs(dot) + 1e-300);
  double diff = 0;
  for (std::size_t i = 0; i < va.size(); ++i) diff += std::norm(va[i] - vb[i]);
  EXPECT_NEAR(distance(a, b, mover, gemm), std::sqrt(diff), 1e-13 * std::sqrt(diff));
  // Accurate for tiny differences, where ‖a‖² + ‖b‖² − 2 Re⟨a|b⟩ would lose half the digits.
  auto c = a;
  c[2].data[0] += T(1e-12);
  double tiny = 0;
  const auto vc = dense_vector(c);
  for (std::size_t i = 0; i < va.size(); ++i) tiny += std::norm(va[i] - vc[i]);
  EXPECT_NEAR(distance(a, c, mover, gemm), std::sqrt(tiny), 1e-3 * std::sqrt(tiny));
}

// A train of norm about 1e-600 (200 sites, each scaled by 1e-3) and the same train with one core
// scaled by 1 + ε: ‖a − b‖/‖b‖ = ε/(1 + ε) and the cosine is 1, though neither norm is a double.
TEST(Overlap, LongTrainsBeyondTheRangeOfADouble) {
  CpuOps<double> ops;
  auto a = random_train<double>(TrainKind::kMps, 200, 3, 2, 7);
  const auto small = random_train<double>(TrainKind::kMps, 200, 3, 2, 7);
  for (auto& c : a)
    for (auto& v : c.data) v *= 1e-3;
  auto b = a;
  const double eps = 1e-6;
  for (auto& v : b[100].data) v *= 1 + eps;
  const double log_na = 0.5 * inner_product_scaled(a, a, ops.K).log_abs();
  const double log_small = 0.5 * inner_product_scaled(small, small, ops.K).log_abs();
  EXPECT_TRUE(std::isfinite(log_na));
  EXPECT_NEAR(log_na, log_small + 200 * std::log(1e-3), 1e-9 * std::abs(log_na));
  EXPECT_EQ(inner_product(a, a, ops.K), cdouble(0)) << "as a plain double it underflows";
  const double log_nb = 0.5 * inner_product_scaled(b, b, ops.K).log_abs();
  const double rel = std::exp(log_distance(a, b, ops.mover, ops.gemm) - log_nb);
  EXPECT_NEAR(rel, eps / (1 + eps), 1e-6 * eps);
  const Scaled ab = inner_product_scaled(a, b, ops.K);
  EXPECT_NEAR(std::exp(ab.log_abs() - log_na - log_nb), 1.0, 1e-12);
}

}  // namespace
}  // namespace srcc::test
