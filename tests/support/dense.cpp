#include "dense.hpp"

#include <xtensor-blas/xlinalg.hpp>
#include <xtensor/xadapt.hpp>
#include <xtensor/xarray.hpp>
#include <xtensor/xmanipulation.hpp>

#include <algorithm>
#include <cmath>

namespace srcc::test {

template <class T> std::vector<cd> dense_vector(const std::vector<Tensor<T>>& cores) {
  // acc[(phys so far), r]
  std::vector<cd> acc(1, cd(1));
  std::size_t phys = 1, bond = 1;
  for (const auto& c : cores) {
    const std::size_t l = c.shape[0], r = c.shape[1], u = c.shape[2], d = c.shape[3];
    std::vector<cd> next(phys * u * d * r);
    for (std::size_t p = 0; p < phys; ++p)
      for (std::size_t a = 0; a < l; ++a) {
        const cd x = acc[p * bond + a];
        if (x == cd(0)) continue;
        for (std::size_t b = 0; b < r; ++b)
          for (std::size_t i = 0; i < u; ++i)
            for (std::size_t k = 0; k < d; ++k)
              next[((p * u + i) * d + k) * r + b] += x * cd(c.data[((a * r + b) * u + i) * d + k]);
      }
    acc = std::move(next);
    phys *= u * d;
    bond = r;
  }
  return acc;
}

namespace {

xt::xarray<cd> as_array(const std::vector<cd>& v, const std::vector<std::size_t>& shape) {
  xt::xarray<cd> a = xt::adapt(v, shape);
  return a;
}

std::vector<std::size_t> interleaved_shape(const std::vector<std::size_t>& ups,
                                           const std::vector<std::size_t>& downs) {
  std::vector<std::size_t> s;
  for (std::size_t j = 0; j < ups.size(); ++j) {
    s.push_back(ups[j]);
    s.push_back(downs[j]);
  }
  return s;
}

}  // namespace

std::vector<cd> interleaved_to_matrix(const std::vector<cd>& v, const std::vector<std::size_t>& ups,
                                      const std::vector<std::size_t>& downs) {
  const std::size_t n = ups.size();
  std::vector<std::size_t> perm;
  for (std::size_t j = 0; j < n; ++j) perm.push_back(2 * j);
  for (std::size_t j = 0; j < n; ++j) perm.push_back(2 * j + 1);
  xt::xarray<cd> t = xt::transpose(as_array(v, interleaved_shape(ups, downs)), perm);
  return {t.begin(), t.end()};
}

std::vector<cd> matrix_to_interleaved(const std::vector<cd>& m, const std::vector<std::size_t>& ups,
                                      const std::vector<std::size_t>& downs) {
  const std::size_t n = ups.size();
  std::vector<std::size_t> shape(ups);
  shape.insert(shape.end(), downs.begin(), downs.end());
  std::vector<std::size_t> perm;
  for (std::size_t j = 0; j < n; ++j) {
    perm.push_back(j);
    perm.push_back(n + j);
  }
  xt::xarray<cd> t = xt::transpose(as_array(m, shape), perm);
  return {t.begin(), t.end()};
}

template <class T> DenseTrain dense_train(const std::vector<Tensor<T>>& cores) {
  DenseTrain t;
  t.v = dense_vector(cores);
  for (const auto& c : cores) {
    t.ups.push_back(c.shape[2]);
    t.downs.push_back(c.shape[3]);
  }
  return t;
}

DenseTrain dense_product(const std::vector<DenseTrain>& layers) {
  auto prod = [](const std::vector<std::size_t>& v) {
    std::size_t p = 1;
    for (auto x : v) p *= x;
    return p;
  };
  const auto& top = layers.front();
  xt::xarray<cd> acc = as_array(interleaved_to_matrix(top.v, top.ups, top.downs),
                                {prod(top.ups), prod(top.downs)});
  for (std::size_t i = 1; i < layers.size(); ++i) {
    const auto& l = layers[i];
    xt::xarray<cd> m = as_array(interleaved_to_matrix(l.v, l.ups, l.downs),
                                {prod(l.ups), prod(l.downs)});
    acc = xt::linalg::dot(acc, m);
  }
  DenseTrain out;
  out.ups = top.ups;
  out.downs = layers.back().downs;
  out.v = matrix_to_interleaved({acc.begin(), acc.end()}, out.ups, out.downs);
  return out;
}

cd inner(const std::vector<cd>& a, const std::vector<cd>& b) {
  cd s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += std::conj(a[i]) * b[i];
  return s;
}

double norm(const std::vector<cd>& v) {
  double s = 0;
  for (const auto& x : v) s += std::norm(x);
  return std::sqrt(s);
}

double relative_error(const std::vector<cd>& got, const std::vector<cd>& ref) {
  if (got.size() != ref.size()) return INFINITY;
  double s = 0;
  for (std::size_t i = 0; i < got.size(); ++i) s += std::norm(got[i] - ref[i]);
  return std::sqrt(s) / norm(ref);
}

std::vector<double> cut_singular_values(const DenseTrain& t, std::size_t cut) {
  std::size_t left = 1;
  for (std::size_t j = 0; j <= cut; ++j) left *= t.ups[j] * t.downs[j];
  const std::size_t right = t.v.size() / left;
  xt::xarray<cd> m = as_array(t.v, {left, right});
  auto [u, s, vt] = xt::linalg::svd(m, false, false);
  return {s.begin(), s.end()};
}

double best_truncation_bound(const DenseTrain& t, std::size_t chi) {
  double worst = 0;
  for (std::size_t cut = 0; cut + 1 < t.ups.size(); ++cut) {
    const auto s = cut_singular_values(t, cut);
    double tail = 0;
    for (std::size_t i = chi; i < s.size(); ++i) tail += s[i] * s[i];
    worst = std::max(worst, std::sqrt(tail));
  }
  return worst / norm(t.v);
}

double svd_sweep_error(const DenseTrain& t, std::size_t chi) {
  xt::xarray<cd> rest = as_array(t.v, {t.v.size()});
  std::size_t bond = 1;
  double discarded = 0;
  for (std::size_t cut = 0; cut + 1 < t.ups.size(); ++cut) {
    const std::size_t rows = bond * t.ups[cut] * t.downs[cut];
    const std::size_t cols = rest.size() / rows;
    rest.reshape({rows, cols});
    auto [u, s, vt] = xt::linalg::svd(rest, false, true);
    const std::size_t keep = std::min<std::size_t>(chi, s.size());
    for (std::size_t i = keep; i < s.size(); ++i) discarded += s(i) * s(i);
    xt::xarray<cd> next = xt::zeros<cd>({keep, cols});
    for (std::size_t i = 0; i < keep; ++i)
      for (std::size_t c = 0; c < cols; ++c) next(i, c) = s(i) * vt(i, c);
    rest = std::move(next);
    bond = keep;
  }
  return std::sqrt(discarded) / norm(t.v);
}

template <class T> double right_orthonormality_defect(const std::vector<Tensor<T>>& cores) {
  double worst = 0;
  for (std::size_t j = 1; j < cores.size(); ++j) {
    const auto& c = cores[j];
    const std::size_t rows = c.shape[0], cols = c.size() / rows;
    for (std::size_t a = 0; a < rows; ++a)
      for (std::size_t b = 0; b < rows; ++b) {
        cd dot = 0;
        for (std::size_t x = 0; x < cols; ++x)
          dot += cd(c.data[a * cols + x]) * std::conj(cd(c.data[b * cols + x]));
        worst = std::max(worst, std::abs(dot - cd(a == b ? 1.0 : 0.0)));
      }
  }
  return worst;
}

#define SRCC_INSTANTIATE(T)                                                           \
  template std::vector<cd> dense_vector(const std::vector<Tensor<T>>&);              \
  template DenseTrain dense_train(const std::vector<Tensor<T>>&);                    \
  template double right_orthonormality_defect(const std::vector<Tensor<T>>&);
SRCC_INSTANTIATE(float)
SRCC_INSTANTIATE(double)
SRCC_INSTANTIATE(cfloat)
SRCC_INSTANTIATE(cdouble)
#undef SRCC_INSTANTIATE

// H·ψ as a train, site by site with plain loops: bonds (l_H l_ψ, r_H r_ψ), no compression.
std::vector<Tensor<cdouble>> exact_product(const std::vector<Tensor<cdouble>>& h,
                                           const std::vector<Tensor<cdouble>>& psi) {
  std::vector<Tensor<cdouble>> out;
  for (std::size_t j = 0; j < h.size(); ++j) {
    const auto &w = h[j].shape, &p = psi[j].shape;
    Tensor<cdouble> t({w[0] * p[0], w[1] * p[1], w[2], 1});
    std::fill(t.data.begin(), t.data.end(), cdouble(0));
    for (std::size_t a = 0; a < w[0]; ++a)
      for (std::size_t b = 0; b < w[1]; ++b)
        for (std::size_t u = 0; u < w[2]; ++u)
          for (std::size_t d = 0; d < w[3]; ++d)
            for (std::size_t x = 0; x < p[0]; ++x)
              for (std::size_t y = 0; y < p[1]; ++y)
                t.data[(((a * p[0] + x) * w[1] * p[1]) + b * p[1] + y) * w[2] + u] +=
                    h[j].data[((a * w[1] + b) * w[2] + u) * w[3] + d] * psi[j].data[(x * p[1] + y) * p[2] + d];
    out.push_back(std::move(t));
  }
  return out;
}

// ⟨ψ|H|ψ⟩ by dense contraction (L ≤ 16: 65536 amplitudes).
cd energy(const std::vector<Tensor<cdouble>>& h, const std::vector<Tensor<cdouble>>& psi) {
  return inner(dense_train(psi).v, dense_train(exact_product(h, psi)).v);
}

cd dense_sandwich(const std::vector<cd>& bra, const std::vector<cd>& m, const std::vector<cd>& ket) {
  const std::size_t n = ket.size();
  cd out = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < n; ++k) out += std::conj(bra[i]) * m[i * n + k] * ket[k];
  return out;
}

}  // namespace srcc::test
