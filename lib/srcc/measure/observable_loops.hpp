#pragma once
// The loops behind local_observables.hpp, written once over the transfers of a state's cores —
// dense matrices (local_observables.cpp) or charge blocks (charged_local_observables.cpp). A
// transfer policy `Tr` offers:
//   Env, Y, Close                      its environment, a site's half-transfer, a closing matrix
//   std::size_t size()                 the sites
//   std::size_t dim(j)                 site j's physical dimension
//   Env unit()                         the environment left of site 0 (the number 1)
//   Y half(e, j)                       X_v = E·P_j[v] for every v
//   void apply(x, j, op, y)            Y_u = Σ_v op[u, v] X_v
//   void next(j, y, out)               E' = Σ_u P_j[u]ᴴ Y_u
//   cd closed(j, y)                    Σ conj(P_j) ⊙ Y: the value with the identity to the right
//   Close closing(j, op)               site j closed from the right for op, over its left bond
//   cd value(c, g)                     an environment g's value against a closing c
// The cores are right-canonical with the norm in core 0, so the environment right of any site is
// the identity and every value needs only the left environment.
#include <complex>
#include <cstddef>
#include <string>
#include <vector>

#include "srcc/core/dtype.hpp"
#include "srcc/core/error.hpp"
#include "srcc/core/interrupt.hpp"
#include "srcc/train/site_type.hpp"

namespace srcc::observable_loops {

using cd = std::complex<double>;

// Σ conj(a) ⊙ b over `count` elements: an environment closed at a site, or against a closing.
template <class T> cd conj_dot(const T* a, const T* b, std::size_t count) {
  cd sum = 0;
  for (std::size_t k = 0; k < count; ++k) {
    if constexpr (is_complex_v<T>) sum += cd(std::conj(a[k]) * b[k]);
    else sum += static_cast<double>(a[k] * b[k]);
  }
  return sum;
}

template <class Tr> void check_dims(const Tr& tr, const SiteOperator& o) {
  for (std::size_t j = 0; j < tr.size(); ++j)
    if (tr.dim(j) != o.dim)
      throw InputError("the operator " + o.name + " acts on " + std::to_string(o.dim) + " states but site " + std::to_string(j) +
                       " has " + std::to_string(tr.dim(j)));
}

// ⟨ψ|ψ⟩ from core 0 (the norm's home), refused where it is not positive.
template <class Tr> cd norm_of(Tr& tr, const std::string& what) {
  const cd norm = tr.closed(0, tr.half(tr.unit(), 0));
  if (!(norm.real() > 0)) throw NumericalError("the state has norm 0: its " + what + " are undefined");
  return norm;
}

template <class Tr> std::vector<cd> site_values(Tr& tr, const SiteOperator& o) {
  if (o.fermionic)
    throw UsageError(o.name + " is odd in fermions: its expectation in a state of definite parity is 0 (measure an even product)");
  check_dims(tr, o);
  const cd norm = norm_of(tr, "local values");
  typename Tr::Env e = tr.unit(), next;
  typename Tr::Y y;
  std::vector<cd> out;
  for (std::size_t j = 0; j < tr.size(); ++j) {
    poll_interrupt();  // a SIGTERM ends the run between sites
    // E·P[v] once: with O for the value, as it is (the identity) for the next environment.
    const typename Tr::Y x = tr.half(e, j);
    tr.apply(x, j, o, y);
    out.push_back(tr.closed(j, y) / norm);
    tr.next(j, x, next);
    std::swap(e, next);
  }
  return out;
}

template <class Tr>
std::vector<cd> correlations(Tr& tr, const SiteOperator& a, const SiteOperator& b, const SiteOperator& parity,
                             std::size_t first, std::size_t last) {
  if (a.fermionic != b.fermionic)
    throw UsageError("⟨" + a.name + "_i " + b.name + "_j⟩ is odd in fermions: 0 in a state of definite parity, and no observable");
  check_dims(tr, a);
  check_dims(tr, b);
  const std::size_t m = last - first;
  const bool odd = a.fermionic;  // then both are
  const cd norm = norm_of(tr, "correlations");
  typename Tr::Env e = tr.unit(), next;
  typename Tr::Y y;
  for (std::size_t j = 0; j < first; ++j) {
    tr.next(j, tr.half(e, j), next);
    std::swap(e, next);
  }
  std::vector<cd> out(m * m);
  const bool same = a.name == b.name && a.m == b.m;
  std::vector<typename Tr::Close> close_a, close_b;
  for (std::size_t j = first; j < last; ++j) {
    close_b.push_back(tr.closing(j, b));
    if (!same) close_a.push_back(tr.closing(j, a));
  }
  // Row i: the left operator X at i (with F when odd), strings, then Y at each j > i. Both
  // orders: (A at i, B at j) fills [i][j], (B at i, A at j) fills [j][i] with the exchange sign.
  for (std::size_t i = first; i < last; ++i) {
    const typename Tr::Y x = tr.half(e, i);  // E·P[v], shared by every operator at i
    tr.apply(x, i, product(a, b), y);
    out[(i - first) * m + (i - first)] = tr.closed(i, y) / norm;
    for (int order = 0; order < (same ? 1 : 2); ++order) {
      const SiteOperator& op = order == 0 ? a : b;
      const cd sign = order == 1 && odd ? -1.0 : 1.0;
      typename Tr::Env g;
      tr.apply(x, i, odd ? product(op, parity) : op, y);
      tr.next(i, y, g);
      for (std::size_t j = i + 1; j < last; ++j) {
        poll_interrupt();  // a SIGTERM ends the run between sites: m² transfers take a while
        const cd v = sign * tr.value((order == 0 ? close_b : close_a)[j - first], g) / norm;
        if (order == 0) out[(i - first) * m + (j - first)] = v;
        else out[(j - first) * m + (i - first)] = v;
        if (same) out[(j - first) * m + (i - first)] = odd ? -v : v;
        if (j + 1 < last) {
          if (odd) {  // the string F
            tr.apply(tr.half(g, j), j, parity, y);
            tr.next(j, y, next);
          } else {
            tr.next(j, tr.half(g, j), next);
          }
          std::swap(g, next);
        }
      }
    }
    tr.next(i, x, next);
    std::swap(e, next);
  }
  return out;
}

}  // namespace srcc::observable_loops
