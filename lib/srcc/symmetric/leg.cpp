#include "srcc/symmetric/leg.hpp"

#include <algorithm>
#include <map>

namespace srcc {

std::size_t Leg::size() const {
  std::size_t n = 0;
  for (std::size_t d : dims) n += d;
  return n;
}

std::size_t Leg::find(const Charge& q) const {
  for (std::size_t s = 0; s < charges.size(); ++s)
    if (charges[s] == q) return s;
  return kDropped;
}

bool Leg::place_of(std::size_t i, std::size_t& sector, std::size_t& position) const {
  if (!sector_of.empty()) {
    sector = sector_of.at(i);
    position = position_of.at(i);
    return sector != kDropped;
  }
  for (sector = 0; sector < sectors(); ++sector) {
    if (i < dims[sector]) {
      position = i;
      return true;
    }
    i -= dims[sector];
  }
  return false;
}

std::vector<std::size_t> Leg::dense_order() const {
  std::vector<std::size_t> first(dims.size(), 0);
  for (std::size_t s = 1; s < dims.size(); ++s) first[s] = first[s - 1] + dims[s - 1];
  std::vector<std::size_t> order(size(), kDropped);
  for (std::size_t i = 0; i < sector_of.size(); ++i)
    if (sector_of[i] != kDropped) order[first[sector_of[i]] + position_of[i]] = i;
  return order;
}

std::string Leg::describe() const {
  std::string out = "[";
  for (std::size_t s = 0; s < charges.size(); ++s) {
    if (s > 0) out += ", ";
    std::string q;
    for (std::size_t c = 0; c < charges[s].size(); ++c) q += (c ? "," : "") + std::to_string(charges[s][c]);
    out += "(" + q + "): " + std::to_string(dims[s]);
  }
  return out + "]";
}

Leg leg_of_charges(const std::vector<Charge>& per_index, const std::vector<bool>* live) {
  std::map<Charge, std::size_t, ChargeOrder> count;
  for (std::size_t i = 0; i < per_index.size(); ++i)
    if (!live || (*live)[i]) ++count[per_index[i]];
  Leg leg;
  for (const auto& [q, n] : count) {
    leg.charges.push_back(q);
    leg.dims.push_back(0);
  }
  leg.sector_of.assign(per_index.size(), Leg::kDropped);
  leg.position_of.assign(per_index.size(), Leg::kDropped);
  for (std::size_t i = 0; i < per_index.size(); ++i) {
    if (live && !(*live)[i]) continue;
    const std::size_t s = leg.find(per_index[i]);
    leg.sector_of[i] = s;
    leg.position_of[i] = leg.dims[s]++;
  }
  return leg;
}

Leg single_sector_leg(std::size_t dim, Charge q) {
  Leg leg;
  leg.charges.push_back(std::move(q));
  leg.dims.push_back(dim);
  leg.sector_of.assign(dim, 0);
  for (std::size_t i = 0; i < dim; ++i) leg.position_of.push_back(i);
  return leg;
}

Charge add_charge(const ChargeRule& rule, const Charge& a, const Charge& b, int sign) {
  Charge out(a.size(), 0);
  for (std::size_t c = 0; c < a.size(); ++c) out[c] = a[c] + sign * b[c];
  return rule.reduce(std::move(out));
}

Charge negate_charge(const ChargeRule& rule, const Charge& a) { return add_charge(rule, Charge(a.size(), 0), a, -1); }

}  // namespace srcc
