#include "srcc/measure/overlap.hpp"

#include <cmath>
#include <limits>

#include "srcc/core/interrupt.hpp"
#include "srcc/sweep/truncation_sweep.hpp"
#include "srcc/train/layout.hpp"

namespace srcc {

double Scaled::log_abs() const {
  const double m = std::abs(value);
  return m > 0 ? std::log(m) + log_scale : -std::numeric_limits<double>::infinity();
}

cdouble Scaled::plain() const {
  return value == cdouble(0) ? cdouble(0) : value * std::exp(log_scale);  // 0 · ∞ is no NaN
}

namespace {

// The site's values brought to a norm in [1/2, 1) by a power of two (exact), whose logarithm is
// added to `log_scale` (a site of norm 0 is copied as it is).
template <class T> std::vector<T> unit_copy(const Tensor<T>& t, double& log_scale) {
  std::vector<T> out(t.data);
  const int e = site_exponent(t);
  if (e != 0) {
    const int first = -e / 2, second = -e - first;  // two steps: 2^-e itself may overflow
    for (auto& v : out) v *= static_cast<real_t<T>>(std::ldexp(1.0, first));
    for (auto& v : out) v *= static_cast<real_t<T>>(std::ldexp(1.0, second));
    log_scale += e * std::log(2.0);
  }
  return out;
}

}  // namespace

template <class T>
InnerProduct<T>::InnerProduct(Kernels<T>& kernels)
    : K_(kernels), e_(kernels.adopt(std::vector<T>(1, T(1)))) {}

template <class T> void InnerProduct<T>::add(const Tensor<T>& a, const Tensor<T>& b) {
  // E is stored transposed, E[β, α], so that both updates are plain row-major GEMMs.
  poll_interrupt();
  const std::size_t al = a.shape[kLegL], ar = a.shape[kLegR];
  const std::size_t bl = b.shape[kLegL], br = b.shape[kLegR];
  const std::size_t p = a.shape[kLegU] * a.shape[kLegD];
  // Each site at unit norm, its norm moved into the scale: the products of sites with entries
  // of 1e-300 would underflow before the transfer matrix could be rescaled.
  Buffer<T> bj = K_.adopt(unit_copy(b, log_scale_));
  Buffer<T> aj = K_.adopt(unit_copy(a, log_scale_));
  // T[α, (β' p)] = Σ_β E[β, α] B[β, (β' p)].
  Buffer<T> t = K_.allocate(al * br * p);
  K_.gemm(Op::kTrans, Op::kNone, al, br * p, bl, T(1), e_.data(), al, 0, bj.data(), br * p, 0,
          T(0), t.data(), br * p, 0, 1);
  // E'[β', α'] = Σ_α T_α[β', p] · conj(A_α[α', p])ᵀ, accumulated over α.
  Buffer<T> next = K_.allocate(br * ar);
  for (std::size_t alpha = 0; alpha < al; ++alpha)
    K_.gemm(Op::kNone, Op::kConjTrans, br, ar, p, T(1), t.data() + alpha * br * p, p, 0,
            aj.data() + alpha * ar * p, p, 0, alpha == 0 ? T(0) : T(1), next.data(), ar, 0, 1);
  const double norm = static_cast<double>(K_.norm(br * ar, next.data()));
  if (norm > 0 && std::isfinite(norm)) {
    K_.scale(br * ar, static_cast<real_t<T>>(1.0 / norm), next.data());
    log_scale_ += std::log(norm);
  }
  e_ = std::move(next);
}

template <class T> Scaled InnerProduct<T>::value() const {
  const auto v = K_.download(e_, 1);
  // E holds Σ b · conj(a) = ⟨a|b⟩, times e^-log_scale.
  return Scaled{cdouble(v[0]), log_scale_};
}

namespace {

// Site j of the train a − b: block-diagonal in (l, r); the first site is a row [a, −b], the
// last a column [a; b].
template <class T>
Tensor<T> difference_site(const Tensor<T>& a, const Tensor<T>& b, std::size_t j, std::size_t n) {
  const auto &x = a.shape, &y = b.shape;
  const std::size_t l = j == 0 ? 1 : x[kLegL] + y[kLegL];
  const std::size_t r = j + 1 == n ? 1 : x[kLegR] + y[kLegR];
  const std::size_t p = x[kLegU] * x[kLegD];
  Tensor<T> t({l, r, x[kLegU], x[kLegD]});
  auto put = [&](const Tensor<T>& src, std::size_t l0, std::size_t r0, T sign) {
    const std::size_t sl = src.shape[kLegL], sr = src.shape[kLegR];
    for (std::size_t i = 0; i < sl; ++i)
      for (std::size_t k = 0; k < sr; ++k)
        for (std::size_t q = 0; q < p; ++q)
          t.data[((l0 + i) * r + (r0 + k)) * p + q] = sign * src.data[(i * sr + k) * p + q];
  };
  std::fill(t.data.begin(), t.data.end(), T(0));
  put(a, 0, 0, T(1));
  put(b, j == 0 ? 0 : x[kLegL], j + 1 == n ? 0 : x[kLegR], j == 0 ? T(-1) : T(1));
  return t;
}

}  // namespace

std::size_t distance_step_elements(const SiteDims& a, const SiteDims& b) {
  const std::size_t ud = a[kLegU] * a[kLegD];
  const std::size_t site = (a[kLegL] + b[kLegL]) * (a[kLegR] + b[kLegR]) * ud;
  // The new difference site, the carried one (at most as large), their QR factor and product.
  return 4 * site;
}

template <class T>
DistanceFromRight<T>::DistanceFromRight(Mover<T>& mover, CountingGemm<T>& gemm, std::size_t sites,
                                        double log_site_norm_ratio)
    : mover_(mover),
      gemm_(gemm),
      n_(sites),
      next_(sites),
      log_ratio_per_site_(sites > 0 ? log_site_norm_ratio / static_cast<double>(sites) : 0.0) {}

template <class T> void DistanceFromRight<T>::add(const Tensor<T>& a, const Tensor<T>& b) {
  poll_interrupt();
  const std::size_t j = --next_;
  // a_j / ‖a_j‖ · r and b_j / ‖b_j‖ with r^n the ratio of the trains' scales; the factor taken
  // out, ‖b_j‖, goes to the scale. (A site of norm 0 stays as it is.)
  double log_a = 0, log_b = 0;
  Tensor<T> ua(a.shape, unit_copy(a, log_a)), ub(b.shape, unit_copy(b, log_b));
  const auto factor = static_cast<real_t<T>>(std::exp(log_ratio_per_site_));
  for (auto& v : ua.data) v *= factor;
  log_scale_ += log_b;
  Tensor<T> site = difference_site(ua, ub, j, n_);
  if (j + 1 == n_) {
    carry_ = std::move(site);
    return;
  }
  // Core j+1 = L · Q with orthonormal rows; L moves into site j, which becomes the carry.
  std::vector<Tensor<T>> pair;
  pair.push_back(std::move(site));
  pair.push_back(std::move(carry_));
  right_canonicalize(pair, mover_, gemm_, &log_scale_);
  carry_ = std::move(pair.front());
}

template <class T> double DistanceFromRight<T>::log_value() const {
  double s = 0;
  for (const auto& v : carry_.data) s += std::norm(std::complex<double>(v));
  return s > 0 ? 0.5 * std::log(s) + log_scale_ : -std::numeric_limits<double>::infinity();
}

#define SRCC_INSTANTIATE(T)   \
  template class InnerProduct<T>; \
  template class DistanceFromRight<T>;
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
