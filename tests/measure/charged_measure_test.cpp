// The measurements of charged trains in their blocks against the dense ones: norms, overlaps and
// distances for every rule, trains of one and of different total charges, trains equal to
// rounding and trains whose norms sit in different sites far beyond a double's range; matrix
// elements and second moments of MPOs, and an operator that changes the charge.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "srcc/measure/charged_compare.hpp"
#include "srcc/measure/charged_sandwich.hpp"
#include "srcc/measure/entanglement.hpp"
#include "srcc/measure/sandwich.hpp"
#include "../symmetric/charged_support.hpp"

namespace srcc {
namespace {

using namespace test::charged;

template <class T> std::vector<BlockTensor<T>> charged(Kernels<T>& K, const std::vector<Tensor<T>>& train, Rule r) {
  return stack_of(K, {train}, {TrainKind::kMps}, r).sites.front();
}

template <class T> class ChargedMeasure : public ::testing::Test {};
using Scalars = ::testing::Types<double, cdouble>;
TYPED_TEST_SUITE(ChargedMeasure, Scalars);

TYPED_TEST(ChargedMeasure, MatchesTheDenseVectorsForEveryRule) {
  using T = TypeParam;
  OneThread<T> cpu;
  Kernels<T>& K = cpu.K();
  const std::size_t n = 9;
  const auto a = random_charged<T>(n, 10, 1, 4), b = random_charged<T>(n, 12, 1, 5);
  const auto va = test::dense_train(a).v, vb = test::dense_train(b).v;
  for (Rule r : {Rule::kU1, Rule::kZ2, Rule::kU1Z2}) {
    const ChargeRule rule = charges(n, TrainKind::kMps, r).rule;
    const ChargedComparison c = charged_comparison(K, charged(K, a, r), charged(K, b, r), rule);
    const test::cd ab = test::inner(va, vb);
    EXPECT_NEAR(std::abs(c.ab.plain() - ab), 0.0, 1e-12 * std::abs(ab)) << static_cast<int>(r);
    EXPECT_NEAR(std::sqrt(c.aa.plain().real()), test::norm(va), 1e-12 * test::norm(va));
    EXPECT_NEAR(std::sqrt(c.bb.plain().real()), test::norm(vb), 1e-12 * test::norm(vb));
    std::vector<test::cd> diff(va.size());
    for (std::size_t i = 0; i < va.size(); ++i) diff[i] = va[i] - vb[i];
    EXPECT_NEAR(std::exp(c.log_distance), test::norm(diff), 1e-12 * test::norm(diff)) << static_cast<int>(r);
    // A train against itself: 0 to rounding relative to its norm (not to its square root).
    const ChargedComparison same = charged_comparison(K, charged(K, a, r), charged(K, a, r), rule);
    EXPECT_LT(std::exp(same.log_distance), 1e-14 * test::norm(va));
  }
}

TYPED_TEST(ChargedMeasure, DifferentTotalChargesAreOrthogonal) {
  using T = TypeParam;
  OneThread<T> cpu;
  Kernels<T>& K = cpu.K();
  const std::size_t n = 8;
  const auto a = random_charged<T>(n, 10, 0, 4), b = random_charged<T>(n, 10, 2, 5);
  const ChargedComparison c =
      charged_comparison(K, charged(K, a, Rule::kU1), charged(K, b, Rule::kU1), charges(n, TrainKind::kMps, Rule::kU1).rule);
  EXPECT_EQ(c.ab.plain(), cdouble(0));
  const double na = test::norm(test::dense_train(a).v), nb = test::norm(test::dense_train(b).v);
  EXPECT_NEAR(std::exp(c.log_distance), std::hypot(na, nb), 1e-12 * std::hypot(na, nb));
}

// a's size in its first site, b's in its last, each 1e±250 from the other sites: every figure
// is right relative to the trains' true norms (which no double holds).
TYPED_TEST(ChargedMeasure, NormsBeyondADoubleMeetAtOneScale) {
  using T = TypeParam;
  OneThread<T> cpu;
  Kernels<T>& K = cpu.K();
  const std::size_t n = 8;
  auto a = random_charged<T>(n, 10, 0, 4);
  auto b = a;
  for (auto& v : a.front().data) v *= T(1e250);
  for (auto& v : a.back().data) v *= T(1e-250);
  for (auto& v : b[3].data) v *= T(1e200);
  for (auto& v : b[5].data) v *= T(1e-200);
  b[4].data[0] += T(1e-3) * b[4].data[0];  // a small difference in one element
  const auto ca = charged(K, a, Rule::kU1), cb = charged(K, b, Rule::kU1);
  const ChargeRule rule = charges(n, TrainKind::kMps, Rule::kU1).rule;
  const ChargedComparison c = charged_comparison(K, ca, cb, rule);
  EXPECT_NEAR(c.aa.log_abs(), c.bb.log_abs(), 1e-2);
  // The reference: the same trains at ordinary scale.
  auto a0 = random_charged<T>(n, 10, 0, 4), b0 = a0;
  b0[4].data[0] += T(1e-3) * b0[4].data[0];
  std::vector<test::cd> diff;
  const auto va = test::dense_train(a0).v, vb = test::dense_train(b0).v;
  for (std::size_t i = 0; i < va.size(); ++i) diff.push_back(va[i] - vb[i]);
  EXPECT_NEAR(c.log_distance - 0.5 * c.bb.log_abs(), std::log(test::norm(diff) / test::norm(vb)), 1e-9);
}

template <class T> std::vector<BlockTensor<T>> charged_mpo(Kernels<T>& K, const std::vector<Tensor<T>>& train, Rule r) {
  return stack_of(K, {train}, {TrainKind::kMpo}, r).sites.front();
}

// S⁺ on site `at`, the identity elsewhere (bond 1): it raises 2S^z by 2.
template <class T> std::vector<Tensor<T>> raising(std::size_t n, std::size_t at) {
  std::vector<Tensor<T>> out;
  for (std::size_t j = 0; j < n; ++j) {
    Tensor<T> w({1, 1, 2, 2}, std::vector<T>(4, T(0)));
    if (j == at) {
      w.data[0 * 2 + 1] = T(1);  // ⟨up| S⁺ |down⟩ (index 0 up, 1 down)
    } else {
      w.data[0] = w.data[3] = T(1);
    }
    out.push_back(std::move(w));
  }
  return out;
}

TYPED_TEST(ChargedMeasure, SandwichesMatchTheDenseOnes) {
  using T = TypeParam;
  OneThread<T> cpu;
  Kernels<T>& K = cpu.K();
  const std::size_t n = 8;
  const auto psi = random_charged<T>(n, 10, 0, 4), phi = random_charged<T>(n, 12, 0, 6);
  const auto h = xxz<T>(n), up = raising<T>(n, 3);
  for (Rule r : {Rule::kU1, Rule::kU1Z2}) {
    const auto cpsi = charged(K, psi, r), cphi = charged(K, phi, r);
    const auto ch = charged_mpo(K, h, r);
    ChargedSandwich<T> c1(K, 1), c2(K, 2), c0(K, 0);
    Sandwich<T> d1(K, 1), d2(K, 2), d0(K, 0);
    for (std::size_t j = 0; j < n; ++j) {
      c1.add(cphi[j], {&ch[j]}, cpsi[j]);
      c2.add(cpsi[j], {&ch[j], &ch[j]}, cpsi[j]);
      c0.add(cphi[j], {}, cpsi[j]);
      d1.add(phi[j], {&h[j]}, psi[j]);
      d2.add(psi[j], {&h[j], &h[j]}, psi[j]);
      d0.add(phi[j], {}, psi[j]);
    }
    for (const auto& [c, d] : {std::pair{c1.value().plain(), d1.value().plain()}, std::pair{c2.value().plain(), d2.value().plain()},
                               std::pair{c0.value().plain(), d0.value().plain()}})
      EXPECT_NEAR(std::abs(c - d), 0.0, 1e-12 * std::abs(d)) << static_cast<int>(r);
  }
  // U(1) only: S⁺ changes 2S^z, so ⟨φ|S⁺|ψ⟩ vanishes between states of one charge, exactly.
  const PhysicalCharges pc = charges(n, TrainKind::kMpo, Rule::kU1);
  const auto cup = charged_layer(K, up, pc, 0, "S+");
  const auto cpsi = charged(K, psi, Rule::kU1), cphi = charged(K, phi, Rule::kU1);
  ChargedSandwich<T> s(K, 1);
  for (std::size_t j = 0; j < n; ++j) s.add(cphi[j], {&cup[j]}, cpsi[j]);
  EXPECT_EQ(s.value().plain(), cdouble(0));
}

// The Schmidt values by sector of a train far from canonical form, merged, are the singular values
// of its dense vector across each cut; the entropies are those of their squares.
TYPED_TEST(ChargedMeasure, SchmidtSpectraAreTheDenseVectorsSingularValues) {
  using T = TypeParam;
  OneThread<T> cpu;
  Kernels<T>& K = cpu.K();
  const std::size_t n = 9;
  const auto psi = random_charged<T>(n, 10, 1, 4);
  const test::DenseTrain dense = test::dense_train(psi);
  for (Rule r : {Rule::kU1, Rule::kZ2, Rule::kU1Z2}) {
    std::vector<BlockTensor<T>> cores;
    for (const auto& site : charged(K, psi, r))
      cores.push_back(relabelled(site, {axis::kCoreL, axis::kCoreR, axis::kCoreU, axis::kCoreD}));
    const auto spectra = schmidt_spectra(K, cores, charges(n, TrainKind::kMps, r).rule);
    ASSERT_EQ(spectra.size(), n - 1);
    const auto bonds = entanglement_of(spectra, 2.0);
    for (std::size_t b = 1; b < n; ++b) {
      std::vector<double> got;
      for (const auto& sector : spectra[b - 1]) got.insert(got.end(), sector.values.begin(), sector.values.end());
      std::sort(got.rbegin(), got.rend());
      const auto ref = test::cut_singular_values(dense, b - 1);
      double s = 0, p2 = 0, total = 0;
      for (double v : ref) total += v * v;
      for (std::size_t i = 0; i < ref.size(); ++i) {
        EXPECT_NEAR(i < got.size() ? got[i] : 0.0, ref[i], 1e-12 * ref.front()) << "bond " << b << ", value " << i;
        const double p = ref[i] * ref[i] / total;
        if (p > 0) s -= p * std::log(p);
        p2 += p * p;
      }
      EXPECT_NEAR(bonds[b - 1].von_neumann, s, 1e-12) << "bond " << b;
      EXPECT_NEAR(*bonds[b - 1].renyi, -std::log(p2), 1e-12) << "bond " << b;
    }
  }
}

}  // namespace
}  // namespace srcc
