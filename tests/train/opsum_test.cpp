// Operators from a sum of terms (lib/srcc/train/opsum): every MPO against the same operator built
// densely in the whole Hilbert space (each operator of a term a Kronecker product, fermions with
// their parity strings to their left, the term the product of them in the order written), the
// bonds the automaton reaches, the charges kept, and what is refused.
#include "srcc/train/opsum.hpp"

#include <gtest/gtest.h>

#include "srcc/core/error.hpp"
#include "srcc/train/charged_examples.hpp"
#include "../support/dense.hpp"

namespace srcc {
namespace {

using test::cd;

// The term's operator on the whole chain: Π (as written) of each operator embedded at its site,
// a fermionic one with F on every site to its left.
std::vector<cd> dense_term(const SiteType& type, std::size_t n, const OpTerm& t) {
  const std::size_t d = type.dim;
  std::size_t big = 1;
  for (std::size_t j = 0; j < n; ++j) big *= d;
  std::vector<cd> out(big * big);
  for (std::size_t i = 0; i < big; ++i) out[i * big + i] = t.coefficient;
  for (const auto& placed : t.ops) {
    const SiteOperator& o = type.op(placed.first);
    const auto site = static_cast<std::size_t>(placed.second);
    // Factor for site k: o at the site, F left of it when odd, identity elsewhere.
    auto factor = [&](std::size_t k) -> const SiteOperator& {
      if (k == site) return o;
      return k < site && o.fermionic ? type.op("F") : type.op("Id");
    };
    std::vector<cd> e(big * big);
    for (std::size_t r = 0; r < big; ++r)
      for (std::size_t c = 0; c < big; ++c) {
        cd v = 1;
        std::size_t rr = r, cc = c;
        for (std::size_t k = n; k-- > 0 && v != cd(0);) {
          v *= factor(k).at(rr % d, cc % d);
          rr /= d;
          cc /= d;
        }
        e[r * big + c] = v;
      }
    std::vector<cd> next(big * big);
    for (std::size_t r = 0; r < big; ++r)
      for (std::size_t k = 0; k < big; ++k) {
        if (out[r * big + k] == cd(0)) continue;
        for (std::size_t c = 0; c < big; ++c) next[r * big + c] += out[r * big + k] * e[k * big + c];
      }
    out = std::move(next);
  }
  return out;
}

std::vector<cd> dense_sum(const SiteType& type, std::size_t n, const std::vector<OpTerm>& terms) {
  std::vector<cd> sum;
  for (const auto& t : terms) {
    const auto e = dense_term(type, n, t);
    if (sum.empty()) sum.assign(e.size(), 0);
    for (std::size_t i = 0; i < e.size(); ++i) sum[i] += e[i];
  }
  return sum;
}

template <class T> std::vector<cd> dense_mpo(const std::vector<Tensor<T>>& cores) {
  const test::DenseTrain t = test::dense_train(cores);
  return test::interleaved_to_matrix(t.v, t.ups, t.downs);
}

std::vector<Tensor<cdouble>> mpo_sites(const OpSumMpo& m) {
  std::vector<Tensor<cdouble>> out;
  for (std::size_t j = 0; j < m.sites(); ++j) out.push_back(m.site<cdouble>(j));
  return out;
}

double max_difference(const std::vector<cd>& a, const std::vector<cd>& b) {
  EXPECT_EQ(a.size(), b.size());
  double most = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) most = std::max(most, std::abs(a[i] - b[i]));
  return most;
}

std::vector<OpTerm> terms_of(const std::string& text, std::size_t n, bool translate = true) {
  const auto t = parse_terms(text, "test");
  return translate ? translated(t, n) : t;
}

TEST(OpSum, TheXxzChainIsTheHandWrittenOneWithItsBondAndCharges) {
  const std::size_t n = 7;
  const double j = 0.8, delta = 0.6, h = 0.3;
  const auto terms = terms_of(std::to_string(j / 2) + " Sp 0 Sm 1\n" + std::to_string(j / 2) + " Sm 0 Sp 1\n" +
                                  std::to_string(j * delta) + " Sz 0 Sz 1\n" + std::to_string(-h) + " Sz 0",
                              n);
  const OpSumMpo m(site_type("spin-half"), n, terms);
  EXPECT_EQ(m.max_bond(), 5u);
  EXPECT_EQ(m.bond(1), 5u) << "a field term ends at site 0";
  EXPECT_TRUE(m.is_real());
  std::vector<Tensor<double>> hand;
  for (std::size_t k = 0; k < n; ++k) hand.push_back(xxz_site<double>(k, n, j, delta, h));
  EXPECT_LT(max_difference(dense_mpo(mpo_sites(m)), dense_mpo(hand)), 1e-12);
  ASSERT_TRUE(m.charges().has_value());
  EXPECT_EQ(m.charges()->up[3], (std::vector<Charge>{{1}, {-1}}));
  // Without the field the ends need one state less.
  const OpSumMpo free(site_type("spin-half"), n, terms_of("1 Sz 0 Sz 1\n0.5 Sp 0 Sm 1\n0.5 Sm 0 Sp 1", n));
  EXPECT_EQ(free.bond(1), 4u);
  EXPECT_EQ(free.max_bond(), 5u);
}

TEST(OpSum, NextNearestNeighboursShareTheirStatesAndMatchTheDenseOperator) {
  const std::size_t n = 8;
  const auto terms = terms_of(
      "1 Sx 0 Sx 1\n1 Sy 0 Sy 1\n1 Sz 0 Sz 1\n"
      "0.45 Sx 0 Sx 2\n0.45 Sy 0 Sy 2\n0.45 Sz 0 Sz 2",
      n);
  const OpSumMpo m(site_type("spin-half"), n, terms);
  EXPECT_EQ(m.max_bond(), 8u) << "start, done, Sx Sy Sz one and two sites ahead";
  EXPECT_FALSE(m.is_real()) << "Sy is imaginary";
  EXPECT_LT(max_difference(dense_mpo(mpo_sites(m)), dense_sum(site_type("spin-half"), n, terms)), 1e-12);
  EXPECT_FALSE(m.charges().has_value()) << "Sx adds no definite charge";
}

TEST(OpSum, SpinlessFermionsCarryTheirStringsAndSigns) {
  const std::size_t n = 7;
  const SiteType f = site_type("fermion");
  // Hopping, a density interaction, a long hop over three sites, and a hop written right to left.
  auto terms = terms_of("-1 Cdag 0 C 1\n-1 Cdag 1 C 0\n0.7 N 0 N 1\n-0.2 N 0", n);
  for (const auto& t : terms_of("0.3+0.1j Cdag 1 C 4\n0.3-0.1j Cdag 4 C 1\n0.25 C 5 Cdag 2\n0.25 C 2 Cdag 5", n, false))
    terms.push_back(t);
  const OpSumMpo m(f, n, terms);
  EXPECT_LT(max_difference(dense_mpo(mpo_sites(m)), dense_sum(f, n, terms)), 1e-12);
  ASSERT_TRUE(m.charges().has_value());
  EXPECT_FALSE(m.is_real());
  // C_j c†_i = −c†_i C_j for i ≠ j: the reordering sign, independently of the strings.
  const OpSumMpo a(f, n, terms_of("1 C 5 Cdag 2", n, false)), b(f, n, terms_of("-1 Cdag 2 C 5", n, false));
  EXPECT_LT(max_difference(dense_mpo(mpo_sites(a)), dense_mpo(mpo_sites(b))), 1e-14);
  // Several operators on one site multiply in the order written: c† c = N.
  const OpSumMpo nn(f, n, terms_of("1 Cdag 3 C 3", n, false)), n3(f, n, terms_of("1 N 3", n, false));
  EXPECT_LT(max_difference(dense_mpo(mpo_sites(nn)), dense_mpo(mpo_sites(n3))), 1e-14);
}

TEST(OpSum, TheHubbardChainMatchesTheDenseOperatorWithBondSixAndBothCharges) {
  const std::size_t n = 4;
  const SiteType e = site_type("electron");
  const auto terms = terms_of("-1 Cdu 0 Cu 1\n-1 Cdu 1 Cu 0\n-1 Cdd 0 Cd 1\n-1 Cdd 1 Cd 0\n4 Nu 0 Nd 0\n-0.5 Ntot 0", n);
  const OpSumMpo m(e, n, terms);
  EXPECT_EQ(m.max_bond(), 6u);
  EXPECT_LT(max_difference(dense_mpo(mpo_sites(m)), dense_sum(e, n, terms)), 1e-12);
  ASSERT_TRUE(m.charges().has_value());
  EXPECT_EQ(m.charges()->rule.count(), 2u);
  // The spin operators on the site are the fermions' own: S+ = c†↑ c↓.
  const OpSumMpo sp(e, n, terms_of("1 Sp 2", n, false)), cc(e, n, terms_of("1 Cdu 2 Cd 2", n, false));
  EXPECT_LT(max_difference(dense_mpo(mpo_sites(sp)), dense_mpo(mpo_sites(cc))), 1e-14);
}

TEST(OpSum, BosonsAndSpinOneMatchTheDenseOperator) {
  const std::size_t n = 4;
  const SiteType b = site_type("boson:3");
  const auto hop = terms_of("-1 Bdag 0 B 1\n-1 Bdag 1 B 0\n0.5 N 0 N 0\n-0.5 N 0", n);
  const OpSumMpo mb(b, n, hop);
  EXPECT_LT(max_difference(dense_mpo(mpo_sites(mb)), dense_sum(b, n, hop)), 1e-12);
  EXPECT_TRUE(mb.charges().has_value());
  const SiteType s1 = site_type("spin-one");
  const auto aklt = terms_of("1 Sz 0 Sz 1\n0.5 Sp 0 Sm 1\n0.5 Sm 0 Sp 1\n0.2 Sz 0 Sz 0", 5);
  const OpSumMpo ms(s1, 5, aklt);
  EXPECT_EQ(ms.max_bond(), 5u);
  EXPECT_LT(max_difference(dense_mpo(mpo_sites(ms)), dense_sum(s1, 5, aklt)), 1e-12);
  // [Sz, S+] = S+ on spin one, from the site's matrices.
  const SiteOperator& z = s1.op("Sz");
  const SiteOperator& p = s1.op("Sp");
  const SiteOperator zp = product(z, p), pz = product(p, z);
  for (std::size_t i = 0; i < 9; ++i) EXPECT_NEAR(std::abs(zp.m[i] - pz.m[i] - p.m[i]), 0.0, 1e-14) << i;
}

TEST(OpSum, BadTermsAreRefusedNamingWhatIsWrong) {
  auto refused = [](const std::function<void()>& f, const std::string& needle) {
    try {
      f();
      ADD_FAILURE() << "accepted; expected: " << needle;
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  const SiteType s = site_type("spin-half");
  refused([&] { OpSumMpo(s, 4, terms_of("1 Sq 0 Sz 1", 4)); }, "Sz Sx Sy Sp Sm Id");
  refused([&] { OpSumMpo(s, 4, terms_of("1 Sz 2 Sz 4", 4, false)); }, "site 4 is off the chain");
  refused([&] { OpSumMpo(site_type("fermion"), 4, terms_of("1 C 0 N 1", 4)); }, "odd in fermion operators");
  refused([&] { (void)parse_terms("x Sz 0", "--term"); }, "'x' is no coefficient");
  refused([&] { (void)parse_terms("1 Sz", "--term"); }, "COEF OP SITE");
  refused([&] { (void)parse_terms("1 Sz -1", "--term"); }, "'-1' is no site");
  refused([&] { (void)site_type("spin-two"); }, "boson:K");
  refused([&] { OpSumMpo(s, 4, terms_of("0 Sz 0", 4)); }, "no terms");
  // Complex coefficients in each spelling.
  const auto c = parse_terms("2j Sz 0\n-1.5-0.5i Sz 0\n1e-3+2e-1j Sz 0 # comment\n\n# only a comment", "t");
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].coefficient, cd(0, 2));
  EXPECT_EQ(c[1].coefficient, cd(-1.5, -0.5));
  EXPECT_EQ(c[2].coefficient, cd(1e-3, 0.2));
}

}  // namespace
}  // namespace srcc
