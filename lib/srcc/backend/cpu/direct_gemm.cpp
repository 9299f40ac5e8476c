#include "srcc/backend/cpu/direct_gemm.hpp"

#include <immintrin.h>

#include <array>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace srcc::direct_gemm {

namespace {

// How C's old values enter: beta = 0 (not read), beta = 1, or any other beta.
enum class Beta { kZero, kOne, kOther };

struct Scalars {
  cdouble alpha;
  cdouble beta;
  bool alpha_is_one;
  Beta beta_kind;
  double* sum_squares;  // null, or where the squares of the stored values are added
  double* lane_sums;    // run()'s per-lane running sums of those squares, for the tiles
};

// Each kernel's functions are compiled for its instruction set whatever the build's target
// (SRCC_TARGET); they are only called after the CPU was seen to have it.

namespace avx512 {
#define SRCC_TARGET __attribute__((target("avx512f")))
// 512-bit vectors of 4 complex numbers. Register tile 4 rows × 3 vectors: 2 accumulators each,
// 24 of the 32 vector registers, 3 more for B's row and 2 for the broadcasts.
struct Isa {
  using V = __m512d;
  using Mask = __mmask8;  // one bit a double
  static constexpr std::size_t kWidth = 4, kRows = 4, kVectors = 3;
  SRCC_TARGET static V zero() { return _mm512_setzero_pd(); }
  SRCC_TARGET static V set1(double x) { return _mm512_set1_pd(x); }
  SRCC_TARGET static V load(const double* p) { return _mm512_loadu_pd(p); }
  // Lanes outside the mask read as 0 and are not touched in memory (no fault past an end).
  SRCC_TARGET static V load(Mask m, const double* p) { return _mm512_maskz_loadu_pd(m, p); }
  SRCC_TARGET static void store(Mask m, double* p, V x) { _mm512_mask_storeu_pd(p, m, x); }
  SRCC_TARGET static V fmadd(V a, V b, V c) { return _mm512_fmadd_pd(a, b, c); }
  // a·b − c in the real lanes, a·b + c in the imaginary ones.
  SRCC_TARGET static V fmaddsub(V a, V b, V c) { return _mm512_fmaddsub_pd(a, b, c); }
  SRCC_TARGET static V mul(V a, V b) { return _mm512_mul_pd(a, b); }
  SRCC_TARGET static V add(V a, V b) { return _mm512_add_pd(a, b); }
  // Real and imaginary parts swapped. (The masked form: GCC 12 warns about the unmasked one's
  // undefined pass-through operand.)
  SRCC_TARGET static V swap(V x) { return _mm512_maskz_permute_pd(0xFF, x, 0x55); }
  static Mask full() { return 0xFF; }
  static Mask lanes(std::size_t complex_count) {  // 1 ≤ complex_count ≤ kWidth
    return static_cast<Mask>((1u << (2 * complex_count)) - 1);
  }
};
#include "srcc/backend/cpu/direct_gemm_tiles.inc"
#undef SRCC_TARGET
}  // namespace avx512

namespace avx2 {
#define SRCC_TARGET __attribute__((target("avx2,fma")))
// 256-bit vectors of 2 complex numbers. Register tile 3 rows × 2 vectors: 12 accumulators of
// the 16 vector registers, 2 for B's row and 2 for the broadcasts.
struct Isa {
  using V = __m256d;
  using Mask = __m256i;  // all ones in a lane that is inside
  static constexpr std::size_t kWidth = 2, kRows = 3, kVectors = 2;
  SRCC_TARGET static V zero() { return _mm256_setzero_pd(); }
  SRCC_TARGET static V set1(double x) { return _mm256_set1_pd(x); }
  SRCC_TARGET static V load(const double* p) { return _mm256_loadu_pd(p); }
  SRCC_TARGET static V load(Mask m, const double* p) { return _mm256_maskload_pd(p, m); }
  SRCC_TARGET static void store(Mask m, double* p, V x) { _mm256_maskstore_pd(p, m, x); }
  SRCC_TARGET static V fmadd(V a, V b, V c) { return _mm256_fmadd_pd(a, b, c); }
  SRCC_TARGET static V fmaddsub(V a, V b, V c) { return _mm256_fmaddsub_pd(a, b, c); }
  SRCC_TARGET static V mul(V a, V b) { return _mm256_mul_pd(a, b); }
  SRCC_TARGET static V add(V a, V b) { return _mm256_add_pd(a, b); }
  SRCC_TARGET static V swap(V x) { return _mm256_permute_pd(x, 0x5); }
  SRCC_TARGET static Mask full() { return _mm256_set1_epi64x(-1); }
  SRCC_TARGET static Mask lanes(std::size_t complex_count) {  // 1 ≤ complex_count ≤ kWidth
    return complex_count >= 2 ? full() : _mm256_set_epi64x(0, 0, -1, -1);
  }
};
#include "srcc/backend/cpu/direct_gemm_tiles.inc"
#undef SRCC_TARGET
}  // namespace avx2

// The widest kernel this CPU runs, checked once; SRCC_DIRECT_GEMM picks another for
// comparisons ("0" none, "avx2").
Kernel chosen() {
  static const Kernel k = [] {
    const char* v = std::getenv("SRCC_DIRECT_GEMM");
    const bool has512 = __builtin_cpu_supports("avx512f");
    const bool has2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    if (v != nullptr && std::strcmp(v, "0") == 0) return Kernel::kNone;
    if (v != nullptr && std::strcmp(v, "avx2") == 0) return has2 ? Kernel::kAvx2 : Kernel::kNone;
    return has512 ? Kernel::kAvx512 : (has2 ? Kernel::kAvx2 : Kernel::kNone);
  }();
  return k;
}

}  // namespace

Kernel kernel() { return chosen(); }

bool supported(Kernel k) {
  switch (k) {
    case Kernel::kAvx512: return __builtin_cpu_supports("avx512f");
    case Kernel::kAvx2: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case Kernel::kNone: break;
  }
  return true;
}

void zgemm(Kernel k, bool trans_a, std::size_t m, std::size_t n, std::size_t kk, cdouble alpha,
           const cdouble* a, std::size_t lda, const cdouble* b, std::size_t ldb, cdouble beta,
           cdouble* c, std::size_t ldc, double* sum_squares) {
  if (m == 0 || n == 0) return;
  const Scalars s{alpha, beta, alpha == cdouble(1),
                  beta == cdouble(0) ? Beta::kZero
                                     : (beta == cdouble(1) ? Beta::kOne : Beta::kOther),
                  sum_squares, nullptr};
  const auto* ad = reinterpret_cast<const double*>(a);
  const auto* bd = reinterpret_cast<const double*>(b);
  auto* cd = reinterpret_cast<double*>(c);
  if (k == Kernel::kAvx512) avx512::run(trans_a, m, n, kk, s, ad, lda, bd, ldb, cd, ldc);
  else if (k == Kernel::kAvx2) avx2::run(trans_a, m, n, kk, s, ad, lda, bd, ldb, cd, ldc);
}

void zgemm(bool trans_a, std::size_t m, std::size_t n, std::size_t k, cdouble alpha,
           const cdouble* a, std::size_t lda, const cdouble* b, std::size_t ldb, cdouble beta,
           cdouble* c, std::size_t ldc, double* sum_squares) {
  zgemm(kernel(), trans_a, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, sum_squares);
}

}  // namespace srcc::direct_gemm
