// The blocked Householder QR against LAPACK's zgeqrf + zungqr on the same matrices: the same
// reflectors, so the same Q and R to rounding; Q orthonormal and QR = Y, also for rank-deficient
// matrices (repeated and zero columns) and at scales of 1e-200 and 1e200; a matrix with a NaN
// or an infinity is left alone.
#include "srcc/backend/cpu/small_qr.hpp"

#include <gtest/gtest.h>
#include <lapacke.h>

#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "srcc/backend/cpu/direct_gemm.hpp"

namespace srcc {
namespace {

using Matrix = std::vector<cdouble>;  // column-major

Matrix random_matrix(std::size_t m, std::size_t n, std::mt19937_64& g) {
  std::normal_distribution<double> normal;
  Matrix y(m * n);
  for (auto& x : y) x = {normal(g), normal(g)};
  return y;
}

double max_abs(const Matrix& a) {
  double big = 0;
  for (auto x : a) big = std::max(big, std::abs(x));
  return big;
}

// Checks Q, R from householder_qr against LAPACK and against Y itself.
void check(const Matrix& y, std::size_t m, std::size_t n, const char* what) {
  Matrix q = y, r(n * n, cdouble(7));
  ASSERT_TRUE(small_qr::householder_qr(m, n, q.data(), r.data()));
  Matrix lq = y, tau(n);
  auto* c = [](cdouble* p) { return reinterpret_cast<lapack_complex_double*>(p); }(lq.data());
  ASSERT_EQ(LAPACKE_zgeqrf(LAPACK_COL_MAJOR, m, n, c, m, reinterpret_cast<lapack_complex_double*>(tau.data())), 0);
  Matrix lr(n * n, cdouble(0));
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t i = 0; i <= j; ++i) lr[j * n + i] = lq[j * m + i];
  ASSERT_EQ(LAPACKE_zungqr(LAPACK_COL_MAJOR, m, n, n, c, m, reinterpret_cast<lapack_complex_double*>(tau.data())), 0);
  const double scale = max_abs(y), eps = 1e-15 * std::sqrt(static_cast<double>(m * n));
  // R upper triangular, and equal to LAPACK's where the matrix has full rank.
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t i = j + 1; i < n; ++i) ASSERT_EQ(r[j * n + i], cdouble(0)) << what;
  // Q orthonormal: QᴴQ = I.
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = 0; b < n; ++b) {
      cdouble s = 0;
      for (std::size_t k = 0; k < m; ++k) s += std::conj(q[a * m + k]) * q[b * m + k];
      ASSERT_LT(std::abs(s - cdouble(a == b ? 1 : 0)), 20 * eps) << what << " QᴴQ at " << a << "," << b;
    }
  // QR = Y.
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t i = 0; i < m; ++i) {
      cdouble s = 0;
      for (std::size_t k = 0; k <= j; ++k) s += q[k * m + i] * r[j * n + k];
      ASSERT_LT(std::abs(s - y[j * m + i]), 20 * eps * scale) << what << " QR at " << i << "," << j;
    }
  // The same factors as LAPACK (its reflectors): compared where they are determined, i.e.
  // for a matrix of full rank.
  if (std::string(what).find("full") != std::string::npos) {
    for (std::size_t i = 0; i < n * n; ++i)
      ASSERT_LT(std::abs(r[i] - lr[i]), 100 * eps * scale) << what << " R entry " << i;
    for (std::size_t i = 0; i < m * n; ++i)
      ASSERT_LT(std::abs(q[i] - lq[i]), 1e-10) << what << " Q entry " << i;
  }
}

TEST(SmallQr, MatchesLapackAndFactorsExactly) {
  if (direct_gemm::kernel() == direct_gemm::Kernel::kNone)
    GTEST_SKIP() << "the direct GEMM kernel is not available on this CPU";
  std::mt19937_64 g(3);
  for (auto [m, n] : {std::pair<std::size_t, std::size_t>{1, 1}, {5, 1}, {7, 7}, {9, 8}, {17, 9},
                      {64, 32}, {100, 50}, {200, 100}, {40, 40}, {512, 60}})
    check(random_matrix(m, n, g), m, n, "full rank");
}

TEST(SmallQr, RankDeficientAndExtremeScales) {
  if (direct_gemm::kernel() == direct_gemm::Kernel::kNone)
    GTEST_SKIP() << "the direct GEMM kernel is not available on this CPU";
  std::mt19937_64 g(4);
  const std::size_t m = 60, n = 24;
  Matrix y = random_matrix(m, n, g);
  for (std::size_t i = 0; i < m; ++i) {
    y[10 * m + i] = y[3 * m + i] * cdouble(0.5, -2);  // a repeated direction
    y[17 * m + i] = 0;                                  // a zero column
    y[20 * m + i] = y[1 * m + i] + y[2 * m + i];        // a sum of others
  }
  check(y, m, n, "rank deficient");
  for (double scale : {1e-200, 1e200}) {
    Matrix s = random_matrix(m, n, g);
    for (auto& x : s) x *= scale;
    check(s, m, n, scale < 1 ? "full rank, tiny" : "full rank, huge");
  }
}

// A NaN or an infinity anywhere: nothing is touched, and the caller's LAPACK path (whose NaN
// check names the failure) takes over.
TEST(SmallQr, LeavesANonFiniteMatrixAlone) {
  if (direct_gemm::kernel() == direct_gemm::Kernel::kNone)
    GTEST_SKIP() << "the direct GEMM kernel is not available on this CPU";
  std::mt19937_64 g(5);
  for (double bad : {std::nan(""), HUGE_VAL}) {
    Matrix y = random_matrix(20, 10, g);
    y[7 * 20 + 13] = cdouble(0, bad);
    Matrix q = y, r(100, cdouble(3));
    EXPECT_FALSE(small_qr::householder_qr(20, 10, q.data(), r.data()));
    for (std::size_t i = 0; i < y.size(); ++i) {
      if (!std::isnan(y[i].imag())) {
        EXPECT_EQ(q[i], y[i]);
      }
    }
    for (auto x : r) EXPECT_EQ(x, cdouble(3));
  }
}

}  // namespace
}  // namespace srcc
