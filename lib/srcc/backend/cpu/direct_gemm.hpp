#pragma once
// A complex-double GEMM for the sweep's small products, run straight from the operands without
// packing them. OpenBLAS packs both operands into its own buffers and clears C before every
// call; for the left step's products (50 × 50 over 100, 256 × 32 over 16, a few hundred
// thousand multiply-adds each, thousands per run) that overhead is as large as the arithmetic.
// Here A's elements are broadcast and B's rows are read in vectors, C is accumulated in
// registers and written once (docs/PERFORMANCE.md has the measurements). One kernel for
// AVX-512, one for AVX2 with FMA; the widest the CPU has is used.
#include <cstddef>

#include "srcc/core/dtype.hpp"

namespace srcc::direct_gemm {

enum class Kernel { kNone, kAvx2, kAvx512 };

// The kernel zgemm() uses: the widest this CPU runs, or the one the SRCC_DIRECT_GEMM environment
// variable names ("0": none, every product then goes to BLAS; "avx2"), read once.
Kernel kernel();

// Whether this CPU runs kernel k (kNone: always).
bool supported(Kernel k);

// C = alpha·op(A)·B + beta·C in row-major storage: op(A) is m × k (A itself when trans_a is
// false, with rows lda apart; its transpose, A being k × m with rows lda apart, when true),
// B is k × n with rows ldb apart, C is m × n with rows ldc apart. beta = 0 writes C without
// reading it. With kernel() (which must not be kNone), or with a kernel k that supported(k).
// Given `sum_squares`, the squares of the real and imaginary parts of every element written to
// C are added to it, taken from the registers as they are stored (no pass over C afterwards).
void zgemm(bool trans_a, std::size_t m, std::size_t n, std::size_t k, cdouble alpha,
           const cdouble* a, std::size_t lda, const cdouble* b, std::size_t ldb, cdouble beta,
           cdouble* c, std::size_t ldc, double* sum_squares = nullptr);
void zgemm(Kernel kernel, bool trans_a, std::size_t m, std::size_t n, std::size_t k,
           cdouble alpha, const cdouble* a, std::size_t lda, const cdouble* b, std::size_t ldb,
           cdouble beta, cdouble* c, std::size_t ldc, double* sum_squares = nullptr);

}  // namespace srcc::direct_gemm
