// Local observables of charged states in their blocks against the state's dense vector: ⟨O_i⟩
// and ⟨A_i B_j⟩ for operators that keep the charge (Sz), move it (S+, S−) and have none (Sx, a
// random matrix), under U(1), Z2 and U(1)×Z2, with the state's size spread far beyond a double's
// range over its sites.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "srcc/core/error.hpp"
#include "srcc/core/rng.hpp"
#include "srcc/sweep/sketch.hpp"
#include "srcc/symmetric/block_ops.hpp"
#include "srcc/measure/local_observables.hpp"
#include "../symmetric/charged_support.hpp"

namespace srcc {
namespace {

using namespace test::charged;
using cd = std::complex<double>;

// O acting on site `site` of a state vector over n sites of dimension 2 (site 0 the most significant).
std::vector<cd> applied(const SiteOperator& o, std::size_t site, std::size_t n, const std::vector<cd>& v) {
  const std::size_t stride = std::size_t{1} << (n - 1 - site);
  std::vector<cd> out(v.size());
  for (std::size_t idx = 0; idx < v.size(); ++idx) {
    const std::size_t in = (idx / stride) % 2, base = idx - in * stride;
    for (std::size_t u = 0; u < 2; ++u) out[base + u * stride] += o.at(u, in) * v[idx];
  }
  return out;
}

// The train's cores in their blocks under `rule`, labelled as expect labels them, right-canonical.
template <class T>
std::vector<BlockTensor<T>> canonical_blocks(Kernels<T>& K, const std::vector<Tensor<T>>& train, Rule rule, int zero_site = -1) {
  const ChargedStack<T> st = stack_of(K, {train}, {TrainKind::kMps}, rule);
  std::vector<BlockTensor<T>> blocks;
  for (const auto& site : st.sites.front())
    blocks.push_back(relabelled(site, {axis::kCoreL, axis::kCoreR, axis::kCoreU, axis::kCoreD}));
  if (zero_site >= 0) scale_by(K, blocks[static_cast<std::size_t>(zero_site)], 0.0);
  return right_canonical_blocks(K, blocks, charges(train.size(), TrainKind::kMps, rule).rule);
}

template <class T> class ChargedLocalObservables : public ::testing::Test {};
using Scalars = ::testing::Types<double, cdouble>;
TYPED_TEST_SUITE(ChargedLocalObservables, Scalars);

TYPED_TEST(ChargedLocalObservables, AreTheDenseVectorsForEveryRuleAndOperator) {
  using T = TypeParam;
  OneThread<T> cpu;
  Kernels<T>& K = cpu.K();
  const std::size_t n = 9, first = 2, last = 8;
  auto train = random_charged<T>(n, 10, 1, 7);
  const std::vector<cd> v = test::dense_train(train).v;
  for (auto& x : train[1].data) x *= T(1e200);  // the values are ratios: the size is not theirs
  for (auto& x : train[6].data) x *= T(1e-170);
  const double vv = test::inner(v, v).real();

  const SiteType spin = site_type_for("", 2, "test");
  std::vector<SiteOperator> ops = {spin.op("Sz"), spin.op("Sp"), spin.op("Sm"), spin.op("Sx")};
  if constexpr (is_complex_v<T>) {
    Rng rng(11);
    SiteOperator r{"R", 2, {}, false};
    const auto g = draw_gaussian<double>(rng, 8);
    for (int k = 0; k < 4; ++k) r.m.emplace_back(g[2 * k], g[2 * k + 1]);
    ops.push_back(r);
  }
  const SiteOperator& id = spin.parity();

  for (Rule rule : {Rule::kU1, Rule::kZ2, Rule::kU1Z2}) {
    const auto cores = canonical_blocks(K, train, rule);
    for (const auto& o : ops) {
      const auto got = site_expectations(K, cores, o);
      ASSERT_EQ(got.size(), n);
      for (std::size_t i = 0; i < n; ++i)
        EXPECT_NEAR(std::abs(got[i] - test::inner(v, applied(o, i, n, v)) / vv), 0.0, 1e-12)
            << o.name << " at " << i << ", rule " << static_cast<int>(rule);
    }
    for (const auto& [a, b] : std::vector<std::pair<SiteOperator, SiteOperator>>{
             {ops[1], ops[2]}, {ops[0], ops[3]}, {ops[3], ops[3]}, {ops.back(), ops[1]}}) {
      const auto got = correlation_matrix(K, cores, a, b, id, first, last);
      const std::size_t m = last - first;
      ASSERT_EQ(got.size(), m * m);
      double most = 0;
      for (std::size_t i = first; i < last; ++i)
        for (std::size_t j = first; j < last; ++j) {
          const cd want = test::inner(v, applied(a, i, n, applied(b, j, n, v))) / vv;
          most = std::max(most, std::abs(got[(i - first) * m + (j - first)] - want));
        }
      EXPECT_LT(most, 1e-12) << a.name << "," << b.name << ", rule " << static_cast<int>(rule);
    }
  }
}

// A state of norm 0 has no local values: the blocks say so as the dense path does.
TYPED_TEST(ChargedLocalObservables, AZeroStateIsRefused) {
  using T = TypeParam;
  OneThread<T> cpu;
  Kernels<T>& K = cpu.K();
  const std::size_t n = 5;
  const auto train = random_charged<T>(n, 6, 1, 3);
  const auto cores = canonical_blocks(K, train, Rule::kU1, 2);
  const SiteType spin = site_type_for("", 2, "test");
  EXPECT_THROW(site_expectations(K, cores, spin.op("Sz")), NumericalError);
}

}  // namespace
}  // namespace srcc
