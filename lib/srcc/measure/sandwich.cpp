#include "srcc/measure/sandwich.hpp"

#include <cmath>

#include "srcc/core/interrupt.hpp"
#include "srcc/core/permute.hpp"
#include "srcc/sweep/truncation_sweep.hpp"
#include "srcc/train/layout.hpp"

namespace srcc {

template <class T>
Sandwich<T>::Sandwich(Kernels<T>& kernels, std::size_t layers) : K_(kernels), layers_(layers) {
  e_ = Tensor<T>(Shape(layers + 2, 1));
  e_.data[0] = T(1);
}

template <class T>
std::vector<T> Sandwich<T>::product(Op op_a, std::size_t m, std::size_t n, std::size_t k,
                                    std::vector<T> a, std::vector<T> b) const {
  Buffer<T> ab = K_.adopt(std::move(a)), bb = K_.adopt(std::move(b));
  Buffer<T> c = K_.allocate(m * n);
  K_.gemm(op_a, Op::kNone, m, n, k, T(1), ab.data(), op_a == Op::kNone ? k : m, 0, bb.data(), n, 0,
          T(0), c.data(), n, 0, 1);
  return K_.download(c, m * n);
}

template <class T>
void Sandwich<T>::add(const Tensor<T>& bra, const std::vector<const Tensor<T>*>& ops, const Tensor<T>& ket) {
  poll_interrupt();
  const std::size_t k = layers_;
  // 1. The ket into the environment: T[a, w…, b', x] = Σ_b E[a, w…, b] ket[b, b', x].
  const std::size_t kl = ket.shape[kLegL], kr = ket.shape[kLegR], kp = ket.shape[kLegU];
  const std::size_t front = e_.size() / kl;
  Tensor<T> t;
  t.shape = e_.shape;
  t.shape.back() = kr;
  t.shape.push_back(kp);
  t.data = product(Op::kNone, front, kr * kp, kl, e_.data, ket.data);
  // 2. The operators, the lowest first: each takes its left bond w_i and the physical index x
  //    and gives its right bond w_i' and a new x. Axes of t: a, w_1 … w_k (w_i' once done), b', x.
  for (std::size_t i = k; i-- > 0;) {
    const Tensor<T>& w = *ops[i];
    const std::size_t axis = 1 + i, last = t.rank() - 1;
    // w_i next to x: (rest…, w_i, x).
    std::vector<std::size_t> order;
    for (std::size_t a = 0; a < last; ++a)
      if (a != axis) order.push_back(a);
    order.push_back(axis);
    order.push_back(last);
    Tensor<T> moved = permute(t, order);
    // The operator as the matrix [(w_l d), (w_r u)].
    Tensor<T> wm = permute(w, {kLegL, kLegD, kLegR, kLegU});
    const std::size_t wl = w.shape[kLegL], wr = w.shape[kLegR], u = w.shape[kLegU], d = w.shape[kLegD];
    const std::size_t rest = moved.size() / (wl * d);
    Tensor<T> done;
    done.shape.assign(moved.shape.begin(), moved.shape.end() - 2);
    done.shape.push_back(wr);
    done.shape.push_back(u);
    done.data = product(Op::kNone, rest, wr * u, wl * d, std::move(moved.data), std::move(wm.data));
    // w_i' back to its place: (a, w_1 … w_i' … w_k, b', x).
    std::vector<std::size_t> back;
    const std::size_t n = done.rank();
    for (std::size_t a = 0; a < n - 2; ++a) {
      if (a == axis) back.push_back(n - 2);
      back.push_back(a);
    }
    if (axis == n - 2) back.push_back(n - 2);
    back.push_back(n - 1);
    t = permute(done, back);
  }
  // 3. The bra: E'[a', w'…, b'] = Σ_{a, x} conj(bra[a, a', x]) T[a, w'…, b', x].
  std::vector<std::size_t> order{0, t.rank() - 1};
  for (std::size_t a = 1; a + 1 < t.rank(); ++a) order.push_back(a);
  Tensor<T> tx = permute(t, order);  // (a, x, w'…, b')
  Tensor<T> bx = permute(bra, {kLegL, kLegU, kLegD, kLegR});  // (a, x, 1, a')
  const std::size_t al = bra.shape[kLegL], ar = bra.shape[kLegR], x = bra.shape[kLegU] * bra.shape[kLegD];
  const std::size_t rest = tx.size() / (al * x);
  Tensor<T> next;
  next.shape.push_back(ar);
  next.shape.insert(next.shape.end(), tx.shape.begin() + 2, tx.shape.end());
  next.data = product(Op::kConjTrans, ar, rest, al * x, std::move(bx.data), std::move(tx.data));
  Buffer<T> nb = K_.adopt(std::move(next.data));
  log_scale_ += scale_to_unit(K_, shape_size(next.shape), nb.data());
  next.data = K_.download(nb, shape_size(next.shape));
  e_ = std::move(next);
}

template <class T> Scaled Sandwich<T>::value() const {
  Scaled out;
  out.value = cdouble(e_.data.empty() ? T(0) : e_.data[0]);
  out.log_scale = log_scale_;
  return out;
}

#define SRCC_INSTANTIATE(T) template class Sandwich<T>;
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
