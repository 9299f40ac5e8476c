#include "srcc/train/step_mpo.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "srcc/core/error.hpp"

namespace srcc {

using cd = std::complex<double>;

std::vector<cd> matrix_exponential(const std::vector<cd>& x, std::size_t n) {
  auto multiply = [n](const std::vector<cd>& a, const std::vector<cd>& b) {
    std::vector<cd> c(n * n);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t k = 0; k < n; ++k) {
        const cd f = a[i * n + k];
        if (f == cd(0)) continue;
        for (std::size_t j = 0; j < n; ++j) c[i * n + j] += f * b[k * n + j];
      }
    return c;
  };
  double norm = 0;  // the largest column sum: a bound on the spectral radius
  for (std::size_t j = 0; j < n; ++j) {
    double col = 0;
    for (std::size_t i = 0; i < n; ++i) col += std::abs(x[i * n + j]);
    norm = std::max(norm, col);
  }
  // Scaled to norm ≤ 1/4 the series converges to rounding within 20 terms.
  const int squarings = norm > 0.25 ? static_cast<int>(std::ceil(std::log2(norm / 0.25))) : 0;
  const double scale = std::ldexp(1.0, -squarings);
  std::vector<cd> a(x);
  for (auto& v : a) v *= scale;
  std::vector<cd> sum(n * n), term(n * n);
  for (std::size_t i = 0; i < n; ++i) sum[i * n + i] = term[i * n + i] = 1;
  for (int k = 1; k <= 30; ++k) {
    term = multiply(term, a);
    double largest = 0;
    for (auto& v : term) {
      v /= static_cast<double>(k);
      largest = std::max(largest, std::abs(v));
    }
    for (std::size_t i = 0; i < sum.size(); ++i) sum[i] += term[i];
    if (largest < 1e-18) break;
  }
  for (int s = 0; s < squarings; ++s) sum = multiply(sum, sum);
  return sum;
}

namespace {

// The d × d block W[l][r] of a site (l, r, u, d').
std::vector<cd> block(const Tensor<cdouble>& w, std::size_t l, std::size_t r) {
  const std::size_t d = w.shape[2], dr = w.shape[1];
  return std::vector<cd>(w.data.begin() + static_cast<std::ptrdiff_t>((l * dr + r) * d * d),
                         w.data.begin() + static_cast<std::ptrdiff_t>((l * dr + r + 1) * d * d));
}
bool is_identity(const std::vector<cd>& m, std::size_t d) {
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t j = 0; j < d; ++j)
      if (std::abs(m[i * d + j] - cd(i == j ? 1.0 : 0.0)) > 1e-12) return false;
  return true;
}
bool is_zero(const std::vector<cd>& m) {
  return std::all_of(m.begin(), m.end(), [](const cd& v) { return std::abs(v) <= 1e-300; });
}

}  // namespace

std::vector<Tensor<cdouble>> step_mpo(const std::vector<Tensor<cdouble>>& h, cd tau, StepApproximation approximation) {
  const std::size_t n = h.size();
  if (n == 0) throw InputError("the Hamiltonian has no sites");
  if (h.front().shape[0] != 1 || h.back().shape[1] != 1)
    throw InputError("the Hamiltonian's outer bonds must be 1 (a finite chain)");
  // The "not started" state s_b of each bond from the left, the "done" state e_b from the right.
  std::vector<std::optional<std::size_t>> s(n + 1), e(n + 1);
  s[0] = 0;
  for (std::size_t j = 0; j < n && s[j]; ++j)
    for (std::size_t r = 0; r < h[j].shape[1] && !s[j + 1]; ++r) {
      bool only = is_identity(block(h[j], *s[j], r), h[j].shape[2]);
      for (std::size_t l = 0; only && l < h[j].shape[0]; ++l) only = l == *s[j] || is_zero(block(h[j], l, r));
      if (only && !(j + 1 == n)) s[j + 1] = r;
    }
  e[n] = 0;
  for (std::size_t j = n; j-- > 0 && e[j + 1];)
    for (std::size_t l = 0; l < h[j].shape[0] && !e[j]; ++l) {
      bool only = is_identity(block(h[j], l, *e[j + 1]), h[j].shape[2]);
      for (std::size_t r = 0; only && r < h[j].shape[1]; ++r) only = r == *e[j + 1] || is_zero(block(h[j], l, r));
      if (only && j > 0) e[j] = l;
    }
  for (std::size_t b = 1; b < n; ++b) {
    if (s[b] && e[b] && *s[b] == *e[b])
      throw InputError("the Hamiltonian's bond " + std::to_string(b) + " has one state for both ends of its terms");
    // Several states and neither identity channel: an MPO whose states were mixed (compressed
    // by SVD, say), not a sum of local terms in the automaton's form; its step would be only
    // 1 + τH. (A product operator, bond 1, is one term spanning the chain: that is its step.)
    if (!s[b] && !e[b] && h[b].shape[0] > 1)
      throw InputError("the Hamiltonian's bond " + std::to_string(b) + " has " + std::to_string(h[b].shape[0]) +
                       " states but none carries the identity from either end: not the finite-automaton form a step is "
                       "built from (an MPO compressed by SVD mixes its states; write H with generate opsum, or take "
                       "TeNPy's or ITensor's own MPO)");
  }
  // The states in progress at each bond.
  std::vector<std::vector<std::size_t>> pending(n + 1);
  for (std::size_t b = 0; b <= n; ++b) {
    const std::size_t dim = b < n ? h[b].shape[0] : h[n - 1].shape[1];
    for (std::size_t k = 0; k < dim; ++k)
      if (k != s[b].value_or(dim) && k != e[b].value_or(dim)) pending[b].push_back(k);
  }
  if (!pending[0].empty() || !pending[n].empty()) throw InputError("the Hamiltonian's outer bonds carry terms in progress");

  const cd root = std::sqrt(tau);
  std::vector<Tensor<cdouble>> out;
  for (std::size_t j = 0; j < n; ++j) {
    const Tensor<cdouble>& w = h[j];
    const std::size_t d = w.shape[2], dl = pending[j].size() + 1, dr = pending[j + 1].size() + 1;
    const std::vector<cd> zero(d * d);
    const std::vector<cd> dd = s[j] && e[j + 1] ? block(w, *s[j], *e[j + 1]) : zero;
    auto c_of = [&](std::size_t b) { return s[j] ? block(w, *s[j], pending[j + 1][b - 1]) : zero; };
    auto b_of = [&](std::size_t a) { return e[j + 1] ? block(w, pending[j][a - 1], *e[j + 1]) : zero; };
    auto a_of = [&](std::size_t a, std::size_t b) { return block(w, pending[j][a - 1], pending[j + 1][b - 1]); };
    Tensor<cdouble> u({dl, dr, d, d});
    std::fill(u.data.begin(), u.data.end(), cdouble(0));
    auto put = [&](std::size_t a, std::size_t b, const std::vector<cd>& m) {
      std::copy(m.begin(), m.end(), u.data.begin() + static_cast<std::ptrdiff_t>((a * dr + b) * d * d));
    };
    for (std::size_t a = 0; a < dl; ++a)
      for (std::size_t b = 0; b < dr; ++b) {
        if (approximation == StepApproximation::kFirst) {
          std::vector<cd> m = a == 0 && b == 0 ? dd : a == 0 ? c_of(b) : b == 0 ? b_of(a) : a_of(a, b);
          for (auto& v : m) v *= a == 0 && b == 0 ? tau : (a == 0) != (b == 0) ? root : cd(1);
          if (a == 0 && b == 0)
            for (std::size_t i = 0; i < d; ++i) m[i * d + i] += 1.0;
          put(a, b, m);
          continue;
        }
        // Site ⊗ two hard-core bosons (k = n_a + 2 n_b), row-major ((k, u), (k', u')).
        const std::size_t big = 4 * d;
        std::vector<cd> x(big * big);
        auto add = [&](std::size_t to, std::size_t from, const std::vector<cd>& m, cd f) {
          for (std::size_t p = 0; p < d; ++p)
            for (std::size_t q = 0; q < d; ++q) x[(to * d + p) * big + from * d + q] += f * m[p * d + q];
        };
        for (std::size_t k = 0; k < 4; ++k) add(k, k, dd, tau);
        if (a > 0) {
          const auto bm = b_of(a);
          add(1, 0, bm, root);
          add(3, 2, bm, root);
        }
        if (b > 0) {
          const auto cm = c_of(b);
          add(2, 0, cm, root);
          add(3, 1, cm, root);
        }
        if (a > 0 && b > 0) add(3, 0, a_of(a, b), 1.0);
        const std::vector<cd> ex = matrix_exponential(x, big);
        const std::size_t k = (a > 0 ? 1 : 0) + (b > 0 ? 2 : 0);
        std::vector<cd> m(d * d);
        for (std::size_t p = 0; p < d; ++p)
          for (std::size_t q = 0; q < d; ++q) m[p * d + q] = ex[(k * d + p) * big + q];
        put(a, b, m);
      }
    out.push_back(std::move(u));
  }
  return out;
}

std::vector<Tensor<cdouble>> second_order_step(const std::vector<Tensor<cdouble>>& h, cd tau, StepApproximation approximation) {
  const auto first = step_mpo(h, cd(0.5, 0.5) * tau, approximation);
  const auto second = step_mpo(h, cd(0.5, -0.5) * tau, approximation);
  std::vector<Tensor<cdouble>> out;
  for (std::size_t j = 0; j < h.size(); ++j) {
    const Tensor<cdouble>&a = second[j], &b = first[j];  // a on top: a·b
    const std::size_t d = a.shape[2], al = a.shape[0], ar = a.shape[1], bl = b.shape[0], br = b.shape[1];
    Tensor<cdouble> w({al * bl, ar * br, d, d});
    std::fill(w.data.begin(), w.data.end(), cdouble(0));
    for (std::size_t x = 0; x < al; ++x)
      for (std::size_t y = 0; y < ar; ++y)
        for (std::size_t p = 0; p < bl; ++p)
          for (std::size_t q = 0; q < br; ++q) {
            const cdouble* am = a.data.data() + (x * ar + y) * d * d;
            const cdouble* bm = b.data.data() + (p * br + q) * d * d;
            cdouble* wm = w.data.data() + ((x * bl + p) * (ar * br) + (y * br + q)) * d * d;
            for (std::size_t u = 0; u < d; ++u)
              for (std::size_t k = 0; k < d; ++k)
                for (std::size_t v = 0; v < d; ++v) wm[u * d + v] += am[u * d + k] * bm[k * d + v];
          }
    out.push_back(std::move(w));
  }
  return out;
}

}  // namespace srcc
