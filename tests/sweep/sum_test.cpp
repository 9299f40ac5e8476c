// Sums of products in one sweep (run_sweep over SweepTerms) against dense references: the
// weighted sum of the terms' dense products, and the optimal truncation of that sum.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "../support/dense.hpp"
#include "../support/median.hpp"
#include "../support/stacks.hpp"
#include "../support/sums.hpp"
#include "srcc/core/error.hpp"
#include "srcc/train/term_sum.hpp"

namespace srcc::test {
namespace {

// Three products of 10 sites with different depths and bonds: c_1 A ψ_1 + c_2 B A ψ_2 + c_3 ψ_3.
std::vector<TermLayers> three_terms(cdouble c1, cdouble c2, cdouble c3) {
  const std::size_t n = 10;
  const auto a = real_cores(TrainKind::kMpo, n, 3, 2, 11);
  return {{c1, {{TrainKind::kMpo, a}, {TrainKind::kMps, real_cores(TrainKind::kMps, n, 4, 2, 12)}}},
          {c2,
           {{TrainKind::kMpo, real_cores(TrainKind::kMpo, n, 2, 2, 13)},
            {TrainKind::kMpo, a},
            {TrainKind::kMps, real_cores(TrainKind::kMps, n, 3, 2, 14)}}},
          {c3, {{TrainKind::kMps, real_cores(TrainKind::kMps, n, 5, 2, 15)}}}};
}

SweepOptions at(std::size_t chi, std::uint64_t seed) {
  SweepOptions o;
  o.chi = chi;
  o.seed = seed;
  return o;
}

TEST(Sum, ThreeWeightedProductsAtFullRankAreTheDenseSum) {
  // Complex weights in complex arithmetic, real ones in real: the terms' bonds 12 + 18 + 5 = 35
  // bound the sum's, so χ̄ = 35 is exact.
  {
    const auto ts = three_terms({0.5, 0.25}, {-1.5, 0}, {0, 2});
    Sum<cdouble> sum(ts);
    const auto r = sum.run(at(35, 3));
    EXPECT_LT(relative_error(dense_vector(r.cores), dense_sum<cdouble>(ts).v), 1e-12);
    EXPECT_LT(right_orthonormality_defect(r.cores), 1e-12);
  }
  {
    const auto ts = three_terms(0.5, -1.5, 2.0);
    Sum<double> sum(ts);
    const auto r = sum.run(at(35, 3));
    EXPECT_LT(relative_error(dense_vector(r.cores), dense_sum<double>(ts).v), 1e-12);
  }
}

TEST(Sum, CancellingTermsLeaveTheRest) {
  // A ψ_1 − A ψ_1 + 2 ψ_3: the sum is 2 ψ_3 exactly, whose bond is 5.
  auto ts = three_terms(1.0, 0.0, 2.0);
  ts[1] = {-1.0, ts[0].layers};
  Sum<double> sum(ts);
  const auto r = sum.run(at(24, 8));
  EXPECT_LT(relative_error(dense_vector(r.cores), dense_sum<double>(ts).v), 1e-12);
  // Numerically zero directions are dropped: the result has the bonds of ψ_3.
  for (std::size_t j = 0; j + 1 < r.cores.size(); ++j) EXPECT_LE(r.cores[j].shape[kLegR], 5u) << j;
}

TEST(Sum, CompressedSumIsNearTheOptimumOfTheSum) {
  const auto ts = three_terms({0.5, 0.25}, {-1.5, 0}, {0, 2});
  const auto ref = dense_sum<cdouble>(ts);
  Sum<cdouble> sum(ts);
  for (std::size_t chi : {4, 8}) {
    const double optimal = svd_sweep_error(ref, chi);
    std::vector<double> plain;
    for (std::uint64_t seed = 0; seed < 7; ++seed)
      plain.push_back(relative_error(dense_vector(sum.run(at(chi, seed)).cores), ref.v));
    EXPECT_GE(median(plain), 0.999 * optimal) << chi;
    EXPECT_LE(median(plain), 5 * optimal) << chi;
    SweepOptions o = at(chi, 4);
    o.oversample = 2;
    const auto over = sum.run(o);
    const double e = relative_error(dense_vector(over.cores), ref.v);
    EXPECT_LE(e, 1.1 * optimal) << chi;
    // The leave-one-out estimate sees the summed network: with oversampling it is an upper
    // estimate close to the truth, as for one product.
    EXPECT_GE(over.error_estimate, 0.99 * e) << chi;
    EXPECT_LE(over.error_estimate, 1.5 * e) << chi;
    SweepOptions f = at(chi, 4);
    f.fit_sweeps = 4;
    EXPECT_LE(relative_error(dense_vector(sum.run(f).cores), ref.v), 1.05 * optimal) << chi;
  }
}

// The sketch of a sum is the sketch of the summed network: the same seed gives the result that
// SRC gives for one train holding the exact sum (to rounding).
TEST(Sum, IsSketchedAsTheSummedNetwork) {
  const auto ts = three_terms({0.5, 0.25}, {-1.5, 0}, {0, 2});
  Sum<cdouble> sum(ts);
  const auto exact = sum.run(at(35, 1));
  const auto whole = make_stack<cdouble>(std::vector<CLayer>{{TrainKind::kMps, exact.cores}});
  CpuOps<cdouble> ops;
  for (std::uint64_t seed : {2, 3}) {
    const auto a = sum.run(at(6, seed));
    const auto b = sweep(whole, at(6, seed));
    EXPECT_LT(ops.relative_distance(a.cores, b.cores), 1e-9) << seed;
    EXPECT_NEAR(a.error_estimate, b.error_estimate, 1e-6 * b.error_estimate) << seed;
  }
}

TEST(Sum, ToleranceModeMeetsItsBound) {
  const auto ts = three_terms(0.5, -1.5, 2.0);
  const auto ref = dense_sum<double>(ts);
  Sum<double> sum(ts);
  const double n = 10;
  for (double tol : {1e-3, 1e-6}) {
    SweepOptions o;
    o.tol = tol;
    o.seed = 2;
    const auto r = sum.run(o);
    EXPECT_LE(relative_error(dense_vector(r.cores), ref.v), std::sqrt(n - 1) * tol) << tol;
    EXPECT_LT(r.cores[4].shape[kLegR], 35u) << tol;  // it truncates
  }
}

TEST(Sum, OperatorResultsAndTwoSites) {
  // MPO results: A B + 0.5 C (an MPO·MPO product and a single MPO), exact at the full bound.
  const std::size_t n = 6;
  const std::vector<TermLayers> ops = {
      {1.0, {{TrainKind::kMpo, real_cores(TrainKind::kMpo, n, 2, 2, 21)}, {TrainKind::kMpo, real_cores(TrainKind::kMpo, n, 3, 2, 22)}}},
      {0.5, {{TrainKind::kMpo, real_cores(TrainKind::kMpo, n, 4, 2, 23)}}}};
  Sum<double> sum(ops);
  const auto r = sum.run(at(10, 5));
  EXPECT_EQ(r.kind, TrainKind::kMpo);
  EXPECT_LT(relative_error(dense_vector(r.cores), dense_sum<double>(ops).v), 1e-12);
  // Two sites: the exact contraction and one SVD, the terms' Θ added.
  const std::vector<TermLayers> two = {
      {2.0, {{TrainKind::kMpo, real_cores(TrainKind::kMpo, 2, 2, 3, 24)}, {TrainKind::kMps, real_cores(TrainKind::kMps, 2, 2, 3, 25)}}},
      {-1.0, {{TrainKind::kMps, real_cores(TrainKind::kMps, 2, 3, 3, 26)}}}};
  Sum<double> pair(two);
  EXPECT_LT(relative_error(dense_vector(pair.run(at(9, 1)).cores), dense_sum<double>(two).v), 1e-12);
}

TEST(Sum, OneTermOfWeightOneIsTheProductSweepToTheBit) {
  const auto ts = three_terms(1.0, 0.0, 0.0);
  const std::vector<TermLayers> one = {ts[0]};
  Sum<double> sum(one);
  const auto a = sum.run(at(6, 9));
  const auto b = sweep(make_stack<double>(ts[0].layers), at(6, 9));
  ASSERT_EQ(a.cores.size(), b.cores.size());
  for (std::size_t j = 0; j < a.cores.size(); ++j) EXPECT_EQ(a.cores[j].data, b.cores[j].data) << j;
}

TEST(Sum, TermsThatCannotBeAddedAreRefused) {
  auto ts = three_terms(1.0, 1.0, 1.0);
  // A term of other length.
  auto shorter = ts;
  shorter[2] = {1.0, {{TrainKind::kMps, real_cores(TrainKind::kMps, 8, 5, 2, 15)}}};
  Sum<double> bad_length(shorter);
  try {
    bad_length.run(at(4, 1));
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("term 3"), std::string::npos) << e.what();
  }
  // A term whose physical legs differ.
  auto wider = ts;
  wider[2] = {1.0, {{TrainKind::kMps, real_cores(TrainKind::kMps, 10, 5, 3, 15)}}};
  Sum<double> bad_legs(wider);
  EXPECT_THROW(bad_legs.run(at(4, 1)), InputError);
  // An operator added to states.
  auto mixed = ts;
  mixed[2] = {1.0, {{TrainKind::kMpo, real_cores(TrainKind::kMpo, 10, 2, 2, 15)}}};
  Sum<double> bad_kind(mixed);
  EXPECT_THROW(bad_kind.run(at(4, 1)), InputError);
}

// c_1 ψ_1 + c_2 ψ_2 as one MPS: the direct sum, block diagonal in the bonds, the weights in the
// first core: the summed network itself, as one train.
std::vector<Tensor<cdouble>> direct_sum(cdouble c1, const std::vector<Tensor<cdouble>>& a, cdouble c2,
                                        const std::vector<Tensor<cdouble>>& b) {
  std::vector<Tensor<cdouble>> out;
  const std::size_t n = a.size();
  for (std::size_t j = 0; j < n; ++j) {
    const auto &x = a[j], &y = b[j];
    const std::size_t xl = x.shape[kLegL], xr = x.shape[kLegR], yl = y.shape[kLegL], yr = y.shape[kLegR];
    const std::size_t d = x.shape[kLegU];
    const std::size_t l = j == 0 ? 1 : xl + yl, r = j + 1 == n ? 1 : xr + yr;
    Tensor<cdouble> t({l, r, d, 1});
    for (std::size_t i = 0; i < xl; ++i)
      for (std::size_t k = 0; k < xr; ++k)
        for (std::size_t p = 0; p < d; ++p) t.data[(i * r + k) * d + p] = (j == 0 ? c1 : 1.0) * x.data[(i * xr + k) * d + p];
    const std::size_t l0 = j == 0 ? 0 : xl, r0 = j + 1 == n ? 0 : xr;
    for (std::size_t i = 0; i < yl; ++i)
      for (std::size_t k = 0; k < yr; ++k)
        for (std::size_t p = 0; p < d; ++p)
          t.data[((l0 + i) * r + r0 + k) * d + p] = (j == 0 ? c2 : 1.0) * y.data[(i * yr + k) * d + p];
    out.push_back(std::move(t));
  }
  return out;
}

// Every method on a sum is the method on the summed network: the same seed gives, to rounding,
// the result it gives for the direct sum held as one train — sdc and sdcr reduce the terms' left
// steps together, weighted as the summed network's.
TEST(Sum, EveryMethodTreatsTheSumAsTheSummedNetwork) {
  const auto a = real_cores(TrainKind::kMps, 10, 5, 2, 31), b = real_cores(TrainKind::kMps, 10, 6, 2, 32);
  const cdouble c1(0.5, 0.5), c2(-1.3, 0);
  const std::vector<TermLayers> ts = {{c1, {{TrainKind::kMps, a}}}, {c2, {{TrainKind::kMps, b}}}};
  Sum<cdouble> sum(ts);
  const auto whole = make_stack<cdouble>(std::vector<CLayer>{{TrainKind::kMps, direct_sum(c1, a, c2, b)}});
  const auto ref = dense_sum<cdouble>(ts);
  CpuOps<cdouble> ops;
  for (Method m : {Method::kSrc, Method::kSdc, Method::kSdcr}) {
    for (bool over : {false, true}) {
      SweepOptions o = at(4, 7);
      o.method = m;
      o.oversample = over ? 2 : 0;
      const auto x = sum.run(o), y = sweep(whole, o);
      EXPECT_LT(ops.relative_distance(x.cores, y.cores), 1e-9) << method_name(m) << over;
      const double e = relative_error(dense_vector(x.cores), ref.v), optimal = svd_sweep_error(ref, 4);
      EXPECT_LE(e, (m == Method::kSrc && !over ? 5 : over ? 1.1 : 2) * optimal) << method_name(m) << over;
    }
  }
  // sdc with --tol: the same bonds.
  SweepOptions o;
  o.tol = 1e-4;
  o.method = Method::kSdc;
  const auto x = sum.run(o), y = sweep(whole, o);
  for (std::size_t j = 0; j < x.cores.size(); ++j) EXPECT_EQ(x.cores[j].shape, y.cores[j].shape) << j;
  EXPECT_LT(ops.relative_distance(x.cores, y.cores), 1e-9);
}

TEST(Sum, SdcAndSdcrOfThreeProductsAtFullRankAreTheDenseSum) {
  const auto ts = three_terms({0.5, 0.25}, {-1.5, 0}, {0, 2});
  Sum<cdouble> sum(ts);
  for (Method m : {Method::kSdc, Method::kSdcr}) {
    SweepOptions o = at(35, 3);
    o.method = m;
    EXPECT_LT(relative_error(dense_vector(sum.run(o).cores), dense_sum<cdouble>(ts).v), 1e-12) << method_name(m);
  }
}

}  // namespace
}  // namespace srcc::test
