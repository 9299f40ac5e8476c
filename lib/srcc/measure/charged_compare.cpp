#include "srcc/measure/charged_compare.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include "srcc/core/interrupt.hpp"
#include "srcc/symmetric/block_ops.hpp"
#include "srcc/symmetric/charged_stack.hpp"
#include "srcc/symmetric/sector_svd.hpp"

namespace srcc {

namespace {

// The transfer matrix's axes: the bonds of the bra (a) and the ket (b), the physical legs.
constexpr int kA = 1, kAR = 2, kB = 3, kBR = 4, kU = 5, kD = 6;

template <class T> BlockTensor<T> scaled_copy(Kernels<T>& K, const BlockTensor<T>& t, double factor) {
  BlockTensor<T> out = t;
  out.data = K.allocate(std::max<std::size_t>(t.elements, 1));
  K.copy(t.elements, t.data.data(), out.data.data());
  scale_by(K, out, factor);
  return out;
}

// ⟨x|y⟩ through E[α, β] (α: x's bond, β: y's bond), kept at unit norm.
template <class T> Scaled inner(Kernels<T>& K, const std::vector<BlockTensor<T>>& x, const std::vector<BlockTensor<T>>& y) {
  const std::vector<Leg> legs{x.front().legs[0], y.front().legs[0]};
  BlockTensor<T> e = allocate_blocks(K, legs, {kA, kB}, all_keys(legs));
  e.data = K.adopt(std::vector<T>(e.elements, T(1)));
  double log_scale = 0;
  for (std::size_t j = 0; j < x.size(); ++j) {
    poll_interrupt();
    const BlockTensor<T> t = contract(K, e, relabelled(y[j], {kB, kBR, kU, kD}), {kB});  // (α, β', u, d)
    e = relabelled(contract(K, conj_of(K, relabelled(x[j], {kA, kAR, kU, kD})), t, {kA, kU, kD}), {kA, kB});
    const double norm = norm_of(K, e);
    if (!(norm > 0)) return Scaled{0, 0};  // no sector in common (different total charges), or zero
    scale_by(K, e, 1 / norm);
    log_scale += std::log(norm);
  }
  const Tensor<T> last = dense_of_blocks(K, e);
  return Scaled{cdouble(last.data.at(0)), log_scale};
}

// The direct sum of two cores (l, r, u, d) along l (`merge_l`) and r (`merge_r`): x's blocks
// first in every merged sector, y's after them; the axes not merged must be the same in both.
template <class T>
BlockTensor<T> direct_sum(Kernels<T>& K, const BlockTensor<T>& x, const BlockTensor<T>& y, bool merge_l, bool merge_r) {
  std::vector<Leg> legs = x.legs;
  std::vector<std::vector<std::size_t>> at_x(2), at_y(2), sector_x(2), sector_y(2);  // per merged axis
  for (std::size_t ax = 0; ax < 4; ++ax) {
    const bool merge = (ax == 0 && merge_l) || (ax == 1 && merge_r);
    if (!merge) {
      if (!x.legs[ax].same_sectors(y.legs[ax])) throw std::logic_error("direct_sum: legs not merged differ");
      continue;
    }
    std::map<Charge, std::pair<std::size_t, std::size_t>, ChargeOrder> dims;  // charge → (x's, y's)
    for (std::size_t s = 0; s < x.legs[ax].sectors(); ++s) dims[x.legs[ax].charges[s]].first = x.legs[ax].dims[s];
    for (std::size_t s = 0; s < y.legs[ax].sectors(); ++s) dims[y.legs[ax].charges[s]].second = y.legs[ax].dims[s];
    Leg leg;
    for (const auto& [q, d] : dims) {
      leg.charges.push_back(q);
      leg.dims.push_back(d.first + d.second);
    }
    for (std::size_t s = 0; s < x.legs[ax].sectors(); ++s) {
      sector_x[ax].push_back(leg.find(x.legs[ax].charges[s]));
      at_x[ax].push_back(0);
    }
    for (std::size_t s = 0; s < y.legs[ax].sectors(); ++s) {
      sector_y[ax].push_back(leg.find(y.legs[ax].charges[s]));
      at_y[ax].push_back(dims[y.legs[ax].charges[s]].first);
    }
    legs[ax] = std::move(leg);
  }
  auto place = [&](const BlockKey& k, const std::vector<std::vector<std::size_t>>& sector) {
    BlockKey out = k;
    for (std::size_t ax = 0; ax < 2; ++ax)
      if (!sector[ax].empty()) out[ax] = static_cast<std::uint32_t>(sector[ax][k[ax]]);
    return out;
  };
  std::vector<BlockKey> keys;
  for (const auto& b : x.blocks) keys.push_back(place(b.key, sector_x));
  for (const auto& b : y.blocks) keys.push_back(place(b.key, sector_y));
  BlockTensor<T> out = allocate_blocks(K, legs, x.labels, keys);
  K.zero(out.elements, out.data.data());
  auto copy_in = [&](const BlockTensor<T>& t, const std::vector<std::vector<std::size_t>>& sector,
                     const std::vector<std::vector<std::size_t>>& at) {
    for (const auto& b : t.blocks) {
      const BlockKey key = place(b.key, sector);
      const Shape s = t.block_shape(b.key), m = out.block_shape(key);
      const std::size_t o_l = at[0].empty() ? 0 : at[0][b.key[0]], o_r = at[1].empty() ? 0 : at[1][b.key[1]];
      const std::size_t ud = s[2] * s[3];
      // Row-major (l, r·u·d): each row of the block is a run of the merged block's row.
      K.copy_runs(s[0], s[1] * ud, t.at(b), s[1] * ud, out.at(*out.find(key)) + (o_l * m[1] + o_r) * ud, m[1] * ud);
    }
  };
  copy_in(x, sector_x, at_x);
  copy_in(y, sector_y, at_y);
  return out;
}

// log ‖x − y‖ for cores at one scale (y's first core negated already): the difference train,
// right-orthonormalised site by site; its norm ends up in the first core.
template <class T>
double log_norm_of_difference(Kernels<T>& K, const std::vector<BlockTensor<T>>& x, const std::vector<BlockTensor<T>>& y,
                              const ChargeRule& rule) {
  using namespace axis;
  const std::size_t n = x.size();
  const std::vector<int> core{kCoreL, kCoreR, kCoreU, kCoreD};
  auto site = [&](std::size_t j) { return relabelled(direct_sum(K, x[j], y[j], j > 0, j + 1 < n), core); };
  BlockTensor<T> carry = n == 1 ? relabelled(add_blocks<T>(K, {{&x[0], 1.0}, {&y[0], 1.0}}), core) : site(n - 1);
  double log_scale = 0;
  for (std::size_t j = n; j-- > 1;) {
    poll_interrupt();
    SectorSvd<T> qr = sector_svd(K, carry, {kCoreR, kCoreU, kCoreD}, {-1, +1, -1}, rule, Factorization::kQr);
    double total = 0;
    choose_ranks(qr, 0, 0.0, 0.0, total);
    const BlockTensor<T> r = relabelled(right_factor(K, qr, kNew, group_charges(qr, rule, true)), {kNew, kCoreR});
    carry = relabelled(contract(K, site(j - 1), r, {kCoreR}), {kCoreL, kCoreU, kCoreD, kCoreR});
    const double norm = norm_of(K, carry);
    if (!(norm > 0)) return -std::numeric_limits<double>::infinity();
    scale_by(K, carry, 1 / norm);
    log_scale += std::log(norm);
  }
  const double norm = norm_of(K, carry);
  return norm > 0 ? std::log(norm) + log_scale : -std::numeric_limits<double>::infinity();
}

// Every site at unit scale (its norm's power of two taken out: exact), the logs of the factors
// summed into `log_f`.
template <class T> std::vector<BlockTensor<T>> unit_sites(Kernels<T>& K, const std::vector<BlockTensor<T>>& t, double& log_f) {
  std::vector<BlockTensor<T>> out;
  log_f = 0;
  for (const auto& site : t) {
    int e = 0;
    std::frexp(norm_of(K, site), &e);
    out.push_back(scaled_copy(K, site, std::ldexp(1.0, -e)));
    log_f -= e * std::log(2.0);
  }
  return out;
}

}  // namespace

template <class T> double charged_log_norm(Kernels<T>& K, const std::vector<BlockTensor<T>>& a) {
  double log_f = 0;
  const std::vector<BlockTensor<T>> x = unit_sites(K, a, log_f);
  return 0.5 * inner(K, x, x).log_abs() - log_f;
}

template <class T>
ChargedComparison charged_comparison(Kernels<T>& K, const std::vector<BlockTensor<T>>& a,
                                     const std::vector<BlockTensor<T>>& b, const ChargeRule& rule) {
  const std::size_t n = a.size();
  double log_fa = 0, log_fb = 0;
  std::vector<BlockTensor<T>> x = unit_sites(K, a, log_fa), y = unit_sites(K, b, log_fb);
  auto rescaled = [](Scaled v, double log_f) {
    v.log_scale -= log_f;
    return v;
  };
  ChargedComparison out;
  out.aa = rescaled(inner(K, x, x), 2 * log_fa);
  out.bb = rescaled(inner(K, y, y), 2 * log_fb);
  out.ab = rescaled(inner(K, x, y), log_fa + log_fb);
  const double la = out.aa.log_abs(), lb = out.bb.log_abs(), hi = std::max(la, lb);
  if (std::abs(la - lb) > 80) {
    out.log_distance = 0.5 * hi;  // norms 1e17 apart: ‖a − b‖ is the larger to rounding
    return out;
  }
  if (!a.back().legs[1].same_sectors(b.back().legs[1])) {
    // Different total charges: orthogonal, ‖a − b‖² = ‖a‖² + ‖b‖².
    out.log_distance = 0.5 * (hi + std::log(std::exp(la - hi) + std::exp(lb - hi)));
    return out;
  }
  // The difference of b's unit sites and a's, a's times the ratio of the two trains' factors
  // spread evenly over its sites (so that neither train's sites vanish beside the other's
  // anywhere): exactly e^{log_fb}·(a − b).
  const double spread = std::exp((log_fb - log_fa) / static_cast<double>(n));
  for (auto& site : x) scale_by(K, site, spread);
  y.front() = scaled_copy(K, y.front(), -1.0);
  out.log_distance = log_norm_of_difference(K, x, y, rule) - log_fb;
  return out;
}

#define SRCC_INSTANTIATE(T)                                                                                   \
  template ChargedComparison charged_comparison(Kernels<T>&, const std::vector<BlockTensor<T>>&,              \
                                                const std::vector<BlockTensor<T>>&, const ChargeRule&);   \
  template double charged_log_norm(Kernels<T>&, const std::vector<BlockTensor<T>>&);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
