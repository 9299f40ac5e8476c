// Time-step MPOs from an MPO of H (lib/srcc/train/step_mpo): against e^{τH} of the dense
// operator — exact where H's terms commute site by site, an error O(τ²) per step otherwise,
// W^II closer than W^I — and the matrix exponential against closed forms.
#include "srcc/train/step_mpo.hpp"

#include <gtest/gtest.h>

#include "srcc/core/error.hpp"
#include "srcc/train/opsum.hpp"
#include "../support/dense.hpp"

namespace srcc {
namespace {

using test::cd;

std::vector<Tensor<cdouble>> opsum_sites(const std::string& site, std::size_t n, const std::string& terms) {
  const OpSumMpo m(site_type(site), n, translated(parse_terms(terms, "test"), n));
  std::vector<Tensor<cdouble>> out;
  for (std::size_t j = 0; j < n; ++j) out.push_back(m.site<cdouble>(j));
  return out;
}

std::vector<cd> dense(const std::vector<Tensor<cdouble>>& cores) {
  const test::DenseTrain t = test::dense_train(cores);
  return test::interleaved_to_matrix(t.v, t.ups, t.downs);
}

std::size_t side(const std::vector<cd>& m) { return static_cast<std::size_t>(std::llround(std::sqrt(double(m.size())))); }

std::vector<cd> exp_of(const std::vector<cd>& h, cd tau) {
  std::vector<cd> x(h);
  for (auto& v : x) v *= tau;
  return matrix_exponential(x, side(h));
}

double spectral_bound(const std::vector<cd>& a, const std::vector<cd>& b) {
  double f = 0;  // Frobenius norm of the difference
  for (std::size_t i = 0; i < a.size(); ++i) f += std::norm(a[i] - b[i]);
  return std::sqrt(f);
}

TEST(StepMpo, MatrixExponentialOfARotationAndANilpotent) {
  const double t = 7.3;  // large enough to need squarings
  const auto r = matrix_exponential({0, -t, t, 0}, 2);
  EXPECT_NEAR(std::abs(r[0] - std::cos(t)), 0, 1e-13);
  EXPECT_NEAR(std::abs(r[1] + std::sin(t)), 0, 1e-13);
  EXPECT_NEAR(std::abs(r[2] - std::sin(t)), 0, 1e-13);
  const auto n = matrix_exponential({0, 2, 0, 0, 0, 3, 0, 0, 0}, 3);  // I + N + N²/2
  EXPECT_NEAR(std::abs(n[2] - 3.0), 0, 1e-15);
  EXPECT_NEAR(std::abs(n[1] - 2.0), 0, 1e-15);
}

TEST(StepMpo, OnSiteTermsAreExactAndCouplingsAreSecondOrder) {
  const std::size_t n = 6;
  // Fields only: every term on its own site, so W^II is e^{τH} exactly (W^I has 1 + τD there).
  const auto field = opsum_sites("spin-half", n, "0.7 Sx 0\n-0.4 Sz 0");
  const cd tau(0, -0.3);
  EXPECT_LT(spectral_bound(dense(step_mpo(field, tau, StepApproximation::kSecond)), exp_of(dense(field), tau)), 1e-13);
  EXPECT_GT(spectral_bound(dense(step_mpo(field, tau, StepApproximation::kFirst)), exp_of(dense(field), tau)), 1e-3);
  // XXZ with a field: the error per step falls as τ², W^II below W^I.
  const auto h = opsum_sites("spin-half", n, "0.5 Sp 0 Sm 1\n0.5 Sm 0 Sp 1\n0.7 Sz 0 Sz 1\n-0.2 Sz 0");
  const auto hd = dense(h);
  double previous = 0;
  for (double dt : {0.08, 0.04}) {
    const cd t(0, -dt);
    const double e2 = spectral_bound(dense(step_mpo(h, t, StepApproximation::kSecond)), exp_of(hd, t));
    const double e1 = spectral_bound(dense(step_mpo(h, t, StepApproximation::kFirst)), exp_of(hd, t));
    EXPECT_LT(e2, e1) << dt;
    EXPECT_GT(e2, 1e-8) << "the terms do not commute: not exact";
    if (previous > 0) EXPECT_NEAR(previous / e2, 4.0, 0.6) << "O(τ²) per step";
    previous = e2;
  }
  // Bond: the states in progress plus one.
  const auto u = step_mpo(h, cd(-0.1, 0), StepApproximation::kSecond);
  EXPECT_EQ(u[2].shape[0], 4u);
  // Spinless fermions with their strings: the step of a hopping chain, O(τ²) too.
  const auto f = opsum_sites("fermion", 5, "-1 Cdag 0 C 1\n-1 Cdag 1 C 0\n0.5 N 0 N 1");
  const auto fd = dense(f);
  const double big = spectral_bound(dense(step_mpo(f, cd(0, -0.04), StepApproximation::kSecond)), exp_of(fd, cd(0, -0.04)));
  const double half = spectral_bound(dense(step_mpo(f, cd(0, -0.02), StepApproximation::kSecond)), exp_of(fd, cd(0, -0.02)));
  EXPECT_NEAR(big / half, 4.0, 0.6);
}

TEST(StepMpo, TheSecondOrderSplittingErrsAsTauCubed) {
  const std::size_t n = 5;
  const auto h = opsum_sites("spin-half", n, "0.5 Sp 0 Sm 1\n0.5 Sm 0 Sp 1\n0.7 Sz 0 Sz 1\n-0.2 Sx 0");
  const auto hd = dense(h);
  std::vector<double> errors;
  for (double dt : {0.08, 0.04}) {
    const cd t(0, -dt);
    const auto u = second_order_step(h, t, StepApproximation::kSecond);
    EXPECT_EQ(u[2].shape[0], 16u) << "the squared bond";
    errors.push_back(spectral_bound(dense(u), exp_of(hd, t)));
    EXPECT_LT(errors.back(), spectral_bound(dense(step_mpo(h, t, StepApproximation::kSecond)), exp_of(hd, t)) / 3) << dt;
  }
  EXPECT_NEAR(errors[0] / errors[1], 8.0, 1.5) << "O(τ³) per step";
}

TEST(StepMpo, AProductOperatorIsOneTermInProgress) {
  // An MPO of bond 1 (A ⊗ B ⊗ C) has no identity channel: one term spanning the chain, whose
  // first-order step is 1 + τH.
  std::vector<Tensor<cdouble>> h{Tensor<cdouble>({1, 1, 2, 2}, {1.0, 2.0, 3.0, 4.0}),
                                 Tensor<cdouble>({1, 1, 2, 2}, {0.5, 0.1, 0.2, 0.3}),
                                 Tensor<cdouble>({1, 1, 2, 2}, {0.0, 1.0, 1.0, 0.0})};
  const cd tau(0.01, 0);
  auto want = dense(h);
  for (auto& v : want) v *= tau;
  for (std::size_t i = 0; i < 8; ++i) want[i * 8 + i] += 1.0;
  EXPECT_LT(spectral_bound(dense(step_mpo(h, tau, StepApproximation::kFirst)), want), 1e-14);
  EXPECT_LT(spectral_bound(dense(step_mpo(h, tau, StepApproximation::kSecond)), want), 1e-14);
  // An MPO of H whose states were mixed (a reflection Q = Qᵀ = Q⁻¹ of the bond between sites 1
  // and 2, Q on one side and Q⁻¹ on the other) is H still, but no longer a sum in the automaton's
  // form: refused, not stepped to first order.
  auto mixed = opsum_sites("spin-half", 4, "1 Sz 0 Sz 1\n0.3 Sx 0");
  const std::size_t d = mixed[1].shape[1];
  std::vector<double> v(d), q(d * d);
  double vv = 0;
  for (std::size_t i = 0; i < d; ++i) vv += (v[i] = double(i + 1)) * double(i + 1);
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t k = 0; k < d; ++k) q[i * d + k] = (i == k ? 1.0 : 0.0) - 2 * v[i] * v[k] / vv;
  Tensor<cdouble> a = mixed[1], b = mixed[2];
  std::fill(a.data.begin(), a.data.end(), cd(0));
  std::fill(b.data.begin(), b.data.end(), cd(0));
  for (std::size_t l = 0; l < a.shape[0]; ++l)
    for (std::size_t r = 0; r < d; ++r)
      for (std::size_t k = 0; k < d; ++k)
        for (std::size_t x = 0; x < 4; ++x) a.data[(l * d + r) * 4 + x] += mixed[1].data[(l * d + k) * 4 + x] * q[k * d + r];
  for (std::size_t l = 0; l < d; ++l)
    for (std::size_t r = 0; r < b.shape[1]; ++r)
      for (std::size_t k = 0; k < d; ++k)
        for (std::size_t x = 0; x < 4; ++x) b.data[(l * b.shape[1] + r) * 4 + x] += q[l * d + k] * mixed[2].data[(k * b.shape[1] + r) * 4 + x];
  const auto before = dense(mixed);
  mixed[1] = a;
  mixed[2] = b;
  EXPECT_LT(spectral_bound(dense(mixed), before), 1e-13) << "the same operator";
  EXPECT_THROW(step_mpo(mixed, tau, StepApproximation::kSecond), InputError);
}

}  // namespace
}  // namespace srcc
