// The direct complex-double kernels (each one this CPU runs: AVX-512, AVX2) against a plain
// triple loop, over every edge shape of their register tiles (every row count past a multiple
// of the tile's, every count of complex numbers in a last vector, every number of vectors in a
// column block), both forms of A, padded leading dimensions and each kind of alpha and beta;
// and with B and C ending at an unmapped page, so a read or write past the last element (an
// unmasked lane) would crash the test. The sum of squares of C the kernel can return as it
// stores C is checked against the loops' result too.
#include "srcc/backend/cpu/direct_gemm.hpp"

#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <new>
#include <random>
#include <vector>

namespace srcc {
namespace {

using direct_gemm::Kernel;
using direct_gemm::zgemm;

// The kernels to test: those this CPU runs.
std::vector<Kernel> runnable() {
  std::vector<Kernel> out;
  for (Kernel k : {Kernel::kAvx512, Kernel::kAvx2})
    if (direct_gemm::supported(k)) out.push_back(k);
  return out;
}
const char* name(Kernel k) { return k == Kernel::kAvx512 ? "avx512" : "avx2"; }

cdouble draw(std::mt19937_64& g) {
  std::normal_distribution<double> n;
  return {n(g), n(g)};
}

struct Case {
  bool trans_a;
  std::size_t m, n, k, pad;
  cdouble alpha, beta;
};

// C = alpha·op(A)·B + beta·C by loops, in the layouts zgemm documents.
std::vector<cdouble> reference(const Case& t, const std::vector<cdouble>& a, std::size_t lda,
                               const std::vector<cdouble>& b, std::size_t ldb,
                               std::vector<cdouble> c, std::size_t ldc) {
  for (std::size_t i = 0; i < t.m; ++i)
    for (std::size_t j = 0; j < t.n; ++j) {
      cdouble s = 0;
      for (std::size_t p = 0; p < t.k; ++p)
        s += (t.trans_a ? a[p * lda + i] : a[i * lda + p]) * b[p * ldb + j];
      cdouble& out = c[i * ldc + j];
      out = t.alpha * s + (t.beta == cdouble(0) ? cdouble(0) : t.beta * out);
    }
  return c;
}

void check(Kernel kernel, const Case& t, std::mt19937_64& g) {
  const std::size_t lda = (t.trans_a ? t.m : t.k) + t.pad, ldb = t.n + t.pad, ldc = t.n + t.pad;
  std::vector<cdouble> a(std::max<std::size_t>((t.trans_a ? t.k : t.m) * lda, 1)),
      b(std::max<std::size_t>(t.k * ldb, 1)), c(t.m * ldc);
  for (auto& x : a) x = draw(g);
  for (auto& x : b) x = draw(g);
  for (auto& x : c) x = draw(g);
  // beta = 0 must not read C: a NaN there would show in the result.
  if (t.beta == cdouble(0))
    for (auto& x : c) x = cdouble(std::nan(""), 0);
  const auto want = reference(t, a, lda, b, ldb, c, ldc);
  // The sum of squares of what is written is added to what the caller had.
  double sum_squares = 0.5, want_squares = 0.5;
  for (std::size_t i = 0; i < t.m; ++i)
    for (std::size_t j = 0; j < t.n; ++j) want_squares += std::norm(want[i * ldc + j]);
  zgemm(kernel, t.trans_a, t.m, t.n, t.k, t.alpha, a.data(), lda, b.data(), ldb, t.beta, c.data(),
        ldc, &sum_squares);
  ASSERT_NEAR(sum_squares, want_squares, 1e-12 * want_squares)
      << name(kernel) << (t.trans_a ? " T " : " N ") << t.m << "x" << t.n << "x" << t.k;
  for (std::size_t i = 0; i < t.m; ++i)
    for (std::size_t j = 0; j < ldc; ++j) {
      const cdouble got = c[i * ldc + j], w = want[i * ldc + j];
      if (j >= t.n) {  // padding between rows is left alone
        ASSERT_TRUE(std::isnan(got.real()) || got == w) << "padding written at " << i << "," << j;
        continue;
      }
      ASSERT_LE(std::abs(got - w),
                1e-13 * (1 + std::sqrt(static_cast<double>(t.k))) * (1 + std::abs(w)))
          << name(kernel) << (t.trans_a ? " T " : " N ") << t.m << "x" << t.n << "x" << t.k
          << " pad " << t.pad << " alpha " << t.alpha << " beta " << t.beta << " at " << i << ","
          << j;
    }
}

TEST(DirectGemm, MatchesLoopsOnEveryTileEdge) {
  if (runnable().empty()) GTEST_SKIP() << "this CPU has neither AVX-512F nor AVX2 with FMA";
  std::mt19937_64 g(11);
  const cdouble one(1), zero(0), other(0.3, -1.7);
  for (Kernel kernel : runnable()) {
    for (bool trans : {false, true})
      for (std::size_t m : {1u, 2u, 3u, 4u, 5u, 7u, 8u, 9u})
        for (std::size_t n = 1; n <= 29; ++n)  // up to 8 vectors of 4 (15 of 2), every tail
          for (std::size_t k : {1u, 2u, 37u})
            check(kernel, {trans, m, n, k, (m + n) % 3, one, zero}, g);
    for (bool trans : {false, true})
      for (cdouble alpha : {one, other})
        for (cdouble beta : {zero, one, other}) {
          check(kernel, {trans, 13, 50, 100, 0, alpha, beta},
                g);  // the left step's shape
          check(kernel, {trans, 6, 11, 5, 2, alpha, beta}, g);
          check(kernel, {trans, 3, 4, 0, 1, alpha, beta},
                g);  // k = 0: C = beta·C
        }
  }
}

// `count` elements that end exactly where an unmapped page begins.
class Guarded {
 public:
  explicit Guarded(std::size_t count) {
    const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const std::size_t bytes = count * sizeof(cdouble);
    const std::size_t span = (bytes + page - 1) / page * page;
    bytes_ = span + page;
    base_ = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base_ == MAP_FAILED) throw std::bad_alloc();
    ::mprotect(static_cast<char*>(base_) + span, page, PROT_NONE);
    data_ = reinterpret_cast<cdouble*>(static_cast<char*>(base_) + span - bytes);
  }
  ~Guarded() { ::munmap(base_, bytes_); }
  Guarded(const Guarded&) = delete;
  Guarded& operator=(const Guarded&) = delete;
  cdouble* data() { return data_; }

 private:
  void* base_;
  std::size_t bytes_;
  cdouble* data_;
};

TEST(DirectGemm, NeverTouchesPastTheLastElement) {
  if (runnable().empty()) GTEST_SKIP() << "this CPU has neither AVX-512F nor AVX2 with FMA";
  std::mt19937_64 g(5);
  for (Kernel kernel : runnable())
    for (std::size_t n : {1u, 3u, 5u, 6u, 13u}) {
      const std::size_t m = 5, k = 7;
      Guarded b(k * n), c(m * n);
      std::vector<cdouble> a(m * k), bv(k * n), cv(m * n);
      for (auto& x : a) x = draw(g);
      for (auto& x : bv) x = draw(g);
      for (auto& x : cv) x = draw(g);
      std::copy(bv.begin(), bv.end(), b.data());
      std::copy(cv.begin(), cv.end(), c.data());
      zgemm(kernel, false, m, n, k, cdouble(1), a.data(), k, b.data(), n, cdouble(1), c.data(), n);
      const auto want = reference({false, m, n, k, 0, cdouble(1), cdouble(1)}, a, k, bv, n, cv, n);
      for (std::size_t i = 0; i < m * n; ++i)
        EXPECT_LE(std::abs(c.data()[i] - want[i]), 1e-13 * (1 + std::abs(want[i])))
            << name(kernel) << " n " << n;
    }
}

}  // namespace
}  // namespace srcc
