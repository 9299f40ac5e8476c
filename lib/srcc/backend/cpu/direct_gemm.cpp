#include "srcc/backend/cpu/direct_gemm.hpp"

#include <immintrin.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace srcc::direct_gemm {

namespace {

// The kernel's functions are compiled for AVX-512F whatever the build's target; they are only
// called after available() said the CPU has it.
#define SRCC_AVX512 __attribute__((target("avx512f")))

// Register tile: kRows rows of C by up to kVectors vectors of 4 complex numbers. Each holds two
// accumulators (A's real part times B, A's imaginary part times B): 4 × 3 × 2 = 24 of the 32
// vector registers, 3 more for B's row and 2 for the broadcasts.
constexpr std::size_t kRows = 4;
constexpr std::size_t kVectors = 3;

// How C's old values enter: beta = 0 (not read), beta = 1, or any other beta.
enum class Beta { kZero, kOne, kOther };

struct Scalars {
  cdouble alpha;
  cdouble beta;
  bool alpha_is_one;
  Beta beta_kind;
};

// Real and imaginary parts swapped in each of 4 complex numbers. (The masked form: GCC 12 warns
// about the unmasked one's undefined pass-through operand.)
SRCC_AVX512 inline __m512d swap_parts(__m512d x) { return _mm512_maskz_permute_pd(0xFF, x, 0x55); }

// x·w for 4 complex numbers x (interleaved real, imaginary) and one complex w.
SRCC_AVX512 inline __m512d times(__m512d x, cdouble w) {
  const __m512d swapped = swap_parts(x);
  return _mm512_fmaddsub_pd(x, _mm512_set1_pd(w.real()),
                            _mm512_mul_pd(swapped, _mm512_set1_pd(w.imag())));
}

// One register tile: C[0..R, 0..4V) of a block whose A elements (in doubles) are at
// a + i·ai + p·ak and whose B rows are ldb doubles apart. `last` masks the lanes of the last
// vector that lie inside C (and inside B's rows: masked lanes are neither read nor written).
template <std::size_t R, std::size_t V>
SRCC_AVX512 void tile(std::size_t k, const double* a, std::size_t ai, std::size_t ak,
                      const double* b, std::size_t ldb, double* c, std::size_t ldc,
                      __mmask8 last, const Scalars& s) {
  __m512d re[R][V], im[R][V];
  // The loops over R and V are unrolled so that every accumulator lives in a register.
#pragma GCC unroll 4
  for (std::size_t i = 0; i < R; ++i)
#pragma GCC unroll 3
    for (std::size_t v = 0; v < V; ++v) re[i][v] = im[i][v] = _mm512_setzero_pd();
  for (std::size_t p = 0; p < k; ++p) {
    const double* bp = b + p * ldb;
    __m512d bv[V];
#pragma GCC unroll 3
    for (std::size_t v = 0; v + 1 < V; ++v) bv[v] = _mm512_loadu_pd(bp + 8 * v);
    bv[V - 1] = _mm512_maskz_loadu_pd(last, bp + 8 * (V - 1));
    const double* ap = a + p * ak;
#pragma GCC unroll 4
    for (std::size_t i = 0; i < R; ++i) {
      const __m512d xr = _mm512_set1_pd(ap[i * ai]);
      const __m512d xi = _mm512_set1_pd(ap[i * ai + 1]);
#pragma GCC unroll 3
      for (std::size_t v = 0; v < V; ++v) {
        re[i][v] = _mm512_fmadd_pd(xr, bv[v], re[i][v]);
        im[i][v] = _mm512_fmadd_pd(xi, bv[v], im[i][v]);
      }
    }
  }
  const __m512d one = _mm512_set1_pd(1.0);
#pragma GCC unroll 4
  for (std::size_t i = 0; i < R; ++i)
#pragma GCC unroll 3
    for (std::size_t v = 0; v < V; ++v) {
      // (ar·br − ai·bi, ar·bi + ai·br) from (ar·br, ar·bi) and (ai·br, ai·bi).
      __m512d out = _mm512_fmaddsub_pd(re[i][v], one, swap_parts(im[i][v]));
      if (!s.alpha_is_one) out = times(out, s.alpha);
      double* cp = c + i * ldc + 8 * v;
      const __mmask8 mask = v + 1 == V ? last : __mmask8(0xFF);
      if (s.beta_kind == Beta::kOne)
        out = _mm512_add_pd(out, _mm512_maskz_loadu_pd(mask, cp));
      else if (s.beta_kind == Beta::kOther)
        out = _mm512_add_pd(out, times(_mm512_maskz_loadu_pd(mask, cp), s.beta));
      _mm512_mask_storeu_pd(cp, mask, out);
    }
}

using TileFn = void (*)(std::size_t, const double*, std::size_t, std::size_t, const double*,
                        std::size_t, double*, std::size_t, __mmask8, const Scalars&);

// tiles[R − 1][V − 1]: every edge shape, so no row or column of C needs a scalar loop.
constexpr TileFn kTiles[kRows][kVectors] = {
    {tile<1, 1>, tile<1, 2>, tile<1, 3>},
    {tile<2, 1>, tile<2, 2>, tile<2, 3>},
    {tile<3, 1>, tile<3, 2>, tile<3, 3>},
    {tile<4, 1>, tile<4, 2>, tile<4, 3>},
};

// Lanes (doubles) of a vector holding `count` complex numbers, 1 ≤ count ≤ 4.
__mmask8 lanes(std::size_t count) { return static_cast<__mmask8>((1u << (2 * count)) - 1); }

SRCC_AVX512 void run(bool trans_a, std::size_t m, std::size_t n, std::size_t k,
                     const Scalars& s, const double* a, std::size_t lda, const double* b,
                     std::size_t ldb, double* c, std::size_t ldc) {
  // Strides in doubles: A(i, p) at a + i·ai + p·ak.
  const std::size_t ai = trans_a ? 2 : 2 * lda, ak = trans_a ? 2 * lda : 2;
  const std::size_t vectors = (n + 3) / 4;
  const __mmask8 tail = lanes(n - 4 * (vectors - 1));
  // Column blocks of 3 vectors (12 columns), whose rows of B stay in L1 while every row tile
  // passes over them; 4 vectors left are taken as 2 + 2, not 3 + 1 (a 1-vector tile has too
  // few accumulators to keep the FMA units busy).
  for (std::size_t v0 = 0; v0 < vectors;) {
    const std::size_t left = vectors - v0;
    const std::size_t nv = left == 4 ? 2 : std::min(left, kVectors);
    const __mmask8 mask = v0 + nv == vectors ? tail : __mmask8(0xFF);
    for (std::size_t i0 = 0; i0 < m; i0 += kRows) {
      const std::size_t mr = std::min(kRows, m - i0);
      kTiles[mr - 1][nv - 1](k, a + i0 * ai, ai, ak, b + 8 * v0, 2 * ldb, c + i0 * 2 * ldc + 8 * v0,
                             2 * ldc, mask, s);
    }
    v0 += nv;
  }
}

}  // namespace

bool available() {
  static const bool yes = __builtin_cpu_supports("avx512f");
  return yes;
}

bool enabled() {
  static const bool on = [] {
    const char* v = std::getenv("SRCC_DIRECT_GEMM");
    return v == nullptr || std::strcmp(v, "0") != 0;
  }();
  return on;
}

void zgemm(bool trans_a, std::size_t m, std::size_t n, std::size_t k, cdouble alpha,
           const cdouble* a, std::size_t lda, const cdouble* b, std::size_t ldb, cdouble beta,
           cdouble* c, std::size_t ldc) {
  if (m == 0 || n == 0) return;
  const Scalars s{alpha, beta, alpha == cdouble(1),
                  beta == cdouble(0) ? Beta::kZero
                                     : (beta == cdouble(1) ? Beta::kOne : Beta::kOther)};
  run(trans_a, m, n, k, s, reinterpret_cast<const double*>(a), lda,
      reinterpret_cast<const double*>(b), ldb, reinterpret_cast<double*>(c), ldc);
}

}  // namespace srcc::direct_gemm
