#include "srcc/measure/local_observables.hpp"

#include "srcc/backend/counting_gemm.hpp"
#include "srcc/core/weight.hpp"
#include "srcc/measure/observable_loops.hpp"

namespace srcc {

namespace {

using cd = std::complex<double>;

// A core as d matrices P[u] (l × r, row-major, one after another), the layout the transfers read.
template <class T> struct Slices {
  std::size_t d = 0, l = 0, r = 0;
  std::vector<T> p;
  const T* at(std::size_t u) const { return p.data() + u * l * r; }
};
template <class T> Slices<T> slices(const Tensor<T>& c) {
  Slices<T> s{c.shape[2], c.shape[0], c.shape[1], {}};
  s.p.resize(c.data.size());
  for (std::size_t a = 0; a < s.l; ++a)
    for (std::size_t b = 0; b < s.r; ++b)
      for (std::size_t u = 0; u < s.d; ++u) s.p[(u * s.l + a) * s.r + b] = c.data[(a * s.r + b) * s.d + u];
  return s;
}

// The transfers of observable_loops.hpp on dense cores: environments are l × l matrices (bra
// index, ket index), a half-transfer Y the d matrices Y_u (u-major, l × r each).
template <class T> class DenseTransfers {
 public:
  using Env = std::vector<T>;
  using Y = std::vector<T>;
  using Close = std::vector<T>;

  DenseTransfers(Kernels<T>& K, const std::vector<Tensor<T>>& cores) : gemm_(K) {
    for (const auto& c : cores) s_.push_back(slices(c));
  }
  std::size_t size() const { return s_.size(); }
  std::size_t dim(std::size_t j) const { return s_[j].d; }
  Env unit() const { return {T(1)}; }

  // X_v = E·P[v]: one batched GEMM over v.
  Y half(const Env& e, std::size_t j) {
    const Slices<T>& s = s_[j];
    const std::size_t d = s.d, l = s.l, r = s.r;
    Y x(d * l * r);
    gemm_(Op::kNone, Op::kNone, l, r, l, T(1), e.data(), l, 0, s.p.data(), r, l * r, T(0), x.data(), r, l * r, d);
    return x;
  }
  void apply(const Y& x, std::size_t j, const SiteOperator& op, Y& y) const {
    const std::size_t d = s_[j].d, lr = s_[j].l * s_[j].r;
    y.assign(d * lr, T(0));
    for (std::size_t u = 0; u < d; ++u)
      for (std::size_t v = 0; v < d; ++v) {
        const cd w = op.at(u, v);
        if (w == cd(0)) continue;
        const T f = scalar_weight<T>(w);
        T* out = y.data() + u * lr;
        const T* in = x.data() + v * lr;
        for (std::size_t k = 0; k < lr; ++k) out[k] += f * in[k];
      }
  }
  // E' = Σ_u P[u]ᴴ Y_u: one GEMM over the stacked (u, l) rows.
  void next(std::size_t j, const Y& y, Env& out) {
    const Slices<T>& s = s_[j];
    out.assign(s.r * s.r, T(0));
    gemm_(Op::kConjTrans, Op::kNone, s.r, s.r, s.d * s.l, T(1), s.p.data(), s.r, y.data(), s.r, T(0), out.data(), s.r);
  }
  cd closed(std::size_t j, const Y& y) const { return observable_loops::conj_dot(s_[j].p.data(), y.data(), y.size()); }
  // C = Σ_u P[u]·Y_uᴴ with Y_u = Σ_v op[u, v] P[v], so that an environment E's value there is
  // Σ E ⊙ conj(C) (O(χ²) per environment instead of a product).
  Close closing(std::size_t j, const SiteOperator& op) {
    const Slices<T>& s = s_[j];
    std::vector<T> unit(s.l * s.l, T(0)), y, c(s.l * s.l);
    for (std::size_t k = 0; k < s.l; ++k) unit[k * s.l + k] = T(1);
    apply(half(unit, j), j, op, y);
    for (std::size_t u = 0; u < s.d; ++u)
      gemm_(Op::kNone, Op::kConjTrans, s.l, s.l, s.r, T(1), s.at(u), s.r, y.data() + u * s.l * s.r, s.r, u == 0 ? T(0) : T(1),
            c.data(), s.l);
    return c;
  }
  cd value(const Close& c, const Env& g) const { return observable_loops::conj_dot(c.data(), g.data(), g.size()); }

 private:
  CountingGemm<T> gemm_;
  std::vector<Slices<T>> s_;
};

}  // namespace

template <class T>
std::vector<cd> site_expectations(Kernels<T>& K, const std::vector<Tensor<T>>& cores, const SiteOperator& o) {
  DenseTransfers<T> tr(K, cores);
  return observable_loops::site_values(tr, o);
}

template <class T>
std::vector<cd> correlation_matrix(Kernels<T>& K, const std::vector<Tensor<T>>& cores, const SiteOperator& a,
                                   const SiteOperator& b, const SiteOperator& parity, std::size_t first, std::size_t last) {
  DenseTransfers<T> tr(K, cores);
  return observable_loops::correlations(tr, a, b, parity, first, last);
}

#define SRCC_INSTANTIATE(T)                                                                                            \
  template std::vector<cd> site_expectations(Kernels<T>&, const std::vector<Tensor<T>>&, const SiteOperator&); \
  template std::vector<cd> correlation_matrix(Kernels<T>&, const std::vector<Tensor<T>>&, const SiteOperator&,         \
                                              const SiteOperator&, const SiteOperator&, std::size_t, std::size_t);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
