// The methods beyond plain SRC (sdc, sdcr) and the fit sweeps, against dense contract-then-SVD
// references: errors relative to the optimal truncation of the exact product.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "../support/dense.hpp"
#include "../support/median.hpp"
#include "../support/stacks.hpp"
#include "srcc/core/error.hpp"

namespace srcc::test {
namespace {


// The paper's random recipe: MPO bond 3 times MPS bond 6 (product bond 18), 12 sites.
const std::vector<CLayer>& product() {
  static const std::vector<CLayer> layers = {{TrainKind::kMpo, real_cores(TrainKind::kMpo, 12, 3, 2, 81)},
                                             {TrainKind::kMps, real_cores(TrainKind::kMps, 12, 6, 2, 82)}};
  return layers;
}

SweepOptions options(std::size_t chi, std::uint64_t seed, Method m) {
  SweepOptions o;
  o.chi = chi;
  o.seed = seed;
  o.method = m;
  return o;
}

TEST(Methods, SdcIsDeterministicAndNoWorseThanSrc) {
  const auto data = make_stack<double>(product());
  const auto ref = reference<double>(product());
  const std::size_t chi = 6;
  const double optimal = svd_sweep_error(ref, chi);
  const auto a = sweep(data, options(chi, 1, Method::kSdc));
  const auto b = sweep(data, options(chi, 99, Method::kSdc));
  ASSERT_EQ(a.cores.size(), b.cores.size());
  for (std::size_t j = 0; j < a.cores.size(); ++j) EXPECT_EQ(a.cores[j].data, b.cores[j].data) << j;
  const double sdc = relative_error(dense_vector(a.cores), ref.v);
  std::vector<double> src;
  for (std::uint64_t seed = 0; seed < 9; ++seed)
    src.push_back(relative_error(dense_vector(sweep(data, options(chi, seed, Method::kSrc)).cores), ref.v));
  EXPECT_LE(sdc, median(src));
  EXPECT_LE(sdc, 2.0 * optimal);
  EXPECT_LT(right_orthonormality_defect(a.cores), 1e-10);
  // No leave-one-out estimate for a deterministic sketch: NaN, never a 0 that reads as exact.
  EXPECT_TRUE(std::isnan(a.error_estimate));
  EXPECT_FALSE(a.estimated);
}

TEST(Methods, SdcrAndOversampledVariantsAreNearTheOptimum) {
  const auto data = make_stack<double>(product());
  const auto ref = reference<double>(product());
  for (std::size_t chi : {4, 8}) {
    const double optimal = svd_sweep_error(ref, chi);
    std::vector<double> sdcr, src;
    for (std::uint64_t seed = 0; seed < 7; ++seed) {
      sdcr.push_back(relative_error(dense_vector(sweep(data, options(chi, seed, Method::kSdcr)).cores), ref.v));
      src.push_back(relative_error(dense_vector(sweep(data, options(chi, seed, Method::kSrc)).cores), ref.v));
    }
    EXPECT_LE(median(sdcr), median(src)) << chi;
    for (Method m : {Method::kSdc, Method::kSdcr}) {
      SweepOptions o = options(chi, 3, m);
      o.oversample = 1.5;
      const auto r = sweep(data, o);
      EXPECT_LE(relative_error(dense_vector(r.cores), ref.v), 1.1 * optimal) << method_name(m) << chi;
      for (const auto& c : r.cores) EXPECT_LE(c.shape[kLegR], chi);
    }
  }
}

TEST(Methods, SdcAtFullRankIsExactForThreeLayers) {
  // MPO · MPO · MPS with a complex middle layer: every form of the dense left step.
  const std::vector<CLayer> layers = {{TrainKind::kMpo, real_cores(TrainKind::kMpo, 6, 2, 2, 91)},
                                      {TrainKind::kMpo, real_cores(TrainKind::kMpo, 6, 2, 2, 92)},
                                      {TrainKind::kMps, real_cores(TrainKind::kMps, 6, 3, 2, 93)}};
  const auto data = make_stack<cdouble>(layers);
  const auto ref = reference<cdouble>(layers);
  for (Method m : {Method::kSdc, Method::kSdcr}) {
    SweepOptions o = options(12, 5, m);
    o.cutoff = 0;
    o.numerical_zeros = false;
    EXPECT_LT(relative_error(dense_vector(sweep(data, o).cores), ref.v), 1e-12) << method_name(m);
  }
  // An MPO result (MPO · MPO) truncated: between the optimum and twice it.
  const std::vector<CLayer> ops(layers.begin(), layers.begin() + 2);
  const auto od = make_stack<cdouble>(ops);
  const auto oref = reference<cdouble>(ops);
  const double err = relative_error(dense_vector(sweep(od, options(3, 0, Method::kSdc)).cores), oref.v);
  EXPECT_GE(err, 0.999 * svd_sweep_error(oref, 3));
  EXPECT_LE(err, 2.0 * svd_sweep_error(oref, 3));
}

TEST(Methods, SdcToleranceModeMeetsTheTolerance) {
  const auto data = make_stack<double>(product());
  const auto ref = reference<double>(product());
  SweepOptions o = options(0, 0, Method::kSdc);
  o.tol = 1e-3;
  const auto r = sweep(data, o);
  // Each cut within ≈ tol of the train the sketch found, so in all within √(n−1)·tol.
  EXPECT_LE(relative_error(dense_vector(r.cores), ref.v), std::sqrt(11.0) * 1.05e-3);
  std::size_t largest = 0;
  for (const auto& c : r.cores) largest = std::max(largest, c.shape[kLegR]);
  EXPECT_LT(largest, 18u);  // it did truncate
}

TEST(Methods, FitSweepsReachTheOptimumFromSrc) {
  const auto data = make_stack<double>(product());
  const auto ref = reference<double>(product());
  const std::size_t chi = 6;
  const double optimal = svd_sweep_error(ref, chi);
  SweepOptions o = options(chi, 4, Method::kSrc);
  const auto start = sweep(data, o);
  const double e0 = relative_error(dense_vector(start.cores), ref.v);
  o.fit_sweeps = 8;
  const auto r = sweep(data, o);
  ASSERT_EQ(r.fit.size(), 8u);
  const double e = relative_error(dense_vector(r.cores), ref.v);
  EXPECT_LE(e, 1.05 * optimal);
  EXPECT_LT(e, e0);
  EXPECT_LT(right_orthonormality_defect(r.cores), 1e-10);
  // Each sweep's estimate is src's less the gains so far: it falls with every sweep, the last
  // is the run's, and they differ exactly as the gains say.
  for (std::size_t k = 0; k < r.fit.size(); ++k) {
    ASSERT_TRUE(std::isfinite(r.fit[k].error_estimate)) << k;
    if (k == 0) continue;
    EXPECT_LE(r.fit[k].error_estimate, r.fit[k - 1].error_estimate * (1 + 1e-12)) << k;
    const double before = r.fit[k - 1].error_estimate * r.fit[k - 1].norm, after = r.fit[k].error_estimate * r.fit[k].norm,
                 gain = r.fit[k].gain * r.fit[k].norm;
    EXPECT_NEAR(before * before - after * after, gain * gain, 1e-9 * before * before) << k;
  }
  EXPECT_EQ(r.error_estimate, r.fit.back().error_estimate);
  // Every result is a projection of the product, so the first sweep's gain is exactly the error
  // it removed: √(e0² − e1²), e relative to ‖Aψ‖ (= ‖φ‖ to within the error's square).
  o.fit_sweeps = 1;
  const double e1 = relative_error(dense_vector(sweep(data, o).cores), ref.v);
  const auto one = sweep(data, o);
  EXPECT_NEAR(one.fit[0].gain, std::sqrt(e0 * e0 - e1 * e1), 1e-3 * e0);
  // --fit-tol stops once a sweep gains less than it.
  o.fit_sweeps = 50;
  o.fit_tol = 1e-2 * optimal;
  const auto stopped = sweep(data, o);
  EXPECT_LT(stopped.fit.size(), 50u);
  EXPECT_LE(stopped.fit.back().gain, o.fit_tol);
  for (std::size_t k = 0; k + 1 < stopped.fit.size(); ++k) EXPECT_GT(stopped.fit[k].gain, o.fit_tol);
}

TEST(Methods, FitAfterSdcKeepsItsBonds) {
  const auto data = make_stack<double>(product());
  const auto ref = reference<double>(product());
  SweepOptions o = options(5, 0, Method::kSdc);
  const auto start = sweep(data, o);
  o.fit_sweeps = 6;
  const auto r = sweep(data, o);
  for (std::size_t j = 0; j < r.cores.size(); ++j) EXPECT_EQ(r.cores[j].shape, start.cores[j].shape) << j;
  EXPECT_LE(relative_error(dense_vector(r.cores), ref.v), 1.05 * svd_sweep_error(ref, 5));
  EXPECT_TRUE(std::isnan(r.error_estimate));
  for (const auto& f : r.fit) EXPECT_TRUE(std::isnan(f.error_estimate));
}

TEST(Methods, OptionsAreChecked) {
  EXPECT_EQ(parse_method("sdcr"), Method::kSdcr);
  EXPECT_THROW(parse_method("zipup"), UsageError);
  SweepOptions o = options(4, 0, Method::kSdcr);
  o.tol = 1e-3;
  EXPECT_THROW(validate(o), UsageError);
  o = options(4, 0, Method::kSrc);
  o.fit_tol = 1.5;
  EXPECT_THROW(validate(o), UsageError);
  EXPECT_EQ(o.fit_sweep_cap(), kDefaultFitSweeps);
}

}  // namespace
}  // namespace srcc::test
