#include "srcc/sweep/range_finder.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>

#include "srcc/sweep/truncation.hpp"

namespace srcc {

template <class T>
RangeFinder<T>::RangeFinder(Mover<T>& mover, CountingGemm<T>& gemm, std::size_t rows,
                            std::size_t max_columns, std::int64_t site)
    : mover_(mover), K_(mover.kernels()), gemm_(gemm), rows_(rows), max_(max_columns), site_(site) {
  q_ = K_.allocate(rows_ * std::min(rows_, max_));
  r_.assign(max_ * max_, T(0));
}

template <class T> void RangeFinder<T>::add(Buffer<T> y, std::size_t b) {
  if (b == 0) return;
  const std::size_t k0 = k_;
  std::vector<T> proj;  // R' (k0 × b, column-major)
  if (k0 > 0) {
    // Two rounds of classical Gram–Schmidt against Q keep the new columns orthogonal to
    // working precision ("twice is enough").
    Buffer<T> x = K_.allocate(b * k0);
    proj.assign(k0 * b, T(0));
    for (int round = 0; round < 2; ++round) {
      // X[b, k0] = Yᵀ conj(Q), i.e. R' = Q* Y' read column-major; then Y' −= Q R'.
      gemm_(Op::kNone, Op::kConjTrans, b, k0, rows_, T(1), y.data(), rows_, q_.data(), rows_,
            T(0), x.data(), k0);
      gemm_(Op::kNone, Op::kNone, b, rows_, k0, T(-1), x.data(), k0, q_.data(), rows_, T(1),
            y.data(), rows_);
      const auto host = down(x, b * k0);
      for (std::size_t i = 0; i < k0 * b; ++i) proj[i] += host[i];
    }
  }
  const std::size_t kb = std::min(b, rows_ - k0);  // new orthonormal columns
  Buffer<T> rb = K_.allocate(kb * b);
  K_.qr(rows_, b, y.data(), rb.data());
  auto rnew = down(rb, kb * b);  // R'' (kb × b, column-major)
  if (k0 > 0) {
    // When the residual is at rounding level (the range is nearly complete) its QR returns
    // directions that are not orthogonal to Q. Project them out once more and re-factor:
    // Q'' = Q C + Q₂ T gives the exact update R' += C R'', R'' ← T R''.
    Buffer<T> c = K_.allocate(kb * k0);
    gemm_(Op::kNone, Op::kConjTrans, kb, k0, rows_, T(1), y.data(), rows_, q_.data(), rows_,
          T(0), c.data(), k0);
    gemm_(Op::kNone, Op::kNone, kb, rows_, k0, T(-1), c.data(), k0, q_.data(), rows_, T(1),
          y.data(), rows_);
    Buffer<T> tb = K_.allocate(kb * kb);
    K_.qr(rows_, kb, y.data(), tb.data());
    const auto ch = down(c, kb * k0);  // C (k0 × kb, column-major)
    const auto th = down(tb, kb * kb);
    std::vector<T> updated(kb * b, T(0));
    for (std::size_t col = 0; col < b; ++col)
      for (std::size_t m = 0; m < kb; ++m) {
        const T x = rnew[col * kb + m];
        if (x == T(0)) continue;
        for (std::size_t i = 0; i < k0; ++i) proj[col * k0 + i] += ch[m * k0 + i] * x;
        for (std::size_t i = 0; i <= m; ++i) updated[col * kb + i] += th[m * kb + i] * x;
      }
    rnew = std::move(updated);
  }
  K_.copy(rows_ * kb, y.data(), q_.data() + rows_ * k0);
  for (std::size_t c = 0; c < b; ++c) {
    for (std::size_t i = 0; i < k0; ++i) r_[(s_ + c) * max_ + i] = proj[c * k0 + i];
    for (std::size_t i = 0; i < kb; ++i) r_[(s_ + c) * max_ + k0 + i] = rnew[c * kb + i];
  }
  s_ += b;
  k_ += kb;
}

template <class T> RangeEstimate RangeFinder<T>::estimate() {
  using R = real_t<T>;
  RangeEstimate e;
  double fro = 0;
  for (std::size_t c = 0; c < s_; ++c)
    for (std::size_t i = 0; i < std::min(c + 1, k_); ++i) fro += std::norm(std::complex<double>(r_[c * max_ + i]));
  e.norm = std::sqrt(fro / static_cast<double>(std::max<std::size_t>(s_, 1)));
  // Fewer orthonormal columns than sketch columns: Q spans every row (exact).
  if (k_ < s_ || exhausted()) return e;
  // A sketch column that lies in the span of the others (to rounding, relative to its own
  // norm) means the block has fewer dimensions than the sketch has columns: the range is
  // complete. The test is per column: the sketch's columns are Khatri–Rao products whose norms
  // differ by many orders of magnitude, so a small diagonal entry of R next to a large one
  // says nothing (judged that way, long trains stopped sketching early in tolerance mode with
  // errors 1000× the tolerance).
  const double eps = std::numeric_limits<R>::epsilon();
  for (std::size_t c = 0; c < k_; ++c) {
    double column = 0;
    for (std::size_t i = 0; i <= c; ++i) column += std::norm(std::complex<double>(r_[c * max_ + i]));
    const double d = std::abs(std::complex<double>(r_[c * max_ + c]));
    if (!(d > eps * static_cast<double>(k_) * std::sqrt(column))) return e;
  }
  // ‖(I − P_{−i}) y_i‖ = 1 / ‖row i of R⁻¹‖: the error of the range without column i.
  std::vector<T> square(k_ * k_);
  for (std::size_t c = 0; c < k_; ++c)
    for (std::size_t i = 0; i < k_; ++i) square[c * k_ + i] = i <= c ? r_[c * max_ + i] : T(0);
  Buffer<T> inv = up(std::move(square));
  K_.upper_inverse(k_, inv.data());
  const auto h = down(inv, k_ * k_);
  double sum = 0;
  for (std::size_t i = 0; i < k_; ++i) {
    double row = 0;
    for (std::size_t c = i; c < k_; ++c) row += std::norm(std::complex<double>(h[c * k_ + i]));
    sum += 1.0 / row;
  }
  e.error = std::sqrt(sum / static_cast<double>(k_));
  return e;
}

template <class T>
Buffer<T> RangeFinder<T>::core(std::size_t cap, double cutoff, double tol, std::size_t& rank_out,
                               bool numerical_zeros) {
  using R = real_t<T>;
  // R (k × s, column-major, upper part) as the SVD's input: as it is, or with each column scaled
  // to norm 1 when only numerically zero directions are looked for. The sketch's columns may
  // differ in norm by orders of magnitude (long trains), so a small singular value of R itself
  // is no sign of rounding; a column whose own new part, R_ii, is at rounding level relative to
  // its norm is (it lies in the span of those before it), and then the SVD of the normalized R
  // finds the directions all columns miss. The test is loose (a hundred times the level: an
  // SVD too many costs time, never accuracy; a thousand times took SVDs at full rank on the
  // paper's random products, 4% of the sweep); the SVD's rule is the strict one. At full rank no
  // diagonal is near that level and nothing is computed: the core is Q.
  std::vector<double> column_norm(s_, 0.0);
  for (std::size_t c = 0; c < s_; ++c) {
    for (std::size_t i = 0; i <= c && i < k_; ++i) column_norm[c] += std::norm(std::complex<double>(r_[c * max_ + i]));
    column_norm[c] = std::sqrt(column_norm[c]);
  }
  bool dependent = false;
  if (numerical_zeros)
    for (std::size_t i = 0; i < std::min(k_, s_) && !dependent; ++i)
      dependent = std::abs(std::complex<double>(r_[i * max_ + i])) <= 100 * numerical_zero<R>() * column_norm[i];
  const bool by_rule = cutoff > 0 || tol > 0 || (cap > 0 && cap < k_);
  if (!by_rule && !dependent) {
    rank_out = k_;
    return std::move(q_);  // column-major rows × k is row-major k × rows: the core
  }
  // Truncate through the SVD of R (k × s): the core becomes Q · U[:, :rank].
  const bool normalized = dependent && !by_rule;
  std::vector<T> rk(k_ * s_);
  for (std::size_t c = 0; c < s_; ++c) {
    const double scale = normalized && column_norm[c] > 0 ? 1.0 / column_norm[c] : 1.0;
    for (std::size_t i = 0; i < k_; ++i)
      rk[c * k_ + i] = i <= c ? T(r_[c * max_ + i] * static_cast<R>(scale)) : T(0);
  }
  const std::size_t kk = std::min(k_, s_);
  Buffer<T> a = up(std::move(rk));
  Buffer<T> u = K_.allocate(k_ * kk), vt = K_.allocate(kk * s_);
  std::vector<R> sigma(kk);
  K_.svd(k_, s_, a.data(), u.data(), sigma.data(), vt.data());
  rank_out = truncation_rank(sigma, effective_cutoff<R>(cutoff, numerical_zeros), tol, cap);
  Buffer<T> out = K_.allocate(rank_out * rows_);
  // Row-major (rank × rows) = U[:, :rank]ᵀ (rows of the row-major view of U) · Qᵀ.
  gemm_(Op::kNone, Op::kNone, rank_out, rows_, k_, T(1), u.data(), k_, q_.data(), rows_, T(0),
        out.data(), rows_);
  return out;
}

#define SRCC_INSTANTIATE(T) template class RangeFinder<T>;
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
