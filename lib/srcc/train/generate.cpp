#include "srcc/train/generate.hpp"

#include <array>
#include <cmath>
#include <complex>

#include "srcc/core/error.hpp"
#include "srcc/core/interrupt.hpp"
#include "srcc/core/options.hpp"
#include "srcc/core/rng.hpp"

namespace srcc {

namespace {

void check_sites(std::size_t sites) {
  if (sites < 2) throw UsageError(opt::kSites.name() + ": must be at least 2 (got " + std::to_string(sites) + ")");
}

Shape site_shape(std::size_t j, std::size_t n, std::size_t bond, std::size_t up,
                 std::size_t down) {
  return {j == 0 ? 1 : bond, j + 1 == n ? 1 : bond, up, down};
}

// Index of element (l, r, u, d) in a row-major (l, r, u, d) tensor of shape s.
std::size_t at(const Shape& s, std::size_t l, std::size_t r, std::size_t u, std::size_t d) {
  return ((l * s[1] + r) * s[2] + u) * s[3] + d;
}

void check_random(std::size_t bond, std::size_t phys) {
  if (bond < 1) throw UsageError(opt::kBond.name() + ": must be at least 1");
  if (phys < 1) throw UsageError(opt::kPhys.name() + ": must be at least 1");
}

}  // namespace

template <class T>
Tensor<T> random_site(TrainKind kind, std::size_t j, std::size_t sites, std::size_t bond,
                      std::size_t phys, Rng& rng) {
  Tensor<T> t(site_shape(j, sites, bond, phys, kind == TrainKind::kMps ? 1 : phys));
  double norm2 = 0;
  for (auto& v : t.data) {
    if constexpr (is_complex_v<T>) {
      const double re = rng.uniform(-0.5, 1.0), im = rng.uniform(-0.5, 1.0);
      v = T(static_cast<real_t<T>>(re), static_cast<real_t<T>>(im));
      norm2 += re * re + im * im;
    } else {
      const double re = rng.uniform(-0.5, 1.0);
      v = static_cast<T>(re);
      norm2 += re * re;
    }
  }
  const auto inv = static_cast<real_t<T>>(1.0 / std::sqrt(norm2));
  for (auto& v : t.data) v *= inv;
  return t;
}

template <class T>
std::vector<Tensor<T>> random_train(TrainKind kind, std::size_t sites, std::size_t bond,
                                    std::size_t phys, std::uint64_t seed) {
  check_sites(sites);
  check_random(bond, phys);
  Rng rng(seed);
  std::vector<Tensor<T>> out;
  for (std::size_t j = 0; j < sites; ++j) {
    poll_interrupt();
    out.push_back(random_site<T>(kind, j, sites, bond, phys, rng));
  }
  return out;
}

template <class T> Tensor<T> identity_site(std::size_t phys) {
  Tensor<T> t({1, 1, phys, phys});
  for (std::size_t p = 0; p < phys; ++p) t.data[at(t.shape, 0, 0, p, p)] = T(1);
  return t;
}

template <class T> std::vector<Tensor<T>> identity_mpo(std::size_t sites, std::size_t phys) {
  check_sites(sites);
  std::vector<Tensor<T>> out;
  for (std::size_t j = 0; j < sites; ++j) out.push_back(identity_site<T>(phys));
  return out;
}

template <class T>
Tensor<T> ising_site(std::size_t s, std::size_t sites, double j_coupling, double h_field) {
  // Operator-valued bond matrix W[a][b] (lower triangular): row 2 starts, column 0 ends.
  //   W = [[ I,    0,    0 ],
  //        [ Z,    0,    0 ],
  //        [ -hX, -JZ,   I ]]
  const double id[2][2] = {{1, 0}, {0, 1}}, z[2][2] = {{1, 0}, {0, -1}}, x[2][2] = {{0, 1}, {1, 0}};
  auto put = [](Tensor<T>& t, std::size_t l, std::size_t r, const double (&op)[2][2], double c) {
    for (std::size_t u = 0; u < 2; ++u)
      for (std::size_t d = 0; d < 2; ++d)
        t.data[at(t.shape, l, r, u, d)] += static_cast<T>(c * op[u][d]);
  };
  const bool first = s == 0, last = s + 1 == sites;
  Tensor<T> t(site_shape(s, sites, 3, 2, 2));
  // Rows kept: all, or only row 2 at the first site; columns: all, or only column 0 at the last.
  for (std::size_t a = first ? 2 : 0; a < 3; ++a) {
    const std::size_t l = first ? 0 : a;
    auto entry = [&](std::size_t b, const double (&op)[2][2], double c) {
      if (last && b != 0) return;
      put(t, l, last ? 0 : b, op, c);
    };
    if (a == 0) entry(0, id, 1.0);
    if (a == 1) entry(0, z, 1.0);
    if (a == 2) {
      entry(0, x, -h_field);
      entry(1, z, -j_coupling);
      entry(2, id, 1.0);
    }
  }
  return t;
}

template <class T> std::vector<Tensor<T>> ising_mpo(std::size_t sites, double j_coupling,
                                                      double h_field) {
  check_sites(sites);
  std::vector<Tensor<T>> out;
  for (std::size_t s = 0; s < sites; ++s) out.push_back(ising_site<T>(s, sites, j_coupling, h_field));
  return out;
}

namespace {

// The 2 × 2 operator a·I + b·P for P = Z or X, as values of T (row = output, column = input).
template <class T> std::array<std::array<T, 2>, 2> spin_op(std::complex<double> a, std::complex<double> b, bool x) {
  auto v = [](std::complex<double> c) {
    if constexpr (is_complex_v<T>) return T(static_cast<real_t<T>>(c.real()), static_cast<real_t<T>>(c.imag()));
    else return static_cast<T>(c.real());
  };
  std::array<std::array<T, 2>, 2> m{};
  if (x) {
    m[0][0] = m[1][1] = v(a);
    m[0][1] = m[1][0] = v(b);
  } else {
    m[0][0] = v(a + b);
    m[1][1] = v(a - b);
  }
  return m;
}

template <class T>
std::array<std::array<T, 2>, 2> times(const std::array<std::array<T, 2>, 2>& a, const std::array<std::array<T, 2>, 2>& b) {
  std::array<std::array<T, 2>, 2> c{};
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 2; ++k)
      for (int m = 0; m < 2; ++m) c[i][k] += a[i][m] * b[m][k];
  return c;
}

}  // namespace

template <class T>
Tensor<T> ising_step_site(std::size_t j, std::size_t sites, double jc, double h, double dt, bool imaginary) {
  if (!imaginary && !is_complex_v<T>)
    throw UsageError("a real-time step e^{-i dt H} is complex: use --dtype complex128 or complex64");
  using C = std::complex<double>;
  // e^{−c A} for A = −θ' P: cosh(cθ') + sinh(cθ') P, with c = i dt (real time) or dt.
  const C c = imaginary ? C(dt, 0) : C(0, dt);
  const C zz_a = std::cosh(c * jc), zz_b = std::sinh(c * jc);
  const C x_a = std::cosh(c * h / 2.0), x_b = std::sinh(c * h / 2.0);
  const auto rot = spin_op<T>(x_a, x_b, true);
  const auto id = spin_op<T>(1.0, 0.0, false), z = spin_op<T>(0.0, 1.0, false);
  // Gate (j−1, j) split as Σ_s A_s ⊗ B_s with A = (zz_a·I, zz_b·Z) on the left site, B = (I, Z).
  const std::array<std::array<std::array<T, 2>, 2>, 2> left_half = {spin_op<T>(zz_a, 0.0, false), spin_op<T>(0.0, zz_b, false)};
  const std::array<std::array<std::array<T, 2>, 2>, 2> right_half = {id, z};
  const bool first = j == 0, last = j + 1 == sites;
  Tensor<T> t({first ? 1u : 2u, last ? 1u : 2u, 2, 2});
  std::fill(t.data.begin(), t.data.end(), T(0));
  for (std::size_t a = 0; a < t.shape[0]; ++a)
    for (std::size_t b = 0; b < t.shape[1]; ++b) {
      auto op = id;
      if (!first) op = times(op, right_half[a]);
      if (!last) op = times(op, left_half[b]);
      op = times(rot, times(op, rot));
      for (std::size_t u = 0; u < 2; ++u)
        for (std::size_t d = 0; d < 2; ++d) t.data[at(t.shape, a, b, u, d)] = op[u][d];
    }
  return t;
}

template <class T> Tensor<T> magnetization_site(std::size_t j, std::size_t sites) {
  // W = [[I, 0], [Z, I]]: row 1 starts, column 0 ends.
  const bool first = j == 0, last = j + 1 == sites;
  Tensor<T> t({first ? 1u : 2u, last ? 1u : 2u, 2, 2});
  std::fill(t.data.begin(), t.data.end(), T(0));
  auto put = [&](std::size_t a, std::size_t b, double sign_z, bool identity) {
    if ((first && a != 1) || (last && b != 0)) return;
    const std::size_t l = first ? 0 : a, r = last ? 0 : b;
    for (std::size_t p = 0; p < 2; ++p)
      t.data[at(t.shape, l, r, p, p)] += static_cast<T>(identity ? 1.0 : (p == 0 ? sign_z : -sign_z));
  };
  put(0, 0, 0, true);
  put(1, 0, 1, false);
  put(1, 1, 0, true);
  return t;
}

template <class T> Tensor<T> product_site(std::size_t, std::size_t, std::size_t phys) {
  Tensor<T> t({1, 1, phys, 1});
  std::fill(t.data.begin(), t.data.end(), T(0));
  t.data[0] = T(1);
  return t;
}

#define SRCC_INSTANTIATE(T)                                                                    \
  template Tensor<T> random_site<T>(TrainKind, std::size_t, std::size_t, std::size_t, std::size_t, \
                                    Rng&);                                                      \
  template Tensor<T> identity_site<T>(std::size_t);                                            \
  template Tensor<T> ising_site<T>(std::size_t, std::size_t, double, double);                  \
  template std::vector<Tensor<T>> random_train<T>(TrainKind, std::size_t, std::size_t,        \
                                                  std::size_t, std::uint64_t);                \
  template std::vector<Tensor<T>> identity_mpo<T>(std::size_t, std::size_t);                  \
  template std::vector<Tensor<T>> ising_mpo<T>(std::size_t, double, double);                  \
  template Tensor<T> ising_step_site<T>(std::size_t, std::size_t, double, double, double, bool); \
  template Tensor<T> magnetization_site<T>(std::size_t, std::size_t);                          \
  template Tensor<T> product_site<T>(std::size_t, std::size_t, std::size_t);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
