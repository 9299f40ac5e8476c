#include "srcc/train/generate.hpp"

#include <cmath>

#include "srcc/core/error.hpp"
#include "srcc/core/interrupt.hpp"
#include "srcc/core/rng.hpp"
#include "srcc/core/options.hpp"

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

#define SRCC_INSTANTIATE(T)                                                                    \
  template Tensor<T> random_site<T>(TrainKind, std::size_t, std::size_t, std::size_t, std::size_t, \
                                    Rng&);                                                      \
  template Tensor<T> identity_site<T>(std::size_t);                                            \
  template Tensor<T> ising_site<T>(std::size_t, std::size_t, double, double);                  \
  template std::vector<Tensor<T>> random_train<T>(TrainKind, std::size_t, std::size_t,        \
                                                  std::size_t, std::uint64_t);                \
  template std::vector<Tensor<T>> identity_mpo<T>(std::size_t, std::size_t);                  \
  template std::vector<Tensor<T>> ising_mpo<T>(std::size_t, double, double);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
