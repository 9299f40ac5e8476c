// A leg's dense index to its sector and place (Leg::place_of), against the inverse map the leg
// already gives (dense_order) and, for a leg without a map, its sectors one after another.
#include <gtest/gtest.h>

#include "srcc/symmetric/leg.hpp"

namespace srcc {
namespace {

TEST(Leg, PlaceOfInvertsTheDenseOrder) {
  // Charges per dense index, interleaved, index 3 left out.
  const std::vector<Charge> per_index{{1}, {-1}, {1}, {3}, {-1}, {1}};
  std::vector<bool> live(per_index.size(), true);
  live[3] = false;
  const Leg leg = leg_of_charges(per_index, &live);
  ASSERT_EQ(leg.size(), 5u);
  const std::vector<std::size_t> order = leg.dense_order();  // place in sector order → dense index
  std::size_t seen = 0;
  for (std::size_t i = 0; i < per_index.size(); ++i) {
    std::size_t sector = 0, position = 0;
    if (!live[i]) {
      EXPECT_FALSE(leg.place_of(i, sector, position)) << i;
      continue;
    }
    ASSERT_TRUE(leg.place_of(i, sector, position)) << i;
    EXPECT_EQ(leg.charges[sector], per_index[i]) << i;
    std::size_t first = 0;
    for (std::size_t s = 0; s < sector; ++s) first += leg.dims[s];
    EXPECT_EQ(order[first + position], i) << i;
    ++seen;
  }
  EXPECT_EQ(seen, 5u);
}

TEST(Leg, PlaceOfWithoutAMapTakesTheSectorsInTurn) {
  Leg leg;
  leg.charges = {{0}, {2}, {4}};
  leg.dims = {2, 3, 1};
  const std::size_t want[6][2] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {1, 2}, {2, 0}};
  for (std::size_t i = 0; i < 6; ++i) {
    std::size_t sector = 9, position = 9;
    ASSERT_TRUE(leg.place_of(i, sector, position)) << i;
    EXPECT_EQ(sector, want[i][0]) << i;
    EXPECT_EQ(position, want[i][1]) << i;
  }
  std::size_t sector = 0, position = 0;
  EXPECT_FALSE(leg.place_of(6, sector, position)) << "past the leg";
}

}  // namespace
}  // namespace srcc
