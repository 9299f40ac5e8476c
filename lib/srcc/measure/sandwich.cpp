#include "srcc/measure/sandwich.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>

#include "srcc/core/interrupt.hpp"
#include "srcc/core/permute.hpp"
#include "srcc/sweep/truncation_sweep.hpp"
#include "srcc/train/layout.hpp"

namespace srcc {

namespace {
std::size_t product_of(const std::vector<std::size_t>& v, std::size_t from, std::size_t to) {
  return std::accumulate(v.begin() + static_cast<long>(from), v.begin() + static_cast<long>(to), std::size_t{1},
                         std::multiplies<>());
}
}  // namespace

template <class T> std::size_t Sandwich<T>::Labeled::size() const { return product_of(sizes, 0, sizes.size()); }

template <class T>
Sandwich<T>::Sandwich(Kernels<T>& kernels, std::size_t layers) : K_(kernels), layers_(layers) {
  e_.names.push_back(kBra);
  for (std::size_t i = 0; i < layers; ++i) e_.names.push_back(static_cast<long>(i));
  e_.names.push_back(kKet);
  e_.sizes.assign(e_.names.size(), 1);
  e_.data = K_.adopt(std::vector<T>{T(1)});
}

template <class T> typename Sandwich<T>::Labeled Sandwich<T>::moved(Labeled t, std::size_t from, std::size_t to) {
  if (to == from || to == from + 1) return t;
  Labeled out;
  out.data = K_.allocate(t.size());
  if (to < from)  // [p, x, y, r] → [p, y, x, r] with x = axes to … from−1, y = axis from
    K_.swap_axes(product_of(t.sizes, 0, to), product_of(t.sizes, to, from), 1, t.sizes[from],
                 product_of(t.sizes, from + 1, t.sizes.size()), t.data.data(), out.data.data());
  else  // x = axis from, y = axes from+1 … to−1
    K_.swap_axes(product_of(t.sizes, 0, from), t.sizes[from], 1, product_of(t.sizes, from + 1, to),
                 product_of(t.sizes, to, t.sizes.size()), t.data.data(), out.data.data());
  out.names = t.names;
  out.sizes = t.sizes;
  const long name = out.names[from];
  const std::size_t size = out.sizes[from];
  out.names.erase(out.names.begin() + static_cast<long>(from));
  out.sizes.erase(out.sizes.begin() + static_cast<long>(from));
  const std::size_t at = to < from ? to : to - 1;
  out.names.insert(out.names.begin() + static_cast<long>(at), name);
  out.sizes.insert(out.sizes.begin() + static_cast<long>(at), size);
  return out;
}

template <class T>
Buffer<T> Sandwich<T>::upload(const Tensor<T>& t, const std::vector<std::size_t>& order) {
  Tensor<T> p = permute(t, order);
  // A site whose entries are far from 1 (a train of norm 1e-500 stored as one small site) is
  // brought near 1 by a power of two (exact) before its products, which could otherwise leave
  // the type's range; the power goes to the log scale. Sites within the range are used as they are.
  using R = real_t<T>;
  R big = 0;
  for (const auto& v : p.data) {
    if constexpr (is_complex_v<T>) big = std::max({big, std::abs(v.real()), std::abs(v.imag())});
    else big = std::max(big, std::abs(v));
  }
  constexpr int kSafe = std::numeric_limits<R>::max_exponent / 4;
  int e = 0;
  std::frexp(big, &e);
  if (big > 0 && std::isfinite(big) && std::abs(e) > kSafe) {
    for (auto& v : p.data) {
      if constexpr (is_complex_v<T>) v = T(std::ldexp(v.real(), -e), std::ldexp(v.imag(), -e));
      else v = std::ldexp(v, -e);
    }
    log_scale_ += e * std::log(2.0);
  }
  return K_.adopt(std::move(p.data));
}

template <class T>
void Sandwich<T>::gemm(Op op_a, std::size_t m, std::size_t n, std::size_t k, const T* a, const T* b, T* c) {
  flops_ += (is_complex_v<T> ? 8.0 : 2.0) * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  K_.gemm(op_a, Op::kNone, m, n, k, T(1), a, op_a == Op::kNone ? k : m, 0, b, n, 0, T(0), c, n, 0, 1);
}

template <class T>
void Sandwich<T>::add(const Tensor<T>& bra, const std::vector<const Tensor<T>*>& ops, const Tensor<T>& ket) {
  poll_interrupt();
  auto position = [](const Labeled& t, long name) {
    return static_cast<std::size_t>(std::find(t.names.begin(), t.names.end(), name) - t.names.begin());
  };
  // 1. The ket: T[a, …, b', x] = Σ_b E[a, …, b] ket[b, b', x], the ket's bond last in E first.
  const std::size_t ket_axis = position(e_, kKet), axes = e_.names.size();
  Labeled e = moved(std::move(e_), ket_axis, axes);
  const std::size_t kl = ket.shape[kLegL], kr = ket.shape[kLegR], kp = ket.shape[kLegU];
  const Buffer<T> kb = upload(ket, {kLegL, kLegR, kLegU, kLegD});
  Labeled t;
  t.names = e.names;
  t.sizes = e.sizes;
  t.names.back() = kKet;
  t.sizes.back() = kr;
  t.names.push_back(kPhys);
  t.sizes.push_back(kp);
  t.data = K_.allocate(t.size());
  gemm(Op::kNone, e.size() / kl, kr * kp, kl, e.data.data(), kb.data(), t.data.data());
  // 2. The operators, the lowest first: w_i brought next to x, then T[…, (w_i x)] · W[(w_i d), (w_i' u)].
  for (std::size_t i = layers_; i-- > 0;) {
    const Tensor<T>& w = *ops[i];
    const std::size_t from = position(t, static_cast<long>(i)), last = t.names.size() - 1;
    t = moved(std::move(t), from, last);
    const std::size_t wl = w.shape[kLegL], wr = w.shape[kLegR], u = w.shape[kLegU], d = w.shape[kLegD];
    const Buffer<T> wb = upload(w, {kLegL, kLegD, kLegR, kLegU});
    Labeled next;
    next.names = t.names;
    next.sizes = t.sizes;
    next.sizes[next.sizes.size() - 2] = wr;
    next.sizes.back() = u;
    next.data = K_.allocate(next.size());
    gemm(Op::kNone, t.size() / (wl * d), wr * u, wl * d, t.data.data(), wb.data(), next.data.data());
    t = std::move(next);
  }
  // 3. The bra: x brought next to a, then E'[a', …] = Σ_{a, x} conj(bra[(a x), a']) T[(a x), …].
  const std::size_t x_axis = t.names.size() - 1;
  t = moved(std::move(t), x_axis, 1);
  const std::size_t al = bra.shape[kLegL], ar = bra.shape[kLegR], x = bra.shape[kLegU] * bra.shape[kLegD];
  const Buffer<T> bb = upload(bra, {kLegL, kLegU, kLegD, kLegR});
  Labeled next;
  next.names.assign(t.names.begin() + 1, t.names.end());
  next.sizes.assign(t.sizes.begin() + 1, t.sizes.end());
  next.names[0] = kBra;
  next.sizes[0] = ar;
  next.data = K_.allocate(next.size());
  gemm(Op::kConjTrans, ar, t.size() / (al * x), al * x, bb.data(), t.data.data(), next.data.data());
  log_scale_ += scale_to_unit(K_, next.size(), next.data.data());
  e_ = std::move(next);
}

template <class T> Scaled Sandwich<T>::value() const {
  Scaled out;
  const std::vector<T> v = K_.download(e_.data, 1);
  out.value = cdouble(v.empty() ? T(0) : v[0]);
  out.log_scale = log_scale_;
  return out;
}

#define SRCC_INSTANTIATE(T) template class Sandwich<T>;
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
