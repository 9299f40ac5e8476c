// A result computed on charges written in its library's block structure from its own blocks
// (lib/srcc/symmetric/charged_sector_form.cpp), against the dense sector form of the same train
// (sweep/sector_form.cpp: the dense cores split by charge): the same bonds, charges and Schmidt
// values, the same state, B form — for U(1), Z2 and U(1)×Z2, in the template's own gauge.
#include <gtest/gtest.h>

#include "srcc/sweep/sector_form.hpp"
#include "srcc/symmetric/charged_sector_form.hpp"
#include "srcc/symmetric/charged_truncation.hpp"
#include "srcc/train/layout.hpp"
#include "charged_support.hpp"

namespace srcc {
namespace {

using namespace test::charged;

// The template of a train of these charges: its boundaries' and tensors' own charges as given.
SectorTemplate template_of(const PhysicalCharges& pc, Charge left, Charge right, std::vector<Charge> site_total) {
  SectorTemplate t;
  t.rule = pc.rule;
  t.up = pc.up;
  t.down = pc.down;
  t.left = std::move(left);
  t.right = std::move(right);
  t.site_total = std::move(site_total);
  return t;
}

// max_j ‖Σ_{r,u,d} B[l, r, u, d]·conj(B[l', r, u, d]) − δ_{ll'}‖ over cores 1 … n−1.
template <class T> double worst_right_orthonormality(const std::vector<Tensor<T>>& cores) {
  double worst = 0;
  for (std::size_t j = 1; j < cores.size(); ++j) {
    const auto& c = cores[j];
    const std::size_t l = c.shape[kLegL], rest = c.data.size() / l;
    for (std::size_t a = 0; a < l; ++a)
      for (std::size_t b = 0; b < l; ++b) {
        test::cd s = 0;
        for (std::size_t i = 0; i < rest; ++i) s += test::cd(c.data[a * rest + i]) * std::conj(test::cd(c.data[b * rest + i]));
        worst = std::max(worst, std::abs(s - (a == b ? 1.0 : 0.0)));
      }
  }
  return worst;
}

// max_j of ‖Lᴴ L − diag(s_j²)‖ with L the cores 0 … j−1 contracted (configurations × bond j) and
// s_j the written values: each bond is a Schmidt basis with those values (unit norm).
template <class T> double worst_schmidt_gauge(const std::vector<Tensor<T>>& cores, const std::vector<std::vector<double>>& schmidt) {
  double worst = 0;
  std::vector<test::cd> left{1.0};  // (configurations × bond), row-major
  std::size_t bond = 1;
  for (std::size_t j = 0; j + 1 < cores.size(); ++j) {
    const auto& c = cores[j];
    const std::size_t l = c.shape[kLegL], r = c.shape[kLegR], u = c.shape[kLegU], d = c.shape[kLegD];
    const std::size_t configs = left.size() / bond;
    std::vector<test::cd> next(configs * u * r, 0.0);
    for (std::size_t x = 0; x < configs; ++x)
      for (std::size_t a = 0; a < l; ++a)
        for (std::size_t b = 0; b < r; ++b)
          for (std::size_t p = 0; p < u; ++p)
            next[(x * u + p) * r + b] += left[x * bond + a] * test::cd(c.data[((a * r + b) * u + p) * d]);
    left = std::move(next);
    bond = r;
    const std::size_t rows = left.size() / bond;
    for (std::size_t a = 0; a < bond; ++a)
      for (std::size_t b = 0; b < bond; ++b) {
        test::cd g = 0;
        for (std::size_t x = 0; x < rows; ++x) g += std::conj(left[x * bond + a]) * left[x * bond + b];
        const double want = a == b ? schmidt[j + 1][a] * schmidt[j + 1][a] : 0.0;
        worst = std::max(worst, std::abs(g - want));
      }
  }
  return worst;
}

template <class T> class ChargedSectorForm : public ::testing::Test {};
using Scalars = ::testing::Types<double, cdouble>;
TYPED_TEST_SUITE(ChargedSectorForm, Scalars);

TYPED_TEST(ChargedSectorForm, EqualsTheDenseSplitByCharge) {
  using T = TypeParam;
  OneThread<T> ctx;
  auto& K = ctx.K();
  const std::size_t n = 8;
  const auto psi = random_charged<T>(n, 12, 2, 5);  // total 2S^z = 2
  const std::vector<Tensor<T>> original = psi;
  const auto reference = test::dense_train(original).v;
  for (Rule r : {Rule::kU1, Rule::kZ2, Rule::kU1Z2}) {
    const PhysicalCharges pc = charges(n, TrainKind::kMps, r);
    std::vector<BlockTensor<T>> blocks = charged_layer(K, psi, pc, 0, "psi");
    for (auto& b : blocks) b.labels = {axis::kCoreL, axis::kCoreR, axis::kCoreU, axis::kCoreD};
    const std::size_t nq = pc.rule.count();
    const Charge total = blocks.back().legs[1].charges.front();
    // Two gauges: ours (left boundary 0, no totals), and one whose left boundary and tensors
    // carry charges of their own, so that every bond's charges move.
    std::vector<SectorTemplate> templates{template_of(pc, Charge(nq, 0), total, std::vector<Charge>(n, Charge(nq, 0)))};
    {
      std::vector<Charge> site_total(n, Charge(nq, 0));
      site_total[2] = pc.rule.reduce(Charge(nq, 1));
      site_total[5] = pc.rule.reduce(Charge(nq, -3));
      const Charge left = pc.rule.reduce(Charge(nq, 3));
      Charge right = add_charge(pc.rule, add_charge(pc.rule, total, left), site_total[2], -1);
      right = add_charge(pc.rule, right, site_total[5], -1);
      templates.push_back(template_of(pc, left, right, site_total));
    }
    for (const auto& tpl : templates) {
      SCOPED_TRACE(testing::Message() << "rule " << static_cast<int>(r) << ", left " << tpl.left[0]);
      const ChargedCores<T> result{blocks, pc};
      ASSERT_TRUE(fits_template(result, tpl));
      SectorForm<T> ours = charged_sector_form(K, result, tpl);
      // Its cores are made one at a time as a writer takes them.
      ASSERT_TRUE(ours.make);
      ASSERT_EQ(ours.sites(), n);
      for (std::size_t j = 0; j < n; ++j) {
        Tensor<T> made;
        ours.cores.push_back(ours.core(j, made));
        EXPECT_EQ(ours.core_bytes(j), ours.cores.back().bytes()) << j;
      }
      // A writer that reads the blocks where they lie finds the made cores' elements, each run
      // along the right bond one stride apart.
      ASSERT_TRUE(ours.element);
      std::size_t runs = 0;  // of more than one element
      for (std::size_t j = 0; j < n; ++j) {
        const Tensor<T>& c = ours.cores[j];
        const auto scale = static_cast<real_t<T>>(j == 0 ? ours.first_scale : 1.0);
        for (std::size_t l = 0; l < c.shape[kLegL]; ++l)
          for (std::size_t r = 0; r < c.shape[kLegR]; ++r)
            for (std::size_t u = 0; u < c.shape[kLegU]; ++u) {
              const std::size_t idx[4] = {l, r, u, 0};
              std::size_t stride = 0, run = 0;
              const T* p = ours.element(j, idx, stride, run);
              ASSERT_GE(run, 1u);
              ASSERT_LE(r + run, c.shape[kLegR]);
              for (std::size_t q = 0; q < run; ++q) {
                const T want = c.data[(l * c.shape[kLegR] + r + q) * c.shape[kLegU] + u];
                if (p) EXPECT_EQ(scale * p[q * stride], want) << "site " << j;
                else EXPECT_EQ(want, T(0)) << "site " << j;
              }
              runs += run > 1;
            }
      }
      EXPECT_GT(runs, 0u) << "no sector of more than one index: the runs were not tried";
      std::vector<Tensor<T>> dense;
      std::vector<std::size_t> bonds(n, 1);
      for (const auto& b : blocks) dense.push_back(dense_of_blocks(K, b));
      for (std::size_t j = 1; j < n; ++j) bonds[j] = dense[j].shape[kLegL];
      const SectorForm<T> split = sector_form(dense, tpl, bonds, K);

      EXPECT_EQ(ours.bonds, split.bonds);
      ASSERT_EQ(ours.schmidt.size(), split.schmidt.size());
      for (std::size_t j = 0; j < ours.schmidt.size(); ++j) {
        ASSERT_EQ(ours.schmidt[j].size(), split.schmidt[j].size()) << "cut " << j;
        for (std::size_t i = 0; i < ours.schmidt[j].size(); ++i)
          EXPECT_NEAR(ours.schmidt[j][i], split.schmidt[j][i], 1e-12 * std::max(1.0, split.schmidt[j][0])) << "cut " << j;
      }
      EXPECT_NEAR(ours.norm, split.norm, 1e-12 * split.norm);
      EXPECT_EQ(ours.dropped_weight, 0.0);
      EXPECT_LT(ours.truncated_weight, 1e-26);
      EXPECT_LT(worst_right_orthonormality(ours.cores), 1e-12);
      EXPECT_LT(worst_schmidt_gauge(ours.cores, ours.schmidt), 1e-12);
      std::vector<Tensor<T>> back = ours.cores;
      for (auto& v : back.front().data) v *= static_cast<real_t<T>>(ours.norm);
      EXPECT_LT(test::relative_error(test::dense_train(back).v, reference), 1e-12);
      // Every element outside the charge rule is zero in the template's gauge.
      for (std::size_t j = 0; j < n; ++j) {
        const auto& c = ours.cores[j];
        for (std::size_t a = 0; a < c.shape[kLegL]; ++a)
          for (std::size_t b = 0; b < c.shape[kLegR]; ++b)
            for (std::size_t x = 0; x < c.shape[kLegU]; ++x) {
              Charge q = add_charge(pc.rule, ours.bonds[j][a], tpl.up[j][x]);
              q = add_charge(pc.rule, q, tpl.site_total[j], -1);
              if (q != ours.bonds[j + 1][b]) {
                EXPECT_EQ(c.data[(a * c.shape[kLegR] + b) * c.shape[kLegU] + x], T(0));
              }
            }
      }
    }
  }
}

TYPED_TEST(ChargedSectorForm, ATemplateOfOtherChargesIsLeftToTheDenseForm) {
  using T = TypeParam;
  OneThread<T> ctx;
  auto& K = ctx.K();
  const std::size_t n = 6;
  const PhysicalCharges pc = charges(n, TrainKind::kMps, Rule::kU1);
  std::vector<BlockTensor<T>> blocks = charged_layer(K, random_charged<T>(n, 8, 0, 9), pc, 0, "psi");
  for (auto& b : blocks) b.labels = {axis::kCoreL, axis::kCoreR, axis::kCoreU, axis::kCoreD};
  const ChargedCores<T> result{blocks, pc};
  EXPECT_TRUE(fits_template(result, template_of(pc, {0}, {0}, std::vector<Charge>(n, {0}))));
  EXPECT_FALSE(fits_template(result, template_of(pc, {0}, {2}, std::vector<Charge>(n, {0}))))  // another total
      << "the dense form says why";
  PhysicalCharges flipped = pc;
  std::swap(flipped.up[3][0], flipped.up[3][1]);
  EXPECT_FALSE(fits_template(result, template_of(flipped, {0}, {0}, std::vector<Charge>(n, {0}))));
  const PhysicalCharges z2 = charges(n, TrainKind::kMps, Rule::kZ2);
  EXPECT_FALSE(fits_template(result, template_of(z2, {0}, {0}, std::vector<Charge>(n, {0}))));
}

// A run that ends in a truncation sweep asks it for the Schmidt form (ResultNeeds::schmidt): the
// sweep's way back to B form by SVDs leaves the cores as the writer would make them, and the
// writer takes them as they are. The same bonds, Schmidt values, norm and state as the form made
// from the same truncated train the usual way (a QR sweep and an SVD sweep), and B form.
TYPED_TEST(ChargedSectorForm, ATruncationSweepLeavesTheFormItWrites) {
  using T = TypeParam;
  OneThread<T> ctx;
  auto& K = ctx.K();
  const std::size_t n = 8;
  for (Rule r : {Rule::kU1, Rule::kU1Z2}) {
    SCOPED_TRACE(testing::Message() << "rule " << static_cast<int>(r));
    const PhysicalCharges pc = charges(n, TrainKind::kMps, r);
    std::vector<BlockTensor<T>> blocks = charged_layer(K, random_charged<T>(n, 12, 2, 17), pc, 0, "psi");
    for (auto& b : blocks) b.labels = {axis::kCoreL, axis::kCoreR, axis::kCoreU, axis::kCoreD};
    const std::size_t nq = pc.rule.count();
    const SectorTemplate tpl = template_of(pc, Charge(nq, 0), blocks.back().legs[1].charges.front(), std::vector<Charge>(n, Charge(nq, 0)));
    std::vector<double> truncated;
    SchmidtForm carried;
    const auto kept = symmetric_truncate(K, blocks, 7, 0.0, 0.0, true, truncated, pc.rule, false, &carried);
    const auto plain = symmetric_truncate(K, blocks, 7, 0.0, 0.0, true, truncated, pc.rule, false);
    ASSERT_EQ(carried.spectra.size(), n);
    double cut = 0;
    for (double t : truncated) cut = std::max(cut, t);
    ASSERT_GT(cut, 1e-3) << "the bond of 7 truncates";

    SectorForm<T> taken = charged_sector_form(K, ChargedCores<T>{kept, pc, carried}, tpl);
    const SectorForm<T> made = charged_sector_form(K, ChargedCores<T>{plain, pc}, tpl);
    EXPECT_EQ(taken.bonds, made.bonds);
    ASSERT_EQ(taken.schmidt.size(), made.schmidt.size());
    for (std::size_t j = 0; j < made.schmidt.size(); ++j) {
      ASSERT_EQ(taken.schmidt[j].size(), made.schmidt[j].size()) << "cut " << j;
      for (std::size_t i = 0; i < made.schmidt[j].size(); ++i)
        EXPECT_NEAR(taken.schmidt[j][i], made.schmidt[j][i], 1e-12) << "cut " << j;
    }
    EXPECT_NEAR(taken.norm, made.norm, 1e-12 * made.norm);
    EXPECT_EQ(taken.truncated_weight, 0.0);
    std::vector<Tensor<T>> a, b;
    for (std::size_t j = 0; j < n; ++j) {
      Tensor<T> scratch;
      a.push_back(taken.core(j, scratch));
      Tensor<T> scratch2;
      b.push_back(made.core(j, scratch2));
    }
    EXPECT_LT(worst_right_orthonormality(a), 1e-12);
    EXPECT_LT(worst_schmidt_gauge(a, taken.schmidt), 1e-12);
    EXPECT_LT(test::relative_error(test::dense_train(a).v, test::dense_train(b).v), 1e-12);
    // The values carried are the train's own Schmidt values.
    const auto spectra = schmidt_spectra(K, kept, pc.rule, true);
    for (std::size_t j = 1; j < n; ++j) {
      double sum = 0, carried_sum = 0;
      for (const auto& sv : spectra[j - 1])
        for (double v : sv.values) sum += v * v;
      for (const auto& sv : carried.spectra[j])
        for (double v : sv.values) carried_sum += v * v;
      EXPECT_NEAR(carried_sum, sum, 1e-12 * sum) << "cut " << j;
    }
  }
}

}  // namespace
}  // namespace srcc
