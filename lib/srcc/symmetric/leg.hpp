#pragma once
// One leg of a block-sparse tensor: its sectors, each a charge and a dimension, in a fixed order
// (distinct charges, sorted as train/sectors.hpp's ChargeOrder). A leg made from the charges of a
// dense leg's indices also says where each index went (`sector_of`, `position_of`), so that dense
// tensors, test tensors and results move between the two forms.
#include <cstddef>
#include <string>
#include <vector>

#include "srcc/train/sectors.hpp"

namespace srcc {

struct Leg {
  std::vector<Charge> charges;    // per sector
  std::vector<std::size_t> dims;  // per sector
  // Per dense index: its sector and its place in it (kDropped: an index the leg leaves out).
  std::vector<std::size_t> sector_of, position_of;
  static constexpr std::size_t kDropped = static_cast<std::size_t>(-1);

  std::size_t sectors() const { return charges.size(); }
  std::size_t size() const;  // Σ dims
  // Indices of the leg's dense form: as many as it maps, else its sectors one after another.
  std::size_t dense_size() const { return sector_of.empty() ? size() : sector_of.size(); }
  // The sector of charge q, or kDropped.
  std::size_t find(const Charge& q) const;
  // The dense indices in sector order (the inverse of sector_of/position_of).
  std::vector<std::size_t> dense_order() const;
  // Dense index i's sector and place there (without a map: the sectors one after another);
  // false for an index the leg leaves out.
  bool place_of(std::size_t i, std::size_t& sector, std::size_t& position) const;
  bool same_sectors(const Leg& o) const { return charges == o.charges && dims == o.dims; }
  std::string describe() const;  // "[q: dim, …]" for messages
};

// The leg of a dense leg whose index i has charge `per_index[i]` (already reduced by the rule);
// indices with `live[i]` false (when given) are left out.
Leg leg_of_charges(const std::vector<Charge>& per_index, const std::vector<bool>* live = nullptr);

// A leg of one sector: the charge q, `dim` indices (a sketch leg, a boundary bond).
Leg single_sector_leg(std::size_t dim, Charge q);

// a + sign·b and −a under the rule (Z_N parts reduced).
Charge add_charge(const ChargeRule& rule, const Charge& a, const Charge& b, int sign = +1);
Charge negate_charge(const ChargeRule& rule, const Charge& a);

}  // namespace srcc
