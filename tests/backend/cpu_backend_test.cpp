// The CPU backend's kernels against plain loops, at thread counts that split the work in
// batches, row panels and column panels, and the sweep at several thread counts.
#include "srcc/backend/cpu/cpu_backend.hpp"

#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <random>
#include <vector>

#include "../support/stacks.hpp"

namespace srcc {
namespace {

template <class T> T value(std::mt19937_64& g) {
  std::normal_distribution<double> n;
  if constexpr (is_complex_v<T>) return T(n(g), n(g));
  else return static_cast<T>(n(g));
}

template <class T> T op_at(Op op, const T* x, std::size_t ld, std::size_t row, std::size_t col) {
  // Element (row, col) of op(X) for row-major X with leading dimension ld.
  if (op == Op::kNone) return x[row * ld + col];
  const T v = x[col * ld + row];
  if constexpr (is_complex_v<T>) return op == Op::kConjTrans ? std::conj(v) : v;
  else return v;
}

struct GemmCase {
  Op a, b;
  std::size_t m, n, k, batch, pad;  // pad: extra leading-dimension elements
};

template <class T> void check_gemm(int threads, const GemmCase& g) {
  auto backend = make_cpu_backend(threads);
  auto& K = backend->template kernels<T>();
  std::mt19937_64 gen(threads * 1000 + g.m + g.n + g.k);
  const std::size_t a_rows = g.a == Op::kNone ? g.m : g.k, a_cols = g.a == Op::kNone ? g.k : g.m;
  const std::size_t b_rows = g.b == Op::kNone ? g.k : g.n, b_cols = g.b == Op::kNone ? g.n : g.k;
  const std::size_t lda = a_cols + g.pad, ldb = b_cols + g.pad, ldc = g.n + g.pad;
  const std::size_t sa = a_rows * lda + 3, sb = b_rows * ldb + 5, sc = g.m * ldc + 7;
  std::vector<T> a(sa * g.batch), b(sb * g.batch), c(sc * g.batch);
  for (auto& x : a) x = value<T>(gen);
  for (auto& x : b) x = value<T>(gen);
  for (auto& x : c) x = value<T>(gen);
  const T alpha = is_complex_v<T> ? T(0.5) + value<T>(gen) * T(0.1) : T(0.75), beta = T(0.5);
  std::vector<T> want = c;
  for (std::size_t i = 0; i < g.batch; ++i)
    for (std::size_t r = 0; r < g.m; ++r)
      for (std::size_t q = 0; q < g.n; ++q) {
        std::complex<double> s = 0;
        for (std::size_t p = 0; p < g.k; ++p)
          s += std::complex<double>(op_at(g.a, a.data() + i * sa, lda, r, p)) *
               std::complex<double>(op_at(g.b, b.data() + i * sb, ldb, p, q));
        T& w = want[i * sc + r * ldc + q];
        const std::complex<double> v = std::complex<double>(alpha) * s + std::complex<double>(beta) * std::complex<double>(w);
        if constexpr (is_complex_v<T>) w = T(v);
        else w = static_cast<T>(v.real());
      }
  K.gemm(g.a, g.b, g.m, g.n, g.k, alpha, a.data(), lda, sa, b.data(), ldb, sb, beta, c.data(),
         ldc, sc, g.batch);
  const double tol = std::numeric_limits<real_t<T>>::epsilon() * 50 * std::sqrt(static_cast<double>(g.k));
  for (std::size_t i = 0; i < c.size(); ++i)
    ASSERT_NEAR(std::abs(std::complex<double>(c[i]) - std::complex<double>(want[i])), 0.0,
                tol * (1 + std::abs(std::complex<double>(want[i]))))
        << threads << " threads, " << g.m << "x" << g.n << "x" << g.k << " batch " << g.batch
        << ", element " << i;
}

template <class T> class CpuKernelsTyped : public ::testing::Test {};
using Scalars = ::testing::Types<float, double, cfloat, cdouble>;
TYPED_TEST_SUITE(CpuKernelsTyped, Scalars);

TYPED_TEST(CpuKernelsTyped, GemmMatchesLoopsWhateverTheSplit) {
  const Op ops[] = {Op::kNone, Op::kTrans, Op::kConjTrans};
  for (int threads : {1, 2, 3})
    for (Op a : ops)
      for (Op b : ops) {
        check_gemm<TypeParam>(threads, {a, b, 70, 33, 41, 1, 0});    // row panels
        check_gemm<TypeParam>(threads, {a, b, 29, 90, 37, 1, 2});    // column panels
        check_gemm<TypeParam>(threads, {a, b, 17, 19, 23, 7, 1});    // a batch
        check_gemm<TypeParam>(threads, {a, b, 21, 13, 700, 1, 1});   // split along k
        check_gemm<TypeParam>(threads, {a, b, 3, 2, 1, 2, 0});       // too small to share
        check_gemm<TypeParam>(threads, {a, b, 3, 1200, 2, 2, 0});    // k = d, B's rows far apart
      }
}

// The products a charged sweep makes by the million where its sectors are a few indices wide
// (one_product.hpp's tiny ones, in its fixed-size kernels, not BLAS), and the shapes just past those
// bounds (BLAS again), against the loops above: an operand shared by the whole batch (stride 0,
// as a layer's block is), beta 0 over a C full of NaN (which must not be read), beta 1
// accumulating, and the norm of what was written.
TYPED_TEST(CpuKernelsTyped, TinyProductsMatchLoopsAndNeverReadCAtBetaZero) {
  using T = TypeParam;
  using R = real_t<T>;
  struct Tiny {
    Op a;
    std::size_t m, n, k;
  };
  // Every row count up to the bound, depths 1, 2, 4, 7 and 8, the work at its bound (4 × 4 over
  // 8, 2 × 64 over 1), and just past each bound (5 rows, depth 9, 132 multiply-adds).
  const Tiny cases[] = {{Op::kTrans, 2, 20, 1}, {Op::kTrans, 1, 20, 2}, {Op::kNone, 2, 4, 2},  {Op::kNone, 4, 20, 1},
                        {Op::kTrans, 3, 10, 4}, {Op::kNone, 1, 1, 1},   {Op::kTrans, 4, 4, 8}, {Op::kNone, 2, 64, 1},
                        {Op::kNone, 3, 1, 7},   {Op::kTrans, 5, 8, 1},  {Op::kNone, 1, 16, 9}, {Op::kNone, 4, 33, 1},
                        {Op::kConjTrans, 2, 20, 1}, {Op::kConjTrans, 3, 10, 4}};
  auto backend = make_cpu_backend(1);
  auto& K = backend->template kernels<T>();
  std::mt19937_64 gen(11);
  for (const Tiny& g : cases)
    for (const T beta : {T(0), T(1)}) {
      const std::size_t batch = 80, lda = g.a == Op::kNone ? g.k : g.m, sb = g.k * g.n, sc = g.m * g.n;
      std::vector<T> a(g.m * g.k), b(sb * batch), c(sc * batch);
      for (auto& x : a) x = value<T>(gen);
      for (auto& x : b) x = value<T>(gen);
      for (auto& x : c) x = beta == T(0) ? T(std::numeric_limits<R>::quiet_NaN()) : value<T>(gen);
      std::vector<T> want = c;
      for (std::size_t i = 0; i < batch; ++i)
        for (std::size_t r = 0; r < g.m; ++r)
          for (std::size_t q = 0; q < g.n; ++q) {
            T sum = beta == T(0) ? T(0) : want[i * sc + r * g.n + q];
            for (std::size_t p = 0; p < g.k; ++p) sum += T(0.75) * op_at(g.a, a.data(), lda, r, p) * b[i * sb + p * g.n + q];
            want[i * sc + r * g.n + q] = sum;
          }
      const R norm = K.gemm_norm(g.a, Op::kNone, g.m, g.n, g.k, T(0.75), a.data(), lda, 0, b.data(), g.n, sb, beta,
                                 c.data(), g.n, sc, batch);
      double want2 = 0;
      for (std::size_t i = 0; i < c.size(); ++i) {
        ASSERT_NEAR(std::abs(std::complex<double>(c[i]) - std::complex<double>(want[i])), 0.0,
                    50 * std::numeric_limits<R>::epsilon() * (1 + std::abs(std::complex<double>(want[i]))))
            << g.m << "x" << g.n << "x" << g.k << " beta " << std::complex<double>(beta) << ", element " << i;
        want2 += std::norm(std::complex<double>(want[i]));
      }
      EXPECT_NEAR(static_cast<double>(norm), std::sqrt(want2), 50 * std::numeric_limits<R>::epsilon() * std::sqrt(want2));
    }
}

// swap_axes against its definition out[p, y, q, x, r] = in[p, x, q, y, r], for every way it is
// taken: single elements and short runs in tiles (sides that are not multiples of a tile, one
// side narrow), long runs copied whole, and an axis of size 1 on either side.
TYPED_TEST(CpuKernelsTyped, SwapAxesMovesEveryElementToItsPlace) {
  auto backend = make_cpu_backend(1);
  auto& K = backend->template kernels<TypeParam>();
  struct Case {
    std::size_t p, x, q, y, r;
  };
  const Case cases[] = {{1, 37, 1, 53, 1}, {3, 40, 1, 3, 1},  {2, 3, 17, 1, 1},  {2, 1, 9, 20, 1},
                        {1, 19, 4, 35, 2}, {2, 33, 2, 17, 5}, {2, 5, 3, 7, 16}, {1, 4, 1, 1, 3},
                        {1, 1, 1, 1, 1},   {4, 2, 3, 2, 40}};
  std::mt19937_64 gen(7);
  for (const Case& c : cases) {
    const std::size_t n = c.p * c.x * c.q * c.y * c.r;
    std::vector<TypeParam> in(n), out(n + 1, TypeParam(42));
    for (auto& v : in) v = value<TypeParam>(gen);
    K.swap_axes(c.p, c.x, c.q, c.y, c.r, in.data(), out.data());
    for (std::size_t ip = 0; ip < c.p; ++ip)
      for (std::size_t ix = 0; ix < c.x; ++ix)
        for (std::size_t iq = 0; iq < c.q; ++iq)
          for (std::size_t iy = 0; iy < c.y; ++iy)
            for (std::size_t k = 0; k < c.r; ++k)
              ASSERT_EQ(out[(((ip * c.y + iy) * c.q + iq) * c.x + ix) * c.r + k],
                        in[(((ip * c.x + ix) * c.q + iq) * c.y + iy) * c.r + k])
                  << c.p << "x" << c.x << "x" << c.q << "x" << c.y << "x" << c.r;
    EXPECT_EQ(out[n], TypeParam(42)) << "wrote past the end";
  }
}

// left_svd against svd: the same values, and U orthonormal with U·Uᴴ·A = A, on both sides of
// the size where the CPU backend changes LAPACK routine, wide and tall.
TYPED_TEST(CpuKernelsTyped, LeftSvdIsTheSvdsLeftFactorAndValues) {
  using T = TypeParam;
  using R = real_t<T>;
  auto backend = make_cpu_backend(1);
  auto& K = backend->template kernels<T>();
  std::mt19937_64 gen(5);
  for (const auto [m, n] : {std::pair<std::size_t, std::size_t>{40, 25}, {25, 40}, {170, 165}}) {
    const std::size_t k = std::min(m, n);
    std::vector<T> a(m * n);  // column-major m × n
    for (auto& v : a) v = value<T>(gen);
    std::vector<T> a1 = a, a2 = a, u(m * k), u2(m * k), vt(k * n);
    std::vector<R> s(k), s2(k);
    K.left_svd(m, n, a1.data(), u.data(), s.data());
    K.svd(m, n, a2.data(), u2.data(), s2.data(), vt.data());
    const double eps = std::numeric_limits<R>::epsilon();
    for (std::size_t i = 0; i < k; ++i)
      EXPECT_NEAR(static_cast<double>(s[i]), static_cast<double>(s2[i]), 100 * eps * static_cast<double>(s2[0])) << m << "x" << n;
    // P = U·Uᴴ applied to each column of A gives it back.
    for (std::size_t c = 0; c < n; ++c) {
      std::vector<std::complex<double>> coef(k, 0.0);
      for (std::size_t i = 0; i < k; ++i)
        for (std::size_t r = 0; r < m; ++r) coef[i] += std::conj(std::complex<double>(u[r + i * m])) * std::complex<double>(a[r + c * m]);
      for (std::size_t r = 0; r < m; ++r) {
        std::complex<double> back = 0;
        for (std::size_t i = 0; i < k; ++i) back += std::complex<double>(u[r + i * m]) * coef[i];
        ASSERT_NEAR(std::abs(back - std::complex<double>(a[r + c * m])), 0.0, 1000 * eps * static_cast<double>(s2[0]))
            << m << "x" << n << ", row " << r << ", column " << c;
      }
    }
    for (std::size_t i = 0; i < k; ++i)
      for (std::size_t j = 0; j <= i; ++j) {
        std::complex<double> d = 0;
        for (std::size_t r = 0; r < m; ++r) d += std::conj(std::complex<double>(u[r + j * m])) * std::complex<double>(u[r + i * m]);
        ASSERT_NEAR(std::abs(d - (i == j ? 1.0 : 0.0)), 0.0, 100 * eps * static_cast<double>(m)) << "u_" << j << "·u_" << i;
      }
  }
}

TYPED_TEST(CpuKernelsTyped, NormMatchesALongDoubleSumAtAnyScale) {
  using R = real_t<TypeParam>;
  auto backend = make_cpu_backend(3);
  auto& K = backend->template kernels<TypeParam>();
  std::mt19937_64 gen(7);
  // Scales a float32 or float64 sum of squares would lose (under- or overflow) included.
  const double scales[] = {1.0, 1e-30, 1e30, std::is_same_v<R, double> ? 1e-170 : 1e-20,
                           std::is_same_v<R, double> ? 1e170 : 1e18};
  for (std::size_t n : {1u, 5u, 1000u, 200001u})
    for (double scale : scales) {
      std::vector<TypeParam> x(n);
      long double want2 = 0;
      for (auto& v : x) {
        v = value<TypeParam>(gen) * static_cast<R>(scale);
        want2 += static_cast<long double>(std::norm(std::complex<long double>(std::complex<double>(v))));
      }
      const double want = static_cast<double>(std::sqrt(want2));
      const double got = static_cast<double>(K.norm(n, x.data()));
      EXPECT_NEAR(got / want, 1.0, 1e-5) << n << " elements at scale " << scale;
    }
  std::vector<TypeParam> zero(100000, TypeParam(0));
  EXPECT_EQ(K.norm(zero.size(), zero.data()), R(0));
}

// gemm_norm writes what gemm writes and returns the norm of it (not of the padding between
// rows or batch items), whichever way the work is split, and at scales where the squares of
// the working type overflow or underflow.
TYPED_TEST(CpuKernelsTyped, GemmNormIsTheNormOfWhatGemmWrote) {
  using T = TypeParam;
  using R = real_t<T>;
  const GemmCase cases[] = {{Op::kNone, Op::kNone, 70, 33, 41, 1, 0},  // row panels
                            {Op::kTrans, Op::kNone, 29, 90, 37, 1, 2},  // column panels
                            {Op::kNone, Op::kNone, 17, 19, 23, 7, 1},   // a batch
                            {Op::kTrans, Op::kNone, 21, 13, 700, 1, 1},  // split along k
                            {Op::kNone, Op::kTrans, 3, 2, 1, 2, 0}};     // one thread
  const double big = std::is_same_v<R, double> ? 1e160 : 1e25;
  for (int threads : {1, 2, 3})
    for (const GemmCase& g : cases)
      for (double scale : {1.0, big, 1 / big}) {
        auto backend = make_cpu_backend(threads);
        auto& K = backend->template kernels<T>();
        std::mt19937_64 gen(static_cast<std::uint64_t>(threads * 100 + g.m));
        const std::size_t a_rows = g.a == Op::kNone ? g.m : g.k,
                          a_cols = g.a == Op::kNone ? g.k : g.m;
        const std::size_t b_rows = g.b == Op::kNone ? g.k : g.n,
                          b_cols = g.b == Op::kNone ? g.n : g.k;
        const std::size_t lda = a_cols + g.pad, ldb = b_cols + g.pad, ldc = g.n + g.pad;
        const std::size_t sa = a_rows * lda, sb = b_rows * ldb, sc = g.m * ldc + 3;
        std::vector<T> a(sa * g.batch), b(sb * g.batch), c1(sc * g.batch);
        for (auto& x : a) x = value<T>(gen) * static_cast<R>(std::sqrt(scale));
        for (auto& x : b) x = value<T>(gen) * static_cast<R>(std::sqrt(scale));
        for (auto& x : c1) x = value<T>(gen) * static_cast<R>(scale);
        std::vector<T> c2 = c1;
        const T alpha(0.75), beta(0.5);
        const R got = K.gemm_norm(g.a, g.b, g.m, g.n, g.k, alpha, a.data(), lda, sa, b.data(), ldb,
                                  sb, beta, c1.data(), ldc, sc, g.batch);
        K.gemm(g.a, g.b, g.m, g.n, g.k, alpha, a.data(), lda, sa, b.data(), ldb, sb, beta,
               c2.data(), ldc, sc, g.batch);
        ASSERT_EQ(c1, c2) << threads << " threads, " << g.m << "x" << g.n << "x" << g.k;
        long double want2 = 0;  // in units of scale², in long double (its range is wider)
        const long double scale2 = static_cast<long double>(scale) * scale;
        for (std::size_t i = 0; i < g.batch; ++i)
          for (std::size_t r = 0; r < g.m; ++r)
            for (std::size_t q = 0; q < g.n; ++q) {
              const auto x = std::complex<double>(c1[i * sc + r * ldc + q]);
              want2 += std::norm(std::complex<long double>(x)) / scale2;
            }
        const double want = static_cast<double>(std::sqrt(want2)) * scale;
        EXPECT_NEAR(static_cast<double>(got) / want, 1.0,
                    50 * std::numeric_limits<R>::epsilon())
            << threads << " threads, " << g.m << "x" << g.n << "x" << g.k << " batch " << g.batch
            << " at scale " << scale;
      }
}

// The sweep's GEMM wrapper turns a batch of matrix-vector products into one product; its norm
// is still the norm of the batch's results.
TEST(CountingGemm, NormOfABatchOfMatrixVectorProducts) {
  auto backend = make_cpu_backend(2);
  auto& K = backend->kernels<cdouble>();
  CountingGemm<cdouble> gemm(K);
  std::mt19937_64 gen(3);
  const std::size_t m = 40, k = 30, batch = 25;  // C_i (m × 1) = Aᵀ (m × k) · b_i (k × 1)
  std::vector<cdouble> a(k * m), b(batch * k), c(batch * m), want(batch * m);
  for (auto& x : a) x = value<cdouble>(gen);
  for (auto& x : b) x = value<cdouble>(gen);
  double want2 = 0;
  for (std::size_t i = 0; i < batch; ++i)
    for (std::size_t r = 0; r < m; ++r) {
      cdouble sum = 0;
      for (std::size_t p = 0; p < k; ++p) sum += a[p * m + r] * b[i * k + p];
      want[i * m + r] = sum;
      want2 += std::norm(sum);
    }
  const double got = gemm.with_norm(Op::kTrans, Op::kNone, m, 1, k, cdouble(1), a.data(), m, 0,
                                    b.data(), 1, k, cdouble(0), c.data(), 1, m, batch);
  for (std::size_t i = 0; i < c.size(); ++i) ASSERT_LT(std::abs(c[i] - want[i]), 1e-12);
  EXPECT_NEAR(got, std::sqrt(want2), 1e-12 * std::sqrt(want2));
  EXPECT_EQ(gemm.flops(), 8.0 * m * k * batch);
}

// Memory for n elements that ends where an inaccessible page begins: any read past the end
// faults, as it does at the end of one of the pool's exact-size mappings.
template <class T> struct GuardedBlock {
  explicit GuardedBlock(std::size_t n) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    pages = (n * sizeof(T) + page - 1) / page + 1;
    base = static_cast<char*>(mmap(nullptr, pages * page, PROT_READ | PROT_WRITE,
                                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    mprotect(base + (pages - 1) * page, page, PROT_NONE);
    data = reinterpret_cast<T*>(base + (pages - 1) * page - n * sizeof(T));
    bytes = pages * page;
  }
  ~GuardedBlock() { munmap(base, bytes); }
  char* base;
  std::size_t pages, bytes;
  T* data;
};

// OpenBLAS 0.3.21's complex SVD reads past the end of its arrays: a run at χ̄ = 200 with
// --oversample died in the truncation sweep on a 128 × 128 complex128 A that ended where its
// mapping ended, and the sanitizer suite once in forming Vᴴ (?gesdd → ?ungbr → gemv_n). The
// kernel must not read past A, U or Vᴴ (each ends at an inaccessible page here), and U Σ V* = A.
TYPED_TEST(CpuKernelsTyped, SvdReadsNothingPastTheEndOfItsArrays) {
  using T = TypeParam;
  using R = real_t<T>;
  auto backend = make_cpu_backend(1);
  auto& K = backend->kernels<T>();
  std::mt19937_64 g(3);
  for (auto [m, n] : {std::pair<std::size_t, std::size_t>{128, 128}, {200, 100}, {64, 256},
                      {100, 200}, {150, 150}, {96, 300}}) {
    const std::size_t k = std::min(m, n);
    GuardedBlock<T> a(m * n), u(m * k), vt(k * n);
    std::vector<T> orig(m * n);
    for (auto& x : orig) x = value<T>(g);
    std::copy(orig.begin(), orig.end(), a.data);
    std::vector<R> sigma(k);
    K.svd(m, n, a.data, u.data, sigma.data(), vt.data);
    double worst = 0, scale = 0;
    for (std::size_t i = 0; i < m; i += 7)  // column-major: A[i, j] = Σ_l U[i, l] σ_l Vt[l, j]
      for (std::size_t j = 0; j < n; j += 5) {
        std::complex<double> sum = 0;
        for (std::size_t l = 0; l < k; ++l)
          sum += std::complex<double>(u.data[l * m + i]) * static_cast<double>(sigma[l]) *
                 std::complex<double>(vt.data[j * k + l]);
        worst = std::max(worst, std::abs(sum - std::complex<double>(orig[j * m + i])));
        scale = std::max(scale, std::abs(std::complex<double>(orig[j * m + i])));
      }
    EXPECT_LT(worst, 1e3 * std::numeric_limits<R>::epsilon() * scale * std::sqrt(double(k)))
        << m << " × " << n;
  }
}

// qr and qr_r at every size the kernel treats differently — LAPACK's geqrf below 16 columns,
// the blocked geqrt (and Q from its blocks) from 16 to 127 for real types, geqrf's own blocking
// from 128, wide matrices — against what a QR is: Q's columns orthonormal, Q·R = Y, R upper
// triangular, and qr_r's R qr's (to rounding: complex double's qr is our own, small_qr.hpp).
TYPED_TEST(CpuKernelsTyped, QrIsAQrAtEverySize) {
  using T = TypeParam;
  using R = real_t<T>;
  auto backend = make_cpu_backend(1);
  auto& K = backend->kernels<T>();
  std::mt19937_64 g(5);
  for (auto [m, n] : {std::pair<std::size_t, std::size_t>{40, 9}, {200, 16}, {384, 100}, {130, 127}, {300, 140},
                      {50, 90}, {20, 20}}) {
    const std::size_t k = std::min(m, n);
    std::vector<T> y(m * n), q, r(k * n), r2(k * n);
    for (auto& x : y) x = value<T>(g);
    q = y;
    K.qr(m, n, q.data(), r.data());
    std::vector<T> y2 = y;
    K.qr_r(m, n, y2.data(), r2.data());
    double worst = 0, orth = 0, below = 0, same = 0, scale = 0;
    for (std::size_t i = 0; i < m; ++i)  // column-major: Y[i, j] = Σ_l Q[i, l] R[l, j]
      for (std::size_t j = 0; j < n; ++j) {
        std::complex<double> sum = 0;
        for (std::size_t l = 0; l < k; ++l) sum += std::complex<double>(q[l * m + i]) * std::complex<double>(r[j * k + l]);
        worst = std::max(worst, std::abs(sum - std::complex<double>(y[j * m + i])));
        scale = std::max(scale, std::abs(std::complex<double>(y[j * m + i])));
      }
    for (std::size_t a = 0; a < k; ++a)
      for (std::size_t b = 0; b < k; ++b) {
        std::complex<double> dot = 0;
        for (std::size_t i = 0; i < m; ++i) dot += std::conj(std::complex<double>(q[a * m + i])) * std::complex<double>(q[b * m + i]);
        orth = std::max(orth, std::abs(dot - (a == b ? 1.0 : 0.0)));
      }
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t i = 0; i < k; ++i) {
        if (i > j) below = std::max(below, std::abs(std::complex<double>(r[j * k + i])));
        same = std::max(same, std::abs(std::complex<double>(r[j * k + i]) - std::complex<double>(r2[j * k + i])));
      }
    const double eps = std::numeric_limits<R>::epsilon() * std::sqrt(double(m));
    EXPECT_LT(worst, 50 * eps * scale * std::sqrt(double(k))) << m << " × " << n;
    EXPECT_LT(orth, 50 * eps) << m << " × " << n;
    EXPECT_EQ(below, 0.0) << m << " × " << n;
    EXPECT_LT(same, 50 * eps * scale * std::sqrt(double(m))) << m << " × " << n << ": qr_r's R is qr's";
  }
}

TEST(CpuKernels, ScaleAndTasksCoverEveryElement) {
  auto backend = make_cpu_backend(3);
  auto& K = backend->kernels<double>();
  std::vector<double> x(300007, 2.0);
  K.scale(x.size(), 0.25, x.data());
  for (double v : x) ASSERT_EQ(v, 0.5);
  EXPECT_EQ(K.concurrency(), 3u);
  std::vector<int> hit(64, 0);
  K.for_each_task(hit.size(), [&](std::size_t i) { hit[i] += 1; });
  for (int h : hit) EXPECT_EQ(h, 1);
}

// The sweep split over threads (pieces of sketch columns, panels, batches) gives the
// one-thread result to rounding, for an MPS, an MPO (down leg moved) and a depth-3 stack.
TEST(CpuKernels, SweepOnSeveralThreadsEqualsOneThread) {
  using test::CLayer;
  const std::vector<std::vector<CLayer>> stacks = {
      {{TrainKind::kMpo, random_train<cdouble>(TrainKind::kMpo, 8, 8, 2, 11)},
       {TrainKind::kMps, random_train<cdouble>(TrainKind::kMps, 8, 24, 2, 12)}},
      {{TrainKind::kMpo, random_train<cdouble>(TrainKind::kMpo, 7, 6, 2, 13)},
       {TrainKind::kMpo, random_train<cdouble>(TrainKind::kMpo, 7, 8, 2, 14)}},
      {{TrainKind::kMpo, random_train<cdouble>(TrainKind::kMpo, 6, 4, 2, 15)},
       {TrainKind::kMpo, random_train<cdouble>(TrainKind::kMpo, 6, 3, 2, 16)},
       {TrainKind::kMps, random_train<cdouble>(TrainKind::kMps, 6, 8, 2, 17)}},
      {{TrainKind::kMps, random_train<cdouble>(TrainKind::kMps, 9, 48, 2, 18)}}};
  for (std::size_t i = 0; i < stacks.size(); ++i) {
    const auto data = test::make_stack<cdouble>(stacks[i]);
    SweepOptions o;
    o.chi = 40;
    o.seed = 5;
    std::vector<std::vector<Tensor<cdouble>>> results;
    for (int threads : {1, 2, 3}) {
      auto backend = make_cpu_backend(threads);
      TransferLog log;
      SilentReporter reporter;
      results.push_back(run_sweep(data, o, *backend, log, reporter).cores);
    }
    test::CpuOps<cdouble> ops;
    for (std::size_t r = 1; r < results.size(); ++r)
      EXPECT_LT(ops.relative_distance(results[r], results[0]), 1e-12) << "stack " << i << ", " << r + 1 << " threads";
  }
}

}  // namespace
}  // namespace srcc
