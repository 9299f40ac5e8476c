#include "srcc/measure/local_observables.hpp"

#include <type_traits>

#include "srcc/backend/counting_gemm.hpp"
#include "srcc/core/error.hpp"
#include "srcc/core/interrupt.hpp"
#include "srcc/core/weight.hpp"

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

// The left environment E (l × l: bra index, ket index) carried through one site with `op` between
// bra and ket: E'[r', r] = Σ op[u, v] conj(P[u][l', r']) E[l', l] P[v][l, r]. `y` receives
// Y_u = Σ_v op[u, v] E·P[v] (u-major, l × r each) for conj_dot(P, Y).
template <class T>
void through(CountingGemm<T>& gemm, const std::vector<T>& e, const Slices<T>& s, const SiteOperator& op,
             std::vector<T>& y, std::type_identity_t<std::vector<T>>* next) {
  const std::size_t d = s.d, l = s.l, r = s.r;
  std::vector<T> x(d * l * r);
  gemm(Op::kNone, Op::kNone, l, r, l, T(1), e.data(), l, l * l * 0, s.p.data(), r, l * r, T(0), x.data(), r, l * r, d);
  y.assign(d * l * r, T(0));
  for (std::size_t u = 0; u < d; ++u)
    for (std::size_t v = 0; v < d; ++v) {
      const cd w = op.at(u, v);
      if (w == cd(0)) continue;
      const T f = scalar_weight<T>(w);
      T* out = y.data() + u * l * r;
      const T* in = x.data() + v * l * r;
      for (std::size_t k = 0; k < l * r; ++k) out[k] += f * in[k];
    }
  if (!next) return;
  next->assign(r * r, T(0));
  // E' = Σ_u P[u]ᴴ Y_u: one GEMM over the stacked (u, l) rows.
  gemm(Op::kConjTrans, Op::kNone, r, r, d * l, T(1), s.p.data(), r, y.data(), r, T(0), next->data(), r);
}

// Σ conj(a) ⊙ b over all elements: an environment closed at a site (conj_dot(P, Y): the right one
// is the identity), or against a site's closing matrix (conj_dot(C, E)).
template <class T> cd conj_dot(const std::vector<T>& a, const std::vector<T>& b) {
  cd sum = 0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    if constexpr (is_complex_v<T>) sum += cd(std::conj(a[k]) * b[k]);
    else sum += static_cast<double>(a[k] * b[k]);
  }
  return sum;
}

// The site closed from the right for `op`, as a matrix over the left bond: C = Σ_u P[u]·Y_uᴴ with
// Y_u = Σ_v op[u, v] P[v], so that the value of an environment E there is Σ E ⊙ conj(C)
// (O(χ²) per environment instead of a product).
template <class T> std::vector<T> closing(CountingGemm<T>& gemm, const Slices<T>& s, const SiteOperator& op) {
  std::vector<T> unit(s.l * s.l, T(0)), y, c(s.l * s.l);
  for (std::size_t k = 0; k < s.l; ++k) unit[k * s.l + k] = T(1);
  through(gemm, unit, s, op, y, nullptr);
  for (std::size_t u = 0; u < s.d; ++u)
    gemm(Op::kNone, Op::kConjTrans, s.l, s.l, s.r, T(1), s.at(u), s.r, y.data() + u * s.l * s.r, s.r, u == 0 ? T(0) : T(1),
         c.data(), s.l);
  return c;
}
const SiteOperator& identity_like(const SiteOperator& parity, SiteOperator& id) {
  id = SiteOperator{"Id", parity.dim, std::vector<cd>(parity.dim * parity.dim), false};
  for (std::size_t i = 0; i < parity.dim; ++i) id.m[i * parity.dim + i] = 1;
  return id;
}

void check_dims(const std::vector<std::size_t>& dims, const SiteOperator& o) {
  for (std::size_t j = 0; j < dims.size(); ++j)
    if (dims[j] != o.dim)
      throw InputError("the operator " + o.name + " acts on " + std::to_string(o.dim) + " states but site " + std::to_string(j) +
                       " has " + std::to_string(dims[j]));
}

template <class T> std::vector<std::size_t> phys_dims(const std::vector<Tensor<T>>& cores) {
  std::vector<std::size_t> d;
  for (const auto& c : cores) d.push_back(c.shape[2]);
  return d;
}

}  // namespace

template <class T>
std::vector<cd> site_expectations(Kernels<T>& K, const std::vector<Tensor<T>>& cores, const SiteOperator& o,
                                  const SiteOperator& parity) {
  if (o.fermionic)
    throw UsageError(o.name + " is odd in fermions: its expectation in a state of definite parity is 0 (measure an even product)");
  check_dims(phys_dims(cores), o);
  CountingGemm<T> gemm(K);
  SiteOperator id;
  identity_like(parity, id);
  std::vector<T> e{T(1)}, y, next;
  std::vector<cd> out;
  cd norm = 0;
  for (std::size_t j = 0; j < cores.size(); ++j) {
    poll_interrupt();  // a SIGTERM ends the run between sites
    const Slices<T> s = slices(cores[j]);
    if (j == 0) {
      through(gemm, e, s, id, y, nullptr);
      norm = conj_dot(s.p, y);
      if (!(norm.real() > 0)) throw NumericalError("the state has norm 0: its local values are undefined");
    }
    through(gemm, e, s, o, y, nullptr);
    out.push_back(conj_dot(s.p, y) / norm);
    through(gemm, e, s, id, y, &next);
    e.swap(next);
  }
  return out;
}

template <class T>
std::vector<cd> correlation_matrix(Kernels<T>& K, const std::vector<Tensor<T>>& cores, const SiteOperator& a,
                                   const SiteOperator& b, const SiteOperator& parity, std::size_t first, std::size_t last) {
  if (a.fermionic != b.fermionic)
    throw UsageError("⟨" + a.name + "_i " + b.name + "_j⟩ is odd in fermions: 0 in a state of definite parity, and no observable");
  check_dims(phys_dims(cores), a);
  check_dims(phys_dims(cores), b);
  const std::size_t m = last - first;
  CountingGemm<T> gemm(K);
  SiteOperator id;
  identity_like(parity, id);
  const bool odd = a.fermionic;  // then both are
  const SiteOperator& string = odd ? parity : id;
  std::vector<Slices<T>> s;
  for (const auto& c : cores) s.push_back(slices(c));
  std::vector<T> e{T(1)}, y, next;
  through(gemm, e, s[0], id, y, nullptr);
  const cd norm = conj_dot(s[0].p, y);
  if (!(norm.real() > 0)) throw NumericalError("the state has norm 0: its correlations are undefined");
  for (std::size_t j = 0; j < first; ++j) {
    through(gemm, e, s[j], id, y, &next);
    e.swap(next);
  }
  std::vector<cd> out(m * m);
  const bool same = a.name == b.name && a.m == b.m;
  std::vector<std::vector<T>> close_a, close_b;
  for (std::size_t j = first; j < last; ++j) {
    close_b.push_back(closing(gemm, s[j], b));
    if (!same) close_a.push_back(closing(gemm, s[j], a));
  }
  // Row i: the left operator X at i (with F when odd), strings, then Y at each j > i. Both
  // orders: (A at i, B at j) fills [i][j], (B at i, A at j) fills [j][i] with the exchange sign.
  for (std::size_t i = first; i < last; ++i) {
    through(gemm, e, s[i], product(a, b), y, nullptr);
    out[(i - first) * m + (i - first)] = conj_dot(s[i].p, y) / norm;
    for (int order = 0; order < (same ? 1 : 2); ++order) {
      const SiteOperator& x = order == 0 ? a : b;
      const cd sign = order == 1 && odd ? -1.0 : 1.0;
      std::vector<T> g;
      through(gemm, e, s[i], odd ? product(x, parity) : x, y, &g);
      for (std::size_t j = i + 1; j < last; ++j) {
        poll_interrupt();  // a SIGTERM ends the run between sites: m² transfers take a while
        const cd v = sign * conj_dot((order == 0 ? close_b : close_a)[j - first], g) / norm;
        if (order == 0) out[(i - first) * m + (j - first)] = v;
        else out[(j - first) * m + (i - first)] = v;
        if (same) out[(j - first) * m + (i - first)] = odd ? -v : v;
        if (j + 1 < last) {
          through(gemm, g, s[j], string, y, &next);
          g.swap(next);
        }
      }
    }
    through(gemm, e, s[i], id, y, &next);
    e.swap(next);
  }
  return out;
}

#define SRCC_INSTANTIATE(T)                                                                                            \
  template std::vector<cd> site_expectations(Kernels<T>&, const std::vector<Tensor<T>>&, const SiteOperator&,          \
                                             const SiteOperator&);                                                      \
  template std::vector<cd> correlation_matrix(Kernels<T>&, const std::vector<Tensor<T>>&, const SiteOperator&,         \
                                              const SiteOperator&, const SiteOperator&, std::size_t, std::size_t);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
