#include "srcc/backend/cpu/small_qr.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "srcc/backend/cpu/direct_gemm.hpp"
#include "srcc/core/scaled_norm.hpp"

namespace srcc::small_qr {

namespace {

// Columns a panel factors with level-2 loops before the rest of the matrix is updated with
// products: small, because those loops run at a fraction of the products' rate (panel widths
// measured in docs/PERFORMANCE.md, "The sketch's QR").
constexpr std::size_t kPanel = 4;

// Below this, what is left of a column is taken as nothing (no reflector: 1/(α − β) would
// overflow).
constexpr double kTiny = 1e-290;

// ‖x‖ for n complex numbers, scaled so that the squares neither overflow nor underflow.
double norm2(const cdouble* x, std::size_t n) {
  return scaled_norm(reinterpret_cast<const double*>(x), 2 * n);
}

// The reflector H = I − τ v vᴴ (v₀ = 1) with Hᴴ x = (β, 0, …, 0), β real, as LAPACK's zlarfg:
// x (length len) is overwritten with (β, v₁, …); returns τ.
cdouble reflector(cdouble* x, std::size_t len) {
  const cdouble alpha = x[0];
  const double rest = norm2(x + 1, len - 1);
  if (rest == 0 && alpha.imag() == 0) return 0;  // already (α, 0, …): H = I
  const double size = std::hypot(std::abs(alpha), rest);
  if (size < kTiny) return 0;  // nothing left to reflect
  const double beta = alpha.real() >= 0 ? -size : size;
  const cdouble tau((beta - alpha.real()) / beta, -alpha.imag() / beta);
  const cdouble scale = 1.0 / (alpha - beta);
  for (std::size_t i = 1; i < len; ++i) x[i] *= scale;
  x[0] = beta;
  return tau;
}

// The loops below work on the doubles of complex arrays: std::complex's product checks its
// result for NaNs (C99's rules), which keeps the compiler from vectorising them.

// Σ conj(v_r) a_r over r < len, with v₀ = 1 (v's own first entry is not read). Two sets of
// sums, so that the additions do not wait on each other.
cdouble dot_v(const cdouble* v, const cdouble* a, std::size_t len) {
  const double* vd = reinterpret_cast<const double*>(v);
  const double* ad = reinterpret_cast<const double*>(a);
  double re[2] = {ad[0], 0}, im[2] = {ad[1], 0};
  std::size_t r = 1;
  for (; r + 1 < len; r += 2)
    for (std::size_t u = 0; u < 2; ++u) {
      const double vr = vd[2 * (r + u)], vi = vd[2 * (r + u) + 1];
      const double ar = ad[2 * (r + u)], ai = ad[2 * (r + u) + 1];
      re[u] += vr * ar + vi * ai;
      im[u] += vr * ai - vi * ar;
    }
  for (; r < len; ++r) {
    const double vr = vd[2 * r], vi = vd[2 * r + 1], ar = ad[2 * r], ai = ad[2 * r + 1];
    re[0] += vr * ar + vi * ai;
    im[0] += vr * ai - vi * ar;
  }
  return {re[0] + re[1], im[0] + im[1]};
}

// a −= c·v with v₀ = 1.
void axpy_v(cdouble c, const cdouble* v, cdouble* a, std::size_t len) {
  a[0] -= c;
  const double cr = c.real(), ci = c.imag();
  const double* vd = reinterpret_cast<const double*>(v);
  double* ad = reinterpret_cast<double*>(a);
  for (std::size_t r = 1; r < len; ++r) {
    const double vr = vd[2 * r], vi = vd[2 * r + 1];
    ad[2 * r] -= cr * vr - ci * vi;
    ad[2 * r + 1] -= cr * vi + ci * vr;
  }
}

// One panel: its reflectors' vectors (unit lower trapezoidal, explicit ones and zeros), column-
// major rows × width, and the triangular factor T of the block reflector H₁⋯H_w = I − V T Vᴴ.
struct Panel {
  std::size_t first = 0, width = 0, rows = 0;
  std::vector<cdouble> v, t;  // v: rows × width; t: width × width, column-major
};

// X ← X − V M' (Vᴴ X) for the m' × cols block X of a column-major matrix (leading dimension
// ld) at x, with M' = Tᴴ (applying (H₁⋯H_w)ᴴ, factoring) or M' = T (applying H₁⋯H_w, forming
// Q). In row-major terms X is Xr = Xᵀ (cols × m'): Wr = Xr · conj(V), Wr ← Wr · M'ᵀ, and
// Xr −= Wr · Vᵀ, three products on the direct kernel.
void apply_block(const Panel& p, bool adjoint, cdouble* x, std::size_t ld, std::size_t cols) {
  if (cols == 0) return;
  const std::size_t w = p.width, rows = p.rows;
  std::vector<cdouble> vc(rows * w), mt(w * w), wr(cols * w), w2(cols * w);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t i = 0; i < w; ++i) vc[r * w + i] = std::conj(p.v[i * rows + r]);
  // M'ᵀ row-major (w × w): element (a, b) = M'(b, a); M' = Tᴴ gives conj(T(a, b)), M' = T gives
  // T(b, a).
  for (std::size_t a = 0; a < w; ++a)
    for (std::size_t b = 0; b < w; ++b)
      mt[a * w + b] = adjoint ? std::conj(p.t[b * w + a]) : p.t[a * w + b];
  using direct_gemm::zgemm;
  zgemm(false, cols, w, rows, 1.0, x, ld, vc.data(), w, 0.0, wr.data(), w);
  zgemm(false, cols, w, w, 1.0, wr.data(), w, mt.data(), w, 0.0, w2.data(), w);
  zgemm(false, cols, rows, w, -1.0, w2.data(), w, p.v.data(), rows, 1.0, x, ld);
}

// Factors columns first … first+width of the column-major m × n matrix a (leading dimension m)
// on rows first … m: reflectors in place below the diagonal, R's entries on and above it; the
// panel's V and T are returned.
Panel factor_panel(cdouble* a, std::size_t m, std::size_t first, std::size_t width) {
  Panel p;
  p.first = first;
  p.width = width;
  p.rows = m - first;
  std::vector<cdouble> tau(width);
  for (std::size_t i = 0; i < width; ++i) {
    const std::size_t col = first + i, len = m - col;
    cdouble* x = a + col * m + col;
    tau[i] = reflector(x, len);
    // Hᴴ = I − conj(τ) v vᴴ on the panel's later columns.
    for (std::size_t c = col + 1; c < first + width; ++c) {
      cdouble* y = a + c * m + col;
      axpy_v(std::conj(tau[i]) * dot_v(x, y, len), x, y, len);
    }
  }
  // V with its ones and zeros written out.
  p.v.assign(p.rows * width, cdouble(0));
  for (std::size_t i = 0; i < width; ++i) {
    cdouble* vi = p.v.data() + i * p.rows;
    vi[i] = 1;
    for (std::size_t r = i + 1; r < p.rows; ++r) vi[r] = a[(first + i) * m + first + r];
  }
  // T column by column: T(i, i) = τ_i, T(0:i, i) = −τ_i T(0:i, 0:i) V(:, 0:i)ᴴ v_i.
  p.t.assign(width * width, cdouble(0));
  std::vector<cdouble> z(width);
  for (std::size_t i = 0; i < width; ++i) {
    const cdouble* vi = p.v.data() + i * p.rows;
    for (std::size_t c = 0; c < i; ++c) {
      // V(:, c)ᴴ v_i over the rows where v_i is not zero (its row i is 1).
      const cdouble* vc = p.v.data() + c * p.rows;
      z[c] = std::conj(dot_v(vi + i, vc + i, p.rows - i));
    }
    for (std::size_t c = 0; c < i; ++c) {
      cdouble s = 0;
      for (std::size_t q = c; q < i; ++q) s += p.t[q * width + c] * z[q];
      p.t[i * width + c] = -tau[i] * s;
    }
    p.t[i * width + i] = tau[i];
  }
  return p;
}

}  // namespace

bool householder_qr(std::size_t m, std::size_t n, cdouble* y, cdouble* r) {
  for (std::size_t i = 0; i < m * n; ++i)
    if (!std::isfinite(y[i].real()) || !std::isfinite(y[i].imag())) return false;
  std::vector<Panel> panels;
  for (std::size_t first = 0; first < n; first += kPanel) {
    const std::size_t width = std::min(kPanel, n - first);
    panels.push_back(factor_panel(y, m, first, width));
    // (H₁⋯H_w)ᴴ on the columns to the right, rows first … m.
    apply_block(panels.back(), true, y + (first + width) * m + first, m, n - first - width);
  }
  for (std::size_t c = 0; c < n; ++c)
    for (std::size_t i = 0; i < n; ++i) r[c * n + i] = i <= c ? y[c * m + i] : cdouble(0);
  // Q = H₁ H₂ ⋯ applied to the first n columns of the identity, last panel first: each panel's
  // block reflector on the columns already formed to its right, then its own columns, which
  // are those of I − V T Vᴴ (rows above the panel are zero).
  for (std::size_t k = panels.size(); k-- > 0;) {
    const Panel& p = panels[k];
    const std::size_t end = p.first + p.width;
    apply_block(p, false, y + end * m + p.first, m, n - end);
    // Columns first … end: E − V (T V_topᴴ), E the identity's columns on rows first … m.
    const std::size_t w = p.width;
    std::vector<cdouble> mtop(w * w);  // M = T V_topᴴ, column-major w × w
    for (std::size_t c = 0; c < w; ++c)
      for (std::size_t i = 0; i < w; ++i) {
        cdouble s = 0;
        for (std::size_t q = i; q < w; ++q) s += p.t[q * w + i] * std::conj(p.v[q * p.rows + c]);
        mtop[c * w + i] = s;
      }
    // The panel's columns as rows (row-major w × rows at y + first·m + first, leading
    // dimension m): Eᵀ − Mᵀ Vᵀ, with M column-major being Mᵀ row-major and V column-major
    // being Vᵀ row-major.
    cdouble* block = y + p.first * m + p.first;
    for (std::size_t c = 0; c < w; ++c) {
      std::fill(y + (p.first + c) * m, y + (p.first + c + 1) * m, cdouble(0));
      block[c * m + c] = 1;
    }
    direct_gemm::zgemm(false, w, p.rows, w, -1.0, mtop.data(), w, p.v.data(), p.rows, 1.0, block,
                       m);
  }
  return true;
}

}  // namespace srcc::small_qr
