// The symmetric sweep against dense references: exact products at full bond for U(1), Z2 and
// U(1)×Z2 charges, MPO·MPS and MPO·MPO; truncated products near the optimal truncation; the
// result's charges exact; an input that breaks its charges refused.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "srcc/core/error.hpp"
#include "../support/fake_device.hpp"
#include "charged_support.hpp"

namespace srcc {
namespace {

using namespace test::charged;
using test::DenseTrain;

template <class T> class SymmetricSweep : public ::testing::Test {};
using Scalars = ::testing::Types<double, cdouble>;
TYPED_TEST_SUITE(SymmetricSweep, Scalars);

// One MPO, or a stack of three or four (the environments' middle layers taken in place of their
// runs, left and right), above a state or an MPO: at full bond the dense product, for every rule.
TYPED_TEST(SymmetricSweep, FullBondProductsAreExactForEveryRuleAndDepth) {
  using T = TypeParam;
  OneThread<T> cpu;
  Kernels<T>& K = cpu.K();
  SilentReporter& reporter = cpu.reporter;
  for (std::size_t depth : {2, 4, 5}) {
    const std::size_t n = depth == 2 ? 8 : 6;
    const auto psi = random_charged<T>(n, depth == 2 ? 12 : 8, 0, 5);
    for (Rule r : {Rule::kU1, Rule::kZ2, Rule::kU1Z2}) {
      for (bool mpo_bottom : {false, true}) {
        std::vector<std::vector<Tensor<T>>> layers{xxz<T>(n)};
        for (std::size_t i = 1; i + 1 < depth; ++i) layers.push_back(xxz<T>(n, 1.0 + 0.3 * double(i), 0.2 * double(i) - 0.3));
        layers.push_back(mpo_bottom ? xxz<T>(n, 1.3, -0.2) : psi);
        std::vector<TrainKind> kinds(depth, TrainKind::kMpo);
        if (!mpo_bottom) kinds.back() = TrainKind::kMps;
        const ChargedStack<T> st = stack_of(K, layers, kinds, r);
        const auto got = symmetric_sweep(st, kinds.back(), src(80, 11), K, reporter, [] {});
        const double err = test::relative_error(test::dense_train(got.sweep.cores).v, dense_reference(layers).v);
        const std::string what = "rule " + std::to_string(static_cast<int>(r)) + ", " + std::to_string(depth) + " layers" +
                                 (mpo_bottom ? ", an MPO at the bottom" : "");
        EXPECT_LT(err, 1e-12) << what;
        EXPECT_LT(test::right_orthonormality_defect(got.sweep.cores), 1e-12) << what;
        EXPECT_LT(got.sweep.error_estimate, 1e-12) << what;
      }
    }
  }
}

TYPED_TEST(SymmetricSweep, ResultKeepsTheStatesTotalChargeExactly) {
  using T = TypeParam;
  OneThread<T> cpu;
  Kernels<T>& K = cpu.K();
  SilentReporter& reporter = cpu.reporter;
  const std::size_t n = 10;
  const std::vector<std::vector<Tensor<T>>> layers{xxz<T>(n), random_charged<T>(n, 16, 2, 7)};
  const ChargedStack<T> st = stack_of(K, layers, {TrainKind::kMpo, TrainKind::kMps}, Rule::kU1);
  const auto got = symmetric_sweep(st, TrainKind::kMps, src(6, 3), K, reporter, [] {});
  const auto v = test::dense_train(got.sweep.cores).v;
  // Index (s_0, 0, s_1, 0, …): the amplitude of every configuration with 2S^z ≠ 2 is exactly zero.
  double outside = 0, inside = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    long long sz = 0;
    for (std::size_t j = 0; j < n; ++j) sz += ((i >> (n - 1 - j)) & 1) ? -1 : 1;
    (sz == 2 ? inside : outside) += std::norm(v[i]);
  }
  EXPECT_EQ(outside, 0.0);
  EXPECT_GT(inside, 0.0);
}

TYPED_TEST(SymmetricSweep, TruncatedProductIsNearTheOptimalTruncation) {
  XxzProduct<TypeParam> p(10, 16, 9);
  for (std::size_t chi : {8, 16, 24}) {
    const double optimal = test::svd_sweep_error(p.ref, chi);
    const auto plain = p.sweep(src(chi, 21));
    const auto over = p.sweep(src(chi, 21, 2));
    const double e_plain = p.error(plain), e_over = p.error(over);
    std::printf("χ̄ %zu: plain %.3g× optimal, oversampled %.3g×\n", chi, e_plain / optimal, e_over / optimal);
    EXPECT_LE(e_plain, 3 * optimal) << "χ̄ " << chi << ": plain " << e_plain << ", SVD sweep " << optimal;
    EXPECT_LE(e_over, 1.05 * optimal) << "χ̄ " << chi << ": oversampled " << e_over << ", SVD sweep " << optimal;
    for (const auto& c : plain.sweep.cores) EXPECT_LE(c.shape[kLegL], chi);
    // The estimate sees what the sketch saw: within a factor of the true error.
    EXPECT_GT(plain.sweep.error_estimate, 0.3 * e_plain);
    EXPECT_LT(plain.sweep.error_estimate, 3 * e_plain);
  }
}

// --tol: each cut's sketch grows by blocks of columns until its held-out estimate is within the
// tolerance; the blocks drawn at a cut serve every cut to its left, so the sketch is narrow where
// the product's bond is small and no wider anywhere than the cut that needs most; the truncation
// then meets the tolerance.
TYPED_TEST(SymmetricSweep, ToleranceModeGrowsEachCutsSketchAndMeetsTheTolerance) {
  const std::size_t n = 12;
  XxzProduct<TypeParam> p(n, 24, 13);
  for (double tol : {1e-2, 1e-5}) {
    SweepOptions o = src(0, 17);
    o.tol = tol;
    o.block_start = 8;
    o.block_step = 8;
    const auto got = p.sweep(o);
    const double err = p.error(got);
    EXPECT_LT(err, std::sqrt(n - 1.0) * tol) << "tol " << tol;
    EXPECT_GT(err, 0.01 * tol) << "tol " << tol << ": the tolerance, not an exact product, decided the bonds";
    EXPECT_NEAR(got.sweep.error_estimate, err, 0.3 * err) << "tol " << tol;
    std::size_t widest = 0;
    for (std::size_t j = n - 1; j >= 1; --j) {
      const auto cols = static_cast<std::size_t>(got.sweep.sites[j].sketch_columns);
      EXPECT_GE(cols, widest) << "tol " << tol << ", cut " << j << ": a block once drawn serves every cut to its left";
      widest = std::max(widest, cols);
    }
    EXPECT_EQ(got.sweep.sites[n - 1].sketch_columns, 8) << "tol " << tol << ": the last cut's bond is 2";
    EXPECT_GT(widest, 16u) << "tol " << tol << ": the middle cuts grew";
  }
}

// (1 − iτH)ψ + c·H²ψ as one sweep over terms of depths 1, 2 and 3: at full bond the dense sum.
TYPED_TEST(SymmetricSweep, SumsOfTermsOfEveryDepthAreExactAtFullBond) {
  using T = TypeParam;
  OneThread<T> cpu;
  Kernels<T>& K = cpu.K();
  SilentReporter& reporter = cpu.reporter;
  const std::size_t n = 8;
  const ChargedSum<T> sum(K, n);
  const auto got = symmetric_sweep(sum.terms, TrainKind::kMps, src(200, 5), K, reporter, [] {});
  EXPECT_LT(test::relative_error(test::dense_train(got.sweep.cores).v, sum.reference), 1e-12);
  // Terms of different total charge have no charge-conserving sum.
  const auto other = random_charged<T>(n, 10, 2, 4);
  const ChargedStack<T> shifted = stack_of(K, {other}, {TrainKind::kMps}, Rule::kU1);
  const std::vector<ChargedTerm<T>> mixed{{&sum.stacks[0], T(1)}, {&shifted, T(1)}};
  EXPECT_THROW(symmetric_sweep(mixed, TrainKind::kMps, src(20, 5), K, reporter, [] {}), InputError);
}

// Threads share a cut's sector factorisations and a contraction's blocks: 1 and 3 threads give
// the same result for the same seed, to rounding, for every method and the write-back's form.
TEST(SymmetricSweepThreads, OneAndThreeThreadsGiveTheSameResult) {
  auto one = make_cpu_backend(1), three = make_cpu_backend(3);
  SilentReporter reporter;
  const std::size_t n = 10;
  const std::vector<std::vector<Tensor<cdouble>>> layers{xxz<cdouble>(n), random_charged<cdouble>(n, 24, 0, 5)};
  const std::vector<TrainKind> kinds{TrainKind::kMpo, TrainKind::kMps};
  for (Method m : {Method::kSrc, Method::kSdc, Method::kSdcr}) {
    SweepOptions o = src(16, 4, m == Method::kSrc ? 1.5 : 0);
    o.method = m;
    const auto a = symmetric_sweep(stack_of(one->kernels<cdouble>(), layers, kinds, Rule::kU1), TrainKind::kMps, o,
                                   one->kernels<cdouble>(), reporter, [] {});
    const auto b = symmetric_sweep(stack_of(three->kernels<cdouble>(), layers, kinds, Rule::kU1), TrainKind::kMps, o,
                                   three->kernels<cdouble>(), reporter, [] {});
    ASSERT_GT(a.cores[n / 2].legs[0].sectors(), 3u) << "several sectors per cut, so that tasks share them";
    EXPECT_LT(test::relative_error(test::dense_train(b.sweep.cores).v, test::dense_train(a.sweep.cores).v), 1e-12)
        << method_name(m);
  }
}

// The symmetric sweep works only through the kernels: on the stand-in device (adopt and
// download copy, as a GPU's do) it gives the CPU's result for the same seed, to rounding.
TEST(SymmetricSweepDevice, StandInDeviceGivesTheCpuResult) {
  auto cpu = make_cpu_backend(1);
  test::FakeDevice device(std::size_t{1} << 30);
  SilentReporter reporter;
  const std::size_t n = 8;
  const std::vector<std::vector<Tensor<cdouble>>> layers{xxz<cdouble>(n), random_charged<cdouble>(n, 12, 0, 5)};
  const std::vector<TrainKind> kinds{TrainKind::kMpo, TrainKind::kMps};
  SweepOptions o = src(10, 4, 1.5);
  const auto a = symmetric_sweep(stack_of(cpu->kernels<cdouble>(), layers, kinds, Rule::kU1Z2), TrainKind::kMps, o,
                                 cpu->kernels<cdouble>(), reporter, [] {});
  const auto b = symmetric_sweep(stack_of(device.kernels<cdouble>(), layers, kinds, Rule::kU1Z2), TrainKind::kMps, o,
                                 device.kernels<cdouble>(), reporter, [] {});
  EXPECT_LT(test::relative_error(test::dense_train(b.sweep.cores).v, test::dense_train(a.sweep.cores).v), 1e-12);
  EXPECT_NEAR(b.sweep.error_estimate, a.sweep.error_estimate, 1e-12);
}

TEST(ChargedLayer, AnElementOutsideTheChargeBlocksIsRefusedNamingSiteAndElement) {
  auto backend = make_cpu_backend(1);
  Kernels<double>& K = backend->kernels<double>();
  const std::size_t n = 6;
  auto psi = random_charged<double>(n, 8, 0, 1);
  // Site 3: an element that would send spin up into the bond sector of spin down.
  Tensor<double>& w = psi[3];
  const std::size_t dr = w.shape[kLegR];
  std::size_t placed = 0;
  for (std::size_t a = 0; a < w.shape[kLegL] && !placed; ++a)
    for (std::size_t b = 0; b < dr && !placed; ++b)
      if (w.data[(a * dr + b) * 2] == 0 && w.data[(a * dr + b) * 2 + 1] == 0) {
        w.data[(a * dr + b) * 2] = 0.5;
        placed = 1;
      }
  ASSERT_TRUE(placed);
  try {
    charged_layer(K, psi, spin_half_charges(n, TrainKind::kMps), 0, "psi.h5:/psi");
    FAIL() << "accepted a charge-breaking element";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("psi.h5:/psi, site 3"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("breaks the charges"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace srcc
