#pragma once
// Householder QR of the sweep's small complex-double sketches (up to 512 rows), blocked so that
// the work outside each 4-column panel is three products on the direct GEMM kernel. LAPACK's
// zgeqrf/zungqr stay unblocked below 128 columns and call level-2 BLAS column by column, which
// is slower at these sizes (docs/PERFORMANCE.md, "The sketch's QR").
#include <cstddef>

#include "srcc/core/dtype.hpp"

namespace srcc::small_qr {

// Rows up to which householder_qr() applies (its products' contraction is the rows).
inline constexpr std::size_t kMaxRows = 512;

// Y = Q R for column-major Y (m × n, m ≥ n ≥ 1, m ≤ kMaxRows): Q overwrites Y (m × n,
// orthonormal columns), R (n × n upper triangular, column-major) goes to r. The same factors as
// LAPACK's zgeqrf + zungqr up to rounding: the same reflectors, so R's diagonal is real, except
// where what is left of a column is below 1e-290 in norm (nothing left to reflect: that column
// of Q continues the others and R keeps the remainder). Returns false, leaving Y and r as they
// were, when Y holds a NaN or an infinity: the caller's LAPACK path then reports it as before.
// Requires the direct GEMM kernel (direct_gemm::kernel() is not kNone).
bool householder_qr(std::size_t m, std::size_t n, cdouble* y, cdouble* r);

}  // namespace srcc::small_qr
