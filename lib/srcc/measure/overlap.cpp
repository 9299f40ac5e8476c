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

template <class T>
Scaled inner_product_scaled(const std::vector<Tensor<T>>& a, const std::vector<Tensor<T>>& b,
                            Kernels<T>& K) {
  // E is stored transposed, E[β, α], so that both updates are plain row-major GEMMs.
  Buffer<T> e = K.adopt(std::vector<T>(1, T(1)));
  Scaled out;
  for (std::size_t j = 0; j < a.size(); ++j) {
    poll_interrupt();
    const std::size_t al = a[j].shape[kLegL], ar = a[j].shape[kLegR];
    const std::size_t bl = b[j].shape[kLegL], br = b[j].shape[kLegR];
    const std::size_t p = a[j].shape[kLegU] * a[j].shape[kLegD];
    Buffer<T> bj = K.adopt(std::vector<T>(b[j].data));
    Buffer<T> aj = K.adopt(std::vector<T>(a[j].data));
    // T[α, (β' p)] = Σ_β E[β, α] B[β, (β' p)].
    Buffer<T> t = K.allocate(al * br * p);
    K.gemm(Op::kTrans, Op::kNone, al, br * p, bl, T(1), e.data(), al, 0, bj.data(), br * p, 0,
           T(0), t.data(), br * p, 0, 1);
    // E'[β', α'] = Σ_α T_α[β', p] · conj(A_α[α', p])ᵀ, accumulated over α.
    Buffer<T> next = K.allocate(br * ar);
    for (std::size_t alpha = 0; alpha < al; ++alpha)
      K.gemm(Op::kNone, Op::kConjTrans, br, ar, p, T(1), t.data() + alpha * br * p, p, 0,
             aj.data() + alpha * ar * p, p, 0, alpha == 0 ? T(0) : T(1), next.data(), ar, 0, 1);
    const double norm = static_cast<double>(K.norm(br * ar, next.data()));
    if (norm > 0 && std::isfinite(norm)) {
      K.scale(br * ar, static_cast<real_t<T>>(1.0 / norm), next.data());
      out.log_scale += std::log(norm);
    }
    e = std::move(next);
  }
  const auto v = K.download(e, 1);
  // E holds Σ b · conj(a) = ⟨a|b⟩, times e^-log_scale.
  out.value = cdouble(v[0]);
  return out;
}

template <class T>
double log_distance(const std::vector<Tensor<T>>& a, const std::vector<Tensor<T>>& b,
                    Mover<T>& mover, CountingGemm<T>& gemm) {
  const std::size_t n = a.size();
  std::vector<Tensor<T>> c;
  for (std::size_t j = 0; j < n; ++j) {
    poll_interrupt();
    const auto &x = a[j].shape, &y = b[j].shape;
    // Block-diagonal in (l, r); the first site is a row [a, −b], the last a column [a; b].
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
    put(a[j], 0, 0, T(1));
    put(b[j], j == 0 ? 0 : x[kLegL], j + 1 == n ? 0 : x[kLegR], j == 0 ? T(-1) : T(1));
    c.push_back(std::move(t));
  }
  double log_scale = 0;
  right_canonicalize(c, mover, gemm, &log_scale);
  double s = 0;
  for (const auto& v : c.front().data) s += std::norm(std::complex<double>(v));
  return s > 0 ? 0.5 * std::log(s) + log_scale : -std::numeric_limits<double>::infinity();
}

#define SRCC_INSTANTIATE(T)                                                                 \
  template Scaled inner_product_scaled(const std::vector<Tensor<T>>&,                      \
                                       const std::vector<Tensor<T>>&, Kernels<T>&);        \
  template double log_distance(const std::vector<Tensor<T>>&, const std::vector<Tensor<T>>&, \
                               Mover<T>&, CountingGemm<T>&);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
