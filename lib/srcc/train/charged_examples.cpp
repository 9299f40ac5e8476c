#include "srcc/train/charged_examples.hpp"

#include <algorithm>
#include <cmath>

#include "srcc/core/error.hpp"

namespace srcc {

template <class T> Tensor<T> xxz_site(std::size_t j, std::size_t sites, double jc, double delta, double h) {
  // W[l][r] is an operator (u, d); the chain is row 4 of site 0 … column 0 of the last site:
  //   row 4: [−h S^z, J/2 S^-, J/2 S^+, JΔ S^z, I], column 0: [I, S^+, S^-, S^z, −h S^z]ᵀ.
  const std::size_t dl = j == 0 ? 1 : 5, dr = j + 1 == sites ? 1 : 5;
  Tensor<T> w({dl, dr, 2, 2});
  std::fill(w.data.begin(), w.data.end(), T(0));
  using R = real_t<T>;
  const R id[4] = {1, 0, 0, 1}, sz[4] = {0.5, 0, 0, -0.5}, sp[4] = {0, 1, 0, 0}, sm[4] = {0, 0, 1, 0};
  auto put = [&](std::size_t a, std::size_t b, const R* op, double f) {
    // Site 0 keeps row 4, the last site column 0.
    if (j == 0 && a != 4) return;
    if (j + 1 == sites && b != 0) return;
    const std::size_t la = j == 0 ? 0 : a, rb = j + 1 == sites ? 0 : b;
    for (std::size_t e = 0; e < 4; ++e) w.data[(la * dr + rb) * 4 + e] += T(static_cast<R>(f) * op[e]);
  };
  put(0, 0, id, 1);
  put(1, 0, sp, 1);
  put(2, 0, sm, 1);
  put(3, 0, sz, 1);
  put(4, 0, sz, -h);
  put(4, 1, sm, jc / 2);
  put(4, 2, sp, jc / 2);
  put(4, 3, sz, jc * delta);
  put(4, 4, id, 1);
  return w;
}

namespace {

template <class T> Tensor<T> spin_site(bool up) {
  Tensor<T> t({1, 1, 2, 1});
  t.data = {up ? T(1) : T(0), up ? T(0) : T(1)};
  return t;
}

// The number of configurations of m spins with 2S^z = q (0 where none), capped at `cap`.
double configurations(std::size_t m, long long q, double cap) {
  const long long up2 = static_cast<long long>(m) + q;
  if (up2 < 0 || up2 % 2 != 0 || up2 / 2 > static_cast<long long>(m)) return 0;
  const auto k = static_cast<std::size_t>(up2 / 2);
  double c = 1;
  for (std::size_t i = 0; i < std::min(k, m - k); ++i) {
    c = c * static_cast<double>(m - i) / static_cast<double>(i + 1);
    if (c > cap) return cap;
  }
  return c;
}

}  // namespace

template <class T> Tensor<T> neel_site(std::size_t j) { return spin_site<T>(j % 2 == 0); }
template <class T> Tensor<T> domain_wall_site(std::size_t j, std::size_t sites) {
  return spin_site<T>(j < (sites + 1) / 2);
}

std::vector<std::pair<long long, std::size_t>> charged_random_bond(const ChargedRandomShape& s, std::size_t j) {
  const auto n = static_cast<long long>(s.sites);
  if (std::llabs(s.total) > n || (n + s.total) % 2 != 0)
    throw UsageError("a total 2S^z of " + std::to_string(s.total) + " does not fit " + std::to_string(n) + " spins 1/2");
  const double cap = static_cast<double>(s.bond);
  std::vector<std::pair<long long, double>> weights;
  double sum = 0;
  const double centre = static_cast<double>(s.total) * static_cast<double>(j) / static_cast<double>(n);
  for (long long q = -static_cast<long long>(j); q <= static_cast<long long>(j); q += 2) {
    const double exact = std::min(configurations(j, q, cap), configurations(s.sites - j, s.total - q, cap));
    if (exact < 1) continue;
    const double w = std::exp(-(q - centre) * (q - centre) / (2 * s.spread * s.spread));
    weights.emplace_back(q, w);
    sum += w;
  }
  std::vector<std::pair<long long, std::size_t>> out;
  for (const auto& [q, w] : weights) {
    const double exact = std::min(configurations(j, q, cap), configurations(s.sites - j, s.total - q, cap));
    const double d = std::clamp(std::round(cap * w / sum), 1.0, exact);
    out.emplace_back(q, static_cast<std::size_t>(d));
  }
  return out;
}

template <class T> Tensor<T> charged_random_site(const ChargedRandomShape& s, std::size_t j, Rng& rng) {
  const auto left = charged_random_bond(s, j), right = charged_random_bond(s, j + 1);
  auto offsets = [](const std::vector<std::pair<long long, std::size_t>>& b) {
    std::vector<std::size_t> o{0};
    for (const auto& [q, d] : b) o.push_back(o.back() + d);
    return o;
  };
  const auto lo = offsets(left), ro = offsets(right);
  Tensor<T> t({lo.back(), ro.back(), 2, 1});
  std::fill(t.data.begin(), t.data.end(), T(0));
  for (std::size_t a = 0; a < left.size(); ++a)
    for (std::size_t u = 0; u < 2; ++u) {
      const long long q = left[a].first + (u == 0 ? 1 : -1);
      for (std::size_t b = 0; b < right.size(); ++b) {
        if (right[b].first != q) continue;
        for (std::size_t x = lo[a]; x < lo[a + 1]; ++x)
          for (std::size_t y = ro[b]; y < ro[b + 1]; ++y) {
            if constexpr (is_complex_v<T>) {
              const double re = rng.normal(), im = rng.normal();
              t.data[(x * ro.back() + y) * 2 + u] = T(static_cast<real_t<T>>(re), static_cast<real_t<T>>(im));
            } else {
              t.data[(x * ro.back() + y) * 2 + u] = static_cast<T>(rng.normal());
            }
          }
      }
    }
  const double norm = frobenius_norm(t);
  for (auto& v : t.data) v /= static_cast<real_t<T>>(norm);
  return t;
}

PhysicalCharges spin_half_charges(std::size_t sites, TrainKind kind) {
  PhysicalCharges c;
  c.rule.moduli = {1};
  c.up.assign(sites, {Charge{1}, Charge{-1}});
  c.down.assign(sites, kind == TrainKind::kMpo ? std::vector<Charge>{Charge{1}, Charge{-1}} : std::vector<Charge>{Charge{0}});
  return c;
}

#define SRCC_INSTANTIATE(T)                                                                      \
  template Tensor<T> xxz_site<T>(std::size_t, std::size_t, double, double, double);            \
  template Tensor<T> neel_site<T>(std::size_t);                                                \
  template Tensor<T> domain_wall_site<T>(std::size_t, std::size_t);                            \
  template Tensor<T> charged_random_site<T>(const ChargedRandomShape&, std::size_t, Rng&);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
