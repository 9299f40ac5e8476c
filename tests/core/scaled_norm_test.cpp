// The two-pass norm against a long-double sum of squares at scales where a plain double or
// float sum over- or underflows, and its answers for NaN, infinity and zeros.
#include "srcc/core/scaled_norm.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace srcc {
namespace {

template <class R> void check_scales(std::initializer_list<double> scales) {
  std::mt19937_64 g(9);
  std::normal_distribution<double> normal;
  for (double scale : scales)
    for (std::size_t n : {1u, 2u, 7u, 1000u}) {
      std::vector<R> x(n);
      long double want2 = 0;
      for (auto& v : x) {
        v = static_cast<R>(normal(g) * scale);
        want2 += static_cast<long double>(v) * static_cast<long double>(v);
      }
      const double want = static_cast<double>(std::sqrt(want2));
      EXPECT_NEAR(static_cast<double>(scaled_norm(x.data(), n)) / want, 1.0,
                  10 * std::numeric_limits<R>::epsilon() * std::sqrt(static_cast<double>(n)))
          << "scale " << scale << ", n " << n;
    }
}

TEST(ScaledNorm, MatchesALongDoubleSumAtScalesAPlainSumLoses) {
  check_scales<double>({1.0, 1e-170, 1e170, 1e-300, 1e300});
  check_scales<float>({1.0f, 1e-25, 1e25, 1e-35, 1e35});
}

TEST(ScaledNorm, NanInfinityAndZeros) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> zeros(5, 0.0), with_inf = {1, -inf, 2}, with_nan = {1, inf, nan, 2};
  EXPECT_EQ(scaled_norm(zeros.data(), zeros.size()), 0.0);
  EXPECT_EQ(scaled_norm(zeros.data(), 0), 0.0);
  EXPECT_EQ(scaled_norm(with_inf.data(), with_inf.size()), inf);
  EXPECT_TRUE(std::isnan(scaled_norm(with_nan.data(), with_nan.size())));
}

}  // namespace
}  // namespace srcc
