// Tests of sdc's reduction of the dense left step (reduce_by_svd in
// lib/srcc/sweep/dense_left_step.cpp) on explicit matrices of known spectrum: the environment it
// keeps must span M's leading right singular space as an exact truncated SVD does, whether the
// cut is decided on the Gram matrix (a tail well above rounding) or on the QR and small SVD (a
// tail near rounding, where the Gram matrix cannot resolve it).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>

#include "../support/stacks.hpp"
#include "srcc/core/rng.hpp"
#include "srcc/sweep/dense_left_step.hpp"
#include "srcc/sweep/sketch.hpp"

namespace srcc::test {
namespace {

using cd = std::complex<double>;
using Rows = std::vector<std::vector<cd>>;

cd dot(const std::vector<cd>& a, const std::vector<cd>& b) {
  cd s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += std::conj(a[i]) * b[i];
  return s;
}

// Orthonormal rows by Gram–Schmidt, twice (enough for well-conditioned Gaussian rows).
Rows orthonormal(Rows v) {
  for (int pass = 0; pass < 2; ++pass)
    for (std::size_t i = 0; i < v.size(); ++i) {
      for (std::size_t k = 0; k < i; ++k) {
        const cd p = dot(v[k], v[i]);
        for (std::size_t x = 0; x < v[i].size(); ++x) v[i][x] -= p * v[k][x];
      }
      const double n = std::sqrt(dot(v[i], v[i]).real());
      for (auto& x : v[i]) x /= n;
    }
  return v;
}

Rows gaussian_rows(Rng& rng, std::size_t count, std::size_t len) {
  Rows r(count);
  for (auto& row : r) row = draw_gaussian<cdouble>(rng, len);
  return r;
}

// M = U diag(σ) V^H, row-major m × cols, U (m × m) and V (cols × m) with orthonormal columns.
std::vector<cd> with_spectrum(Rng& rng, std::size_t cols, const std::vector<double>& sigma) {
  const std::size_t m = sigma.size();
  const Rows ut = orthonormal(gaussian_rows(rng, m, m)), vt = orthonormal(gaussian_rows(rng, m, cols));
  std::vector<cd> a(m * cols);
  for (std::size_t k = 0; k < m; ++k)
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t c = 0; c < cols; ++c) a[i * cols + c] += ut[k][i] * sigma[k] * std::conj(vt[k][c]);
  return a;
}

// ‖M (I − Π)‖_F with Π the projector onto the row space of `env` (rank × cols), formed
// explicitly (no cancellation in ‖M‖² − ‖MΠ‖²).
double residual(const std::vector<cd>& a, std::size_t m, std::size_t cols, const std::vector<cd>& env, std::size_t rank) {
  Rows basis(rank);
  for (std::size_t r = 0; r < rank; ++r) basis[r].assign(env.begin() + r * cols, env.begin() + (r + 1) * cols);
  basis = orthonormal(basis);
  double err = 0;
  for (std::size_t i = 0; i < m; ++i) {
    std::vector<cd> row(a.begin() + i * cols, a.begin() + (i + 1) * cols);
    for (const auto& b : basis) {
      const cd p = dot(b, row);
      for (std::size_t c = 0; c < cols; ++c) row[c] -= p * b[c];
    }
    for (const auto& x : row) err += std::norm(x);
  }
  return std::sqrt(err);
}

struct Outcome {
  std::size_t rank;
  double residual, optimal, discarded, exact_discarded;
  std::vector<double> row_norms;  // env's rows over the scale: σ_i
};

Outcome reduce(const std::vector<double>& sigma, std::size_t cols, std::size_t cap, double cutoff, double tol,
               std::uint64_t seed) {
  Rng rng(seed);
  const std::size_t m = sigma.size();
  const auto a = with_spectrum(rng, cols, sigma);
  CpuOps<cdouble> ops;
  auto m_rows = ops.K.adopt(std::vector<cdouble>(a));
  const auto red = reduce_by_svd<cdouble>(ops.K, m_rows, m, cols, cap, cutoff, tol);
  const auto env = ops.K.download(red.env, red.rank * cols);
  Outcome o{red.rank, residual(a, m, cols, env, red.rank), 0, red.discarded, 0, {}};
  double total = 0, tail = 0;
  for (std::size_t i = 0; i < m; ++i) (i < red.rank ? total : tail) += sigma[i] * sigma[i];
  o.optimal = std::sqrt(tail);
  o.exact_discarded = std::sqrt(tail / (total + tail));
  const double scale = std::exp(-red.log_scale);
  for (std::size_t r = 0; r < red.rank; ++r) {
    double n = 0;
    for (std::size_t c = 0; c < cols; ++c) n += std::norm(env[r * cols + c]);
    o.row_norms.push_back(std::sqrt(n) * scale);
  }
  return o;
}

std::vector<double> geometric(std::size_t m, double ratio) {
  std::vector<double> s(m);
  for (std::size_t i = 0; i < m; ++i) s[i] = std::pow(ratio, static_cast<double>(i));
  return s;
}

TEST(SdcReduction, KeepsTheLeadingSingularSpaceWhereTheTailIsWellAboveRounding) {
  // Tails of 3e-2 … 1e-4 relative: decided on the Gram matrix.
  for (const double ratio : {0.7, 0.5}) {
    const auto sigma = geometric(40, ratio);
    const auto o = reduce(sigma, 300, 12, 0.0, 0.0, 11);
    ASSERT_EQ(o.rank, 12u);
    EXPECT_NEAR(o.residual, o.optimal, 1e-6 * o.optimal) << ratio;
    EXPECT_NEAR(o.discarded, o.exact_discarded, 1e-6 * o.exact_discarded) << ratio;
    for (std::size_t i = 0; i < o.rank; ++i) EXPECT_NEAR(o.row_norms[i], sigma[i], 1e-9) << ratio << " " << i;
  }
}

TEST(SdcReduction, KeepsTheLeadingSingularSpaceWhereTheTailIsNearRounding) {
  // σ_i = 10^{-i/2}: the tail after 24 values is 1e-12 relative, the values kept reach 1e-11.5,
  // far below what a Gram matrix resolves (its eigenvalues' error is ε·σ_1²).
  std::vector<double> sigma(40);
  for (std::size_t i = 0; i < sigma.size(); ++i) sigma[i] = std::pow(10.0, -0.5 * static_cast<double>(i));
  const auto o = reduce(sigma, 300, 24, 0.0, 0.0, 12);
  ASSERT_EQ(o.rank, 24u);
  EXPECT_NEAR(o.residual, o.optimal, 1e-2 * o.optimal + 1e-14);
  EXPECT_NEAR(o.discarded, o.exact_discarded, 1e-3 * o.exact_discarded);
}

TEST(SdcReduction, ATightToleranceOrCutoffReadsTheTrueValues) {
  std::vector<double> sigma(40);
  for (std::size_t i = 0; i < sigma.size(); ++i) sigma[i] = std::pow(10.0, -0.4 * static_cast<double>(i));
  // --tol 1e-9: the fewest values whose tail is within 1e-9 of the norm.
  {
    const auto o = reduce(sigma, 200, 40, 0.0, 1e-9, 13);
    double total = 0, tail = 0;
    for (double v : sigma) total += v * v;
    std::size_t keep = sigma.size();
    while (keep > 1 && tail + sigma[keep - 1] * sigma[keep - 1] <= 1e-18 * total) {
      tail += sigma[keep - 1] * sigma[keep - 1];
      --keep;
    }
    EXPECT_EQ(o.rank, keep);
    EXPECT_NEAR(o.residual, o.optimal, 1e-2 * o.optimal + 1e-14);
  }
  // A cutoff at 1.5e-12·σ_1 keeps the 30 values above it.
  {
    const auto o = reduce(sigma, 200, 40, 1.5e-12, 0.0, 14);
    EXPECT_EQ(o.rank, 30u);
    EXPECT_NEAR(o.residual, o.optimal, 1e-2 * o.optimal + 1e-14);
  }
}

TEST(SdcReduction, AWideMatrixIsReducedByItsOwnSvd) {
  // cols < m: M has more rows than columns.
  const auto sigma = geometric(40, 0.6);
  Rng rng(15);
  const std::size_t m = 40, cols = 25;
  // The first `cols` columns of an m × m matrix of rank `cols`.
  std::vector<double> s(sigma.begin(), sigma.begin() + cols);
  s.resize(m, 0.0);
  const auto a = with_spectrum(rng, m, s);
  std::vector<cd> wide(m * cols);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t c = 0; c < cols; ++c) wide[i * cols + c] = a[i * m + c];
  CpuOps<cdouble> ops;
  auto m_rows = ops.K.adopt(std::vector<cdouble>(wide));
  const auto red = reduce_by_svd<cdouble>(ops.K, m_rows, m, cols, 8, 0.0, 0.0);
  const auto env = ops.K.download(red.env, red.rank * cols);
  ASSERT_EQ(red.rank, 8u);
  // The reference is independent of LAPACK: the best rank-8 row space by subspace iteration
  // on M^H M, and its residual.
  Rows v = gaussian_rows(rng, 8, cols);
  for (int it = 0; it < 200; ++it) {
    for (auto& row : v) {
      std::vector<cd> mv(m), out(cols);
      for (std::size_t i = 0; i < m; ++i)
        for (std::size_t c = 0; c < cols; ++c) mv[i] += wide[i * cols + c] * row[c];
      for (std::size_t i = 0; i < m; ++i)
        for (std::size_t c = 0; c < cols; ++c) out[c] += std::conj(wide[i * cols + c]) * mv[i];
      row = out;
    }
    v = orthonormal(v);
  }
  std::vector<cd> best(8 * cols);
  for (std::size_t r = 0; r < 8; ++r)
    for (std::size_t c = 0; c < cols; ++c) best[r * cols + c] = std::conj(v[r][c]);
  const double ours = residual(wide, m, cols, env, 8), ref = residual(wide, m, cols, best, 8);
  EXPECT_NEAR(ours, ref, 1e-6 * ref);
}

}  // namespace
}  // namespace srcc::test
