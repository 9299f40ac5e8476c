#include "srcc/symmetric/charged_sector_form.hpp"

#include <cmath>
#include <map>
#include <memory>
#include <numeric>
#include <stdexcept>

#include "srcc/core/error.hpp"
#include "srcc/symmetric/block_ops.hpp"
#include "srcc/symmetric/charged_truncation.hpp"

namespace srcc {

namespace {


// Whether every site's charges agree under the rule.
bool same_per_site(const ChargeRule& rule, const std::vector<std::vector<Charge>>& a,
                   const std::vector<std::vector<Charge>>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t j = 0; j < a.size(); ++j)
    if (!rule.same(a[j], b[j])) return false;
  return true;
}

// The template's bond j carries our charge plus shift[j]: its left boundary's charge, less the
// tensors' own totals to its left (sectors.hpp's rule; ours has no totals, a left boundary of 0).
template <class T> std::vector<Charge> gauge_shift(const ChargedCores<T>& result, const SectorTemplate& tpl) {
  const ChargeRule& rule = result.physical.rule;
  const std::size_t n = result.cores.size();
  std::vector<Charge> shift(n + 1);
  shift[0] = add_charge(rule, tpl.left, result.cores.front().legs[0].charges.front(), -1);
  for (std::size_t j = 0; j < n; ++j) shift[j + 1] = add_charge(rule, shift[j], tpl.site_total[j], -1);
  return shift;
}

template <class T> Charge right_charge(const ChargedCores<T>& result, const std::vector<Charge>& shift) {
  return add_charge(result.physical.rule, result.cores.back().legs[1].charges.front(), shift.back());
}

}  // namespace

template <class T> bool fits_template(const ChargedCores<T>& result, const SectorTemplate& tpl) {
  const PhysicalCharges& physical = result.physical;
  const ChargeRule& rule = physical.rule;
  if (result.cores.empty() || rule.moduli != tpl.rule.moduli || tpl.site_total.size() != result.cores.size() ||
      !same_per_site(rule, physical.up, tpl.up) || !same_per_site(rule, physical.down, tpl.down))
    return false;
  return right_charge(result, gauge_shift(result, tpl)) == rule.reduce(tpl.right);
}

template <class T>
SectorForm<T> charged_sector_form(Kernels<T>& K, ChargedCores<T> result, const SectorTemplate& tpl, bool schmidt) {
  if (!fits_template(result, tpl)) throw std::logic_error("charged_sector_form: a template of other charges");
  std::vector<BlockTensor<T>>& cores = result.cores;
  const ChargeRule& rule = result.physical.rule;
  const std::size_t n = cores.size();
  const std::vector<Charge> shift = gauge_shift(result, tpl);
  const Charge right = right_charge(result, shift);
  const bool as_it_is = !schmidt && result.b_form && !result.schmidt;
  SchmidtForm form;
  if (!as_it_is) form = result.schmidt ? std::move(*result.schmidt) : schmidt_b_form(K, cores, rule);
  const auto& spectra = form.spectra;
  SectorForm<T> out;
  out.bonds.assign(n + 1, {});
  out.schmidt.assign(n + 1, {});
  out.schmidt[0] = out.schmidt[n] = {1.0};
  out.bonds[0] = {rule.reduce(tpl.left)};
  out.bonds[n] = {right};
  for (std::size_t j = 1; j < n; ++j) {
    // The bond's sectors in the template's charge order: each dense index says where it lies.
    Leg leg = cores[j].legs[0];
    std::map<Charge, std::size_t, ChargeOrder> order;  // template charge → sector
    for (std::size_t s = 0; s < leg.sectors(); ++s) order[add_charge(rule, leg.charges[s], shift[j])] = s;
    std::map<Charge, const std::vector<double>*> values;
    if (!as_it_is)
      for (const auto& sv : spectra[j]) values[sv.charge] = &sv.values;
    leg.sector_of.clear();
    leg.position_of.clear();
    double sum2 = 0;
    for (const auto& [q, s] : order) {
      const std::vector<double>* v = as_it_is ? nullptr : values.at(leg.charges[s]);
      for (std::size_t p = 0; p < leg.dims[s]; ++p) {
        leg.sector_of.push_back(s);
        leg.position_of.push_back(p);
        out.bonds[j].push_back(q);
        if (!v) continue;
        out.schmidt[j].push_back(v->at(p));
        sum2 += (*v)[p] * (*v)[p];
      }
    }
    if (!as_it_is) {
      if (!(sum2 > 0)) throw NumericalError("writing back with charges: the result is zero at cut " + std::to_string(j));
      for (double& v : out.schmidt[j]) v /= std::sqrt(sum2);
    }
    cores[j].legs[0] = leg;
    cores[j - 1].legs[1] = leg;
  }
  out.norm = norm_of(K, cores.front());
  if (as_it_is && !(out.norm > 0)) throw NumericalError("writing back with charges: the result is zero");
  for (const auto& c : cores) {
    std::size_t elements = 1;
    for (const Leg& leg : c.legs) elements *= leg.dense_size();
    out.made_elements.push_back(elements);
  }
  // Each site made dense as the writer takes it: never the whole dense train at once. Core 0 is
  // scaled in its dense copy (the blocks may be shared with the caller's result). A writer that
  // takes blocks reads them where they lie instead (`element`).
  auto blocks = std::make_shared<const std::vector<BlockTensor<T>>>(std::move(cores));
  const auto inv = static_cast<real_t<T>>(out.norm > 0 ? 1.0 / out.norm : 1.0);
  out.make = [&K, blocks, inv](std::size_t j) {
    Tensor<T> c = dense_of_blocks(K, blocks->at(j));
    if (j == 0)
      for (auto& v : c.data) v *= inv;
    return c;
  };
  out.first_scale = inv;
  out.element = [blocks](std::size_t j, const std::size_t (&index)[4], std::size_t& stride, std::size_t& run) -> const T* {
    const BlockTensor<T>& c = blocks->at(j);
    BlockKey key;
    std::size_t at[4];
    run = 1;
    for (std::size_t k = 0; k < 4; ++k) {
      std::size_t sector = 0, position = 0;
      if (!c.legs[k].place_of(index[k], sector, position)) return nullptr;
      key.push_back(static_cast<std::uint32_t>(sector));
      at[k] = position;
    }
    const std::size_t dr = c.legs[1].dims[key[1]], du = c.legs[2].dims[key[2]], dd = c.legs[3].dims[key[3]];
    // The dense indices after r that follow it in its sector (all of the rest where the leg's
    // sectors lie one after another).
    const Leg& right = c.legs[1];
    run = dr - at[1];
    if (!right.sector_of.empty()) {
      std::size_t m = 1;
      while (m < run && index[1] + m < right.sector_of.size() && right.sector_of[index[1] + m] == key[1] &&
             right.position_of[index[1] + m] == at[1] + m)
        ++m;
      run = m;
    }
    stride = du * dd;
    const auto* b = c.find(key);
    if (!b) return nullptr;
    return c.at(*b) + ((at[0] * dr + at[1]) * du + at[2]) * dd + at[3];
  };
  out.truncated_weight = out.norm > 0 ? form.dropped2 / (out.norm * out.norm) : 0.0;
  return out;
}

#define SRCC_INSTANTIATE(T)                                                                                   \
  template bool fits_template(const ChargedCores<T>&, const SectorTemplate&);                                 \
  template SectorForm<T> charged_sector_form(Kernels<T>&, ChargedCores<T>, const SectorTemplate&, bool);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
