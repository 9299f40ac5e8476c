// Tests of the SRC sweep (lib/srcc/sweep/sweep.cpp) against dense contract-then-SVD references.
#include "srcc/sweep/sweep.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "../support/dense.hpp"
#include "../support/stacks.hpp"
#include "srcc/core/error.hpp"
#include "srcc/measure/overlap.hpp"

namespace srcc::test {
namespace {

template <class T> constexpr double exact_tol() { return sizeof(real_t<T>) == 4 ? 2e-5 : 1e-10; }

// Random trains in the working type's "family": complex sources for complex T.
template <class T>
std::vector<Tensor<cdouble>> random_cores(TrainKind kind, std::size_t n, std::size_t bond,
                                          std::size_t phys, std::uint64_t seed) {
  if constexpr (is_complex_v<T>) return random_train<cdouble>(kind, n, bond, phys, seed);
  else return real_cores(kind, n, bond, phys, seed);
}



template <class T> class SweepTyped : public ::testing::Test {};
using ScalarTypes = ::testing::Types<float, double, cfloat, cdouble>;
TYPED_TEST_SUITE(SweepTyped, ScalarTypes);

TYPED_TEST(SweepTyped, MpoTimesMpsIsExactWhenChiCoversTheBond) {
  using T = TypeParam;
  const std::vector<CLayer> layers = {{TrainKind::kMpo, random_cores<T>(TrainKind::kMpo, 8, 3, 2, 11)},
                                      {TrainKind::kMps, random_cores<T>(TrainKind::kMps, 8, 5, 2, 12)}};
  const auto res = sweep(make_stack<T>(layers), 15, 7);
  const auto ref = reference<T>(layers);
  EXPECT_LT(relative_error(dense_vector(res.cores), ref.v), exact_tol<T>());
  EXPECT_LT(right_orthonormality_defect(res.cores), sizeof(real_t<T>) == 4 ? 1e-5 : 1e-10);
  for (const auto& c : res.cores) {
    EXPECT_LE(c.shape[kLegL], 15u);
    EXPECT_LE(c.shape[kLegR], 15u);
  }
}

TYPED_TEST(SweepTyped, MpoTimesMpoIsExact) {
  using T = TypeParam;
  const std::vector<CLayer> layers = {{TrainKind::kMpo, random_cores<T>(TrainKind::kMpo, 5, 2, 2, 21)},
                                      {TrainKind::kMpo, random_cores<T>(TrainKind::kMpo, 5, 3, 2, 22)}};
  const auto res = sweep(make_stack<T>(layers), 6, 3);
  EXPECT_EQ(res.kind, TrainKind::kMpo);
  EXPECT_LT(relative_error(dense_vector(res.cores), reference<T>(layers).v), exact_tol<T>());
  EXPECT_LT(right_orthonormality_defect(res.cores), sizeof(real_t<T>) == 4 ? 1e-5 : 1e-10);
}

// Bonds large enough that the right step takes each thread's rows of S in several cache-sized
// chunks (about 74 KB a row here, so 7 rows a chunk, up to 64 rows a site), with the down leg
// moved in every chunk: on one, two and three threads (uneven row ranges).
TEST(Sweep, RightBlocksTakenInRowChunksAreExact) {
  const std::vector<CLayer> layers = {{TrainKind::kMpo, random_train<cdouble>(TrainKind::kMpo, 6, 24, 2, 51)},
                                      {TrainKind::kMpo, random_train<cdouble>(TrainKind::kMpo, 6, 24, 2, 52)}};
  const auto data = make_stack<cdouble>(layers);
  const auto ref = reference<cdouble>(layers);
  SweepOptions o;
  o.chi = 64;
  o.seed = 5;
  for (int threads : {1, 2, 3}) {
    auto backend = make_cpu_backend(threads);
    TransferLog log;
    SilentReporter reporter;
    const auto res = run_sweep(data, o, *backend, log, reporter);
    EXPECT_LT(relative_error(dense_vector(res.cores), ref.v), 1e-10) << threads << " threads";
    EXPECT_LT(right_orthonormality_defect(res.cores), 1e-10) << threads << " threads";
  }
}

TYPED_TEST(SweepTyped, DepthThreeStackIsExact) {
  using T = TypeParam;
  const std::vector<CLayer> layers = {{TrainKind::kMpo, random_cores<T>(TrainKind::kMpo, 7, 2, 2, 31)},
                                      {TrainKind::kMpo, random_cores<T>(TrainKind::kMpo, 7, 2, 2, 32)},
                                      {TrainKind::kMps, random_cores<T>(TrainKind::kMps, 7, 3, 2, 33)}};
  const auto res = sweep(make_stack<T>(layers), 12, 5);
  EXPECT_LT(relative_error(dense_vector(res.cores), reference<T>(layers).v), exact_tol<T>());
}

TYPED_TEST(SweepTyped, CompressIsExactAtTheTrainsOwnBond) {
  using T = TypeParam;
  const std::vector<CLayer> layers = {{TrainKind::kMps, random_cores<T>(TrainKind::kMps, 10, 6, 3, 41)}};
  const auto res = sweep(make_stack<T>(layers), 6, 9);
  EXPECT_LT(relative_error(dense_vector(res.cores), reference<T>(layers).v), exact_tol<T>());
  for (const auto& c : res.cores) EXPECT_LE(c.shape[kLegR], 6u);
}

TYPED_TEST(SweepTyped, TwoSitesTakeTheExactSvdPath) {
  using T = TypeParam;
  const std::vector<CLayer> layers = {{TrainKind::kMpo, random_cores<T>(TrainKind::kMpo, 2, 3, 3, 51)},
                                      {TrainKind::kMps, random_cores<T>(TrainKind::kMps, 2, 4, 3, 52)}};
  const auto ref = reference<T>(layers);
  const auto exact = sweep(make_stack<T>(layers), 9, 1);
  EXPECT_LT(relative_error(dense_vector(exact.cores), ref.v), exact_tol<T>());
  EXPECT_EQ(exact.sites[1].sketch_columns, 0);
  // Truncated to rank 1 the two-site path is the optimal (Eckart–Young) truncation.
  const auto one = sweep(make_stack<T>(layers), 1, 1);
  EXPECT_NEAR(relative_error(dense_vector(one.cores), ref.v), best_truncation_bound(ref, 1),
              sizeof(real_t<T>) == 4 ? 1e-5 : 1e-12);
}

TEST(Sweep, SameSeedIsBitwiseIdenticalAndSeedsDiffer) {
  const std::vector<CLayer> layers = {{TrainKind::kMpo, random_cores<cdouble>(TrainKind::kMpo, 9, 3, 2, 61)},
                                      {TrainKind::kMps, random_cores<cdouble>(TrainKind::kMps, 9, 6, 2, 62)}};
  const auto data = make_stack<cdouble>(layers);
  const auto a = sweep(data, 8, 100), b = sweep(data, 8, 100), c = sweep(data, 8, 101);
  ASSERT_EQ(a.cores.size(), b.cores.size());
  bool all_same_c = true;
  for (std::size_t j = 0; j < a.cores.size(); ++j) {
    EXPECT_EQ(a.cores[j].shape, b.cores[j].shape);
    EXPECT_EQ(a.cores[j].data, b.cores[j].data) << "site " << j;
    all_same_c = all_same_c && a.cores[j].data == c.cores[j].data;
  }
  EXPECT_FALSE(all_same_c);
  const auto ref = reference<cdouble>(layers);
  EXPECT_NE(relative_error(dense_vector(a.cores), ref.v), relative_error(dense_vector(c.cores), ref.v));
}

TEST(Sweep, ErrorIsAboveTheOptimalTruncationAndWithinFourTimesContractThenSvd) {
  // The paper's random recipe; the product has bond 3·6 = 18 and χ̄ = 6 truncates it. No train
  // of bond 6 beats the best rank-6 truncation at any single cut (a hard lower bound); plain SRC
  // is expected a few times above contract-then-SVD (the paper reports 6–17× on larger
  // instances, src-method tests a median <= 4). Measured here: median ≈ 3.3, range 2.0–4.9.
  const std::vector<CLayer> layers = {{TrainKind::kMpo, random_cores<double>(TrainKind::kMpo, 10, 3, 2, 71)},
                                      {TrainKind::kMps, random_cores<double>(TrainKind::kMps, 10, 6, 2, 72)}};
  const auto data = make_stack<double>(layers);
  const auto ref = reference<double>(layers);
  const std::size_t chi = 6;
  const double bound = best_truncation_bound(ref, chi);
  const double optimal = svd_sweep_error(ref, chi);
  ASSERT_GT(bound, 1e-8);
  ASSERT_GE(optimal, bound);
  std::vector<double> ratios;
  for (std::uint64_t seed = 0; seed < 15; ++seed) {
    const double err = relative_error(dense_vector(sweep(data, chi, seed).cores), ref.v);
    EXPECT_GE(err, bound * (1 - 1e-9)) << "seed " << seed;
    ratios.push_back(err / optimal);
  }
  std::nth_element(ratios.begin(), ratios.begin() + ratios.size() / 2, ratios.end());
  EXPECT_LE(ratios[ratios.size() / 2], 4.0);
}

TEST(Sweep, CutoffFindsTheTrueRanks) {
  // Identity · ψ has exactly ψ's bonds (4 inside, fewer near the ends); χ̄ = 20 is generous.
  const std::vector<CLayer> layers = {
      {TrainKind::kMpo, [] {
         std::vector<Tensor<cdouble>> v;
         for (auto& c : identity_mpo<double>(8, 2)) v.push_back(cast_tensor<cdouble>(c));
         return v;
       }()},
      {TrainKind::kMps, random_cores<double>(TrainKind::kMps, 8, 4, 2, 81)}};
  const auto data = make_stack<double>(layers);
  const auto ref = reference<double>(layers);
  const auto plain = sweep(data, 20, 3);
  const auto cut = sweep(data, 20, 3, 1e-10);
  EXPECT_LT(relative_error(dense_vector(cut.cores), ref.v), 1e-9);
  const std::vector<std::size_t> want = {2, 4, 4, 4, 4, 4, 2};
  for (std::size_t j = 0; j + 1 < 8; ++j) {
    EXPECT_EQ(cut.cores[j].shape[kLegR], want[j]) << "cut " << j;
    EXPECT_GE(plain.cores[j].shape[kLegR], want[j]) << "cut " << j;
  }
}

TEST(Sweep, SinglePrecisionAgreesWithDoublePrecision) {
  const std::vector<CLayer> layers = {{TrainKind::kMpo, random_cores<cdouble>(TrainKind::kMpo, 10, 3, 2, 91)},
                                      {TrainKind::kMps, random_cores<cdouble>(TrainKind::kMps, 10, 5, 2, 92)}};
  const auto lo = sweep(make_stack<cfloat>(layers), 8, 17);
  const auto hi = sweep(make_stack<cdouble>(layers), 8, 17);
  EXPECT_LT(relative_error(dense_vector(lo.cores), dense_vector(hi.cores)), 1e-4);
}

TEST(Sweep, OneSiteIsAnError) {
  const std::vector<CLayer> layers = {{TrainKind::kMps, {Tensor<cdouble>({1, 1, 2, 1})}}};
  EXPECT_THROW(sweep(make_stack<double>(layers), 4, 1), InputError);
}

TEST(Sweep, ChiZeroIsAUsageError) {
  const std::vector<CLayer> layers = {{TrainKind::kMps, random_cores<double>(TrainKind::kMps, 4, 2, 2, 1)}};
  EXPECT_THROW(sweep(make_stack<double>(layers), 0, 1), UsageError);
}

}  // namespace
}  // namespace srcc::test

namespace srcc::test {
namespace {

TEST(SweepRange, SinglePrecisionOnLongTrainsKeepsItsAccuracy) {
  // The right environment is kept at norm at most 1 (its scale on the side): without that,
  // float32 underflows midway along a long train of normalised sites.
  const std::vector<CLayer> layers = {{TrainKind::kMpo, real_cores(TrainKind::kMpo, 30, 4, 2, 3)},
                                      {TrainKind::kMps, real_cores(TrainKind::kMps, 30, 8, 2, 4)}};
  const auto lo = sweep(make_stack<float>(layers), 12, 5);
  const auto hi = sweep(make_stack<double>(layers), 12, 5);
  std::vector<Tensor<double>> lo64;
  for (const auto& c : lo.cores) lo64.push_back(cast_tensor<double>(c));
  CpuOps<double> ops;
  EXPECT_GT(ops.norm(hi.cores), 0);
  EXPECT_LT(ops.relative_distance(lo64, hi.cores), 1e-4);
}

// A product whose norm float32 cannot hold (120 sites of random cores) comes back with its cores
// at unit norm and the norm as a log scale, the same norm the float64 sweep finds in its cores.
TEST(SweepRange, NormOutsideTheWorkingTypeIsCarriedAsAScale) {
  const std::vector<CLayer> layers = {{TrainKind::kMpo, real_cores(TrainKind::kMpo, 120, 4, 2, 3)},
                                      {TrainKind::kMps, real_cores(TrainKind::kMps, 120, 8, 2, 4)}};
  const auto f = sweep(make_stack<float>(layers), 8, 5);
  const auto d = sweep(make_stack<double>(layers), 8, 5);
  EXPECT_NE(f.log_scale, 0.0);
  EXPECT_NEAR(frobenius_norm(f.cores.front()), 1.0, 1e-5);
  const double log_f = std::log(frobenius_norm(f.cores.front())) + f.log_scale;
  const double log_d = std::log(frobenius_norm(d.cores.front())) + d.log_scale;
  EXPECT_GT(std::abs(log_d), std::log(static_cast<double>(std::numeric_limits<float>::max())));
  EXPECT_NEAR(log_f, log_d, 1e-4 * std::abs(log_d));
}

}  // namespace
}  // namespace srcc::test
