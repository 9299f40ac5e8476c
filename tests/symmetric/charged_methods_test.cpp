// The deterministic methods (sdc, sdcr) and the fit sweeps on charged stacks, against dense
// references: exact at full bond for every rule, MPO·MPS, MPO·MPO and sums; truncated products
// beside the optimal truncation and beside the dense sweep's own sdc on the same product.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "srcc/sweep/sweep.hpp"
#include "../support/median.hpp"
#include "../support/stacks.hpp"
#include "charged_support.hpp"

namespace srcc {
namespace {

using namespace test::charged;

SweepOptions method(Method m, std::size_t chi, std::uint64_t seed, double oversample = 0) {
  SweepOptions o = src(chi, seed, oversample);
  o.method = m;
  return o;
}

SweepOptions fit(std::size_t chi, std::uint64_t seed, std::size_t sweeps) {
  SweepOptions o = src(chi, seed);
  o.fit_sweeps = sweeps;
  return o;
}

template <class T> double error_of(const ChargedResult<T>& r, const test::DenseTrain& ref) {
  return test::relative_error(test::dense_train(r.sweep.cores).v, ref.v);
}

template <class T> class ChargedMethods : public ::testing::Test {};
using Scalars = ::testing::Types<double, cdouble>;
TYPED_TEST_SUITE(ChargedMethods, Scalars);

TYPED_TEST(ChargedMethods, EveryMethodIsExactAtFullBondForEveryRule) {
  using T = TypeParam;
  OneThread<T> cpu;
  Kernels<T>& K = cpu.K();
  const std::size_t n = 8;
  const auto h = xxz<T>(n);
  const auto psi = random_charged<T>(n, 12, 0, 5);
  for (Rule r : {Rule::kU1, Rule::kZ2, Rule::kU1Z2})
    for (bool mpo_mpo : {false, true}) {
      std::vector<std::vector<Tensor<T>>> layers{h, mpo_mpo ? xxz<T>(n, 1.3, -0.2) : psi};
      const std::vector<TrainKind> kinds{TrainKind::kMpo, mpo_mpo ? TrainKind::kMpo : TrainKind::kMps};
      const ChargedStack<T> st = stack_of(K, layers, kinds, r);
      const test::DenseTrain ref = dense_reference(layers);
      for (const SweepOptions& o : {method(Method::kSdc, 80, 1), method(Method::kSdcr, 80, 2), fit(80, 3, 2)}) {
        const auto got = symmetric_sweep(st, kinds[1], o, K, cpu.reporter, [] {});
        const std::string what = method_name(o.method) + (o.fit_sweeps ? " + fit" : "") + ", rule " +
                                 std::to_string(static_cast<int>(r)) + (mpo_mpo ? ", MPO·MPO" : ", MPO·MPS");
        EXPECT_LT(error_of(got, ref), 1e-12) << what;
        EXPECT_LT(test::right_orthonormality_defect(got.sweep.cores), 1e-12) << what;
        // No estimate from a deterministic left sweep: NaN, never a 0; after fit sweeps, what the
        // start's estimate less the gains leaves: a difference of squared norms, √ε here.
        if (o.fit_sweeps == 0) {
          EXPECT_TRUE(std::isnan(got.sweep.error_estimate)) << what;
        } else {
          EXPECT_FALSE(got.sweep.error_estimate > 1e-6) << what << ": " << got.sweep.error_estimate;
        }
      }
    }
}

// Sums: the terms share each cut's isometry (sdc: the SVD of their stacked R factors; sdcr: one
// sketch of all), so at full bond the result is the dense sum.
TYPED_TEST(ChargedMethods, SumsAreExactAtFullBond) {
  using T = TypeParam;
  OneThread<T> cpu;
  Kernels<T>& K = cpu.K();
  const ChargedSum<T> sum(K, 8);
  for (const SweepOptions& o : {method(Method::kSdc, 200, 1), method(Method::kSdcr, 200, 2), fit(200, 3, 1)}) {
    const auto got = symmetric_sweep(sum.terms, TrainKind::kMps, o, K, cpu.reporter, [] {});
    EXPECT_LT(test::relative_error(test::dense_train(got.sweep.cores).v, sum.reference), 1e-12) << method_name(o.method);
  }
}

// Truncated: sdc is deterministic and lands where the dense sweep's sdc of the same product lands;
// oversampled sdc and sdcr reach the optimal truncation; sdcr's spread is src's or better.
TYPED_TEST(ChargedMethods, TruncatedDeterministicMethodsMatchTheDenseSweep) {
  using T = TypeParam;
  OneThread<T> cpu;
  Kernels<T>& K = cpu.K();
  const std::size_t n = 10;
  const std::vector<std::vector<Tensor<T>>> layers{xxz<T>(n), random_charged<T>(n, 16, 0, 9)};
  const std::vector<TrainKind> kinds{TrainKind::kMpo, TrainKind::kMps};
  const ChargedStack<T> st = stack_of(K, layers, kinds, Rule::kU1);
  const test::DenseTrain ref = dense_reference(layers);
  std::vector<std::pair<TrainKind, std::vector<Tensor<T>>>> dense_layers{{kinds[0], layers[0]}, {kinds[1], layers[1]}};
  const StackData<T> data = test::make_stack<T>(dense_layers);
  std::size_t identical = 0;
  for (std::size_t chi : {8, 16, 24}) {
    const double optimal = test::svd_sweep_error(ref, chi);
    const auto a = symmetric_sweep(st, TrainKind::kMps, method(Method::kSdc, chi, 1), K, cpu.reporter, [] {});
    const auto b = symmetric_sweep(st, TrainKind::kMps, method(Method::kSdc, chi, 99), K, cpu.reporter, [] {});
    for (std::size_t j = 0; j < n; ++j) EXPECT_EQ(a.sweep.cores[j].data, b.sweep.cores[j].data) << "site " << j;
    const auto dense_result = test::sweep(data, method(Method::kSdc, chi, 1));
    const double dense = test::relative_error(test::dense_vector(dense_result.cores), ref.v);
    // Where every cut keeps as many directions as the dense sweep, the two are one computation;
    // where a sector of a cut's projection Y = C_j·Z has fewer rows than C_j has of its charge, the
    // dense QR of Y fills its bond with directions chosen by rounding (across sectors: they break
    // the charges), which the charged sweep does not keep.
    bool same_bonds = true;
    for (std::size_t j = 1; j < n; ++j) {
      EXPECT_LE(a.sweep.cores[j].shape[kLegL], dense_result.cores[j].shape[kLegL]) << "χ̄ " << chi << ", cut " << j;
      same_bonds = same_bonds && a.sweep.cores[j].shape[kLegL] == dense_result.cores[j].shape[kLegL];
    }
    if (same_bonds) {
      ++identical;
      EXPECT_LT(test::relative_error(test::dense_train(a.sweep.cores).v, test::dense_vector(dense_result.cores)), 1e-10) << "χ̄ " << chi;
    }
    const double sdc = error_of(a, ref);
    std::vector<double> sdcr, plain;
    for (std::uint64_t seed = 0; seed < 5; ++seed) {
      sdcr.push_back(error_of(symmetric_sweep(st, TrainKind::kMps, method(Method::kSdcr, chi, seed), K, cpu.reporter, [] {}), ref));
      plain.push_back(error_of(symmetric_sweep(st, TrainKind::kMps, src(chi, seed), K, cpu.reporter, [] {}), ref));
    }
    const double over_sdc =
        error_of(symmetric_sweep(st, TrainKind::kMps, method(Method::kSdc, chi, 1, 2), K, cpu.reporter, [] {}), ref);
    const double over_sdcr =
        error_of(symmetric_sweep(st, TrainKind::kMps, method(Method::kSdcr, chi, 4, 2), K, cpu.reporter, [] {}), ref);
    std::printf("χ̄ %zu (× optimal): sdc %.3g (dense sdc %.3g), sdcr median %.3g (src %.3g), oversampled sdc %.3g, sdcr %.3g\n",
                chi, sdc / optimal, dense / optimal, test::median(sdcr) / optimal, test::median(plain) / optimal,
                over_sdc / optimal, over_sdcr / optimal);
    EXPECT_LE(sdc, 2.5 * dense) << "χ̄ " << chi;
    EXPECT_LE(sdc, 5 * optimal) << "χ̄ " << chi;
    EXPECT_LE(test::median(sdcr), 4 * optimal) << "χ̄ " << chi;
    EXPECT_LE(over_sdc, 1.1 * optimal) << "χ̄ " << chi;
    EXPECT_LE(over_sdcr, 1.1 * optimal) << "χ̄ " << chi;
    for (const auto& c : a.sweep.cores) EXPECT_LE(c.shape[kLegL], chi);
  }
  if constexpr (!is_complex_v<T>) {
    EXPECT_GE(identical, 1u);  // χ̄ 8: the case above is met
  }
}

// The dense sweep's sdc on a train far from canonical form (a random charged state, whose left
// parts span many orders of magnitude after a few sites): at full bond the exact product, as the
// charged sweep's; the environments' rounding-level columns are not taken for dependent ones.
TEST(ChargedMethodsDense, SdcOfANonCanonicalTrainKeepsTheWholeProduct) {
  const std::size_t n = 12;
  const std::vector<std::vector<Tensor<double>>> layers{xxz<double>(n, 1.0, 0.37), random_charged<double>(n, 16, 0, 3)};
  const std::vector<std::pair<TrainKind, std::vector<Tensor<double>>>> dense_layers{{TrainKind::kMpo, layers[0]},
                                                                                    {TrainKind::kMps, layers[1]}};
  const test::DenseTrain ref = dense_reference(layers);
  const auto r = test::sweep(test::make_stack<double>(dense_layers), method(Method::kSdc, 100, 1));
  EXPECT_LT(test::relative_error(test::dense_vector(r.cores), ref.v), 1e-12);
}

// Fit sweeps: each gains what its projection recovers, the figures are those of the sweeps run,
// and --fit-tol stops them. They are two-site sweeps: a cut shares its bond out among the sectors
// afresh, so that three of them reach the optimal truncation of the product from plain src, whose
// sectors have other dimensions (one-site sweeps, which keep them, stopped at 1.56× the optimum
// for the real state here).
TYPED_TEST(ChargedMethods, FitSweepsReachTheOptimalTruncationFromSrc) {
  using T = TypeParam;
  OneThread<T> cpu;
  Kernels<T>& K = cpu.K();
  const std::size_t n = 10;
  const std::vector<std::vector<Tensor<T>>> layers{xxz<T>(n), random_charged<T>(n, 16, 0, 9)};
  const ChargedStack<T> st = stack_of(K, layers, {TrainKind::kMpo, TrainKind::kMps}, Rule::kU1);
  const test::DenseTrain ref = dense_reference(layers);
  const std::size_t chi = 12;
  std::vector<double> before, after;
  for (std::uint64_t seed = 0; seed < 5; ++seed) {
    before.push_back(error_of(symmetric_sweep(st, TrainKind::kMps, src(chi, seed), K, cpu.reporter, [] {}), ref));
    const auto r = symmetric_sweep(st, TrainKind::kMps, fit(chi, seed, 3), K, cpu.reporter, [] {});
    after.push_back(error_of(r, ref));
    ASSERT_EQ(r.sweep.fit.size(), 3u);
    for (const auto& f : r.sweep.fit) EXPECT_GT(f.gain, 0.0);
    // The norm grows by the gains: ‖φ_k‖² − ‖φ_{k−1}‖² = (gain·‖φ_k‖)².
    EXPECT_NEAR(r.sweep.fit.back().norm, test::norm(test::dense_train(r.sweep.cores).v), 1e-10 * r.sweep.fit.back().norm);
  }
  std::printf("χ̄ %zu: src median %.3g, after 3 fit sweeps %.3g (optimal %.3g)\n", chi, test::median(before),
              test::median(after), test::svd_sweep_error(ref, chi));
  EXPECT_LT(test::median(after), 0.9 * test::median(before));
  EXPECT_LT(test::median(after), 1.02 * test::svd_sweep_error(ref, chi));
  SweepOptions o = fit(chi, 1, 20);
  o.fit_tol = 0.05;
  const auto stopped = symmetric_sweep(st, TrainKind::kMps, o, K, cpu.reporter, [] {});
  ASSERT_FALSE(stopped.sweep.fit.empty());
  EXPECT_LT(stopped.sweep.fit.size(), 20u);
  EXPECT_LE(stopped.sweep.fit.back().gain, 0.05);
}

}  // namespace
}  // namespace srcc
