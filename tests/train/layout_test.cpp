// Leg orders of stored sites: which are accepted, how boundary sites drop their outer bond, and
// how stored dims map to the internal (l, r, u, d).
#include "srcc/train/layout.hpp"

#include <gtest/gtest.h>

#include "srcc/core/error.hpp"

namespace srcc {
namespace {

TEST(Layout, AcceptsEveryPermutationOfTheKindsLetters) {
  EXPECT_EQ(Layout(TrainKind::kMps, "lpr", "f.h5:/psi").letters(), "lpr");
  EXPECT_EQ(Layout(TrainKind::kMpo, "udlr", "f.h5:/H").letters(), "udlr");
  EXPECT_EQ(default_layout(TrainKind::kMps), "lrp");
  EXPECT_EQ(default_layout(TrainKind::kMpo), "lrud");
}

TEST(Layout, RefusesOtherLettersNamingTheTrain) {
  for (const char* bad : {"lrr", "lrpd", "lr", "lrx"}) {
    try {
      Layout(TrainKind::kMps, bad, "f.h5:/psi");
      FAIL() << bad << " was accepted for an MPS";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("f.h5:/psi"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(Layout(TrainKind::kMpo, "lrp", "f.h5:/H"), InputError);
}

TEST(Layout, BoundarySitesMayDropTheirOuterBond) {
  const Layout mpo(TrainKind::kMpo, "lrud", "f.h5:/H");
  EXPECT_EQ(mpo.dataset_letters(0, 5, 4, "f.h5:/H/0"), "lrud");
  EXPECT_EQ(mpo.dataset_letters(0, 5, 3, "f.h5:/H/0"), "rud");
  EXPECT_EQ(mpo.dataset_letters(4, 5, 3, "f.h5:/H/4"), "lud");
  EXPECT_THROW(mpo.dataset_letters(2, 5, 3, "f.h5:/H/2"), InputError);  // a bulk site keeps both
  EXPECT_THROW(mpo.dataset_letters(0, 5, 2, "f.h5:/H/0"), InputError);
  const Layout mps(TrainKind::kMps, "lpr", "f.h5:/psi");
  EXPECT_EQ(mps.dataset_letters(0, 3, 2, "f.h5:/psi/0"), "pr");
  EXPECT_EQ(mps.dataset_letters(2, 3, 2, "f.h5:/psi/2"), "lp");
}

TEST(Layout, StoredDimsMapToTheInternalOrder) {
  const std::size_t lpr[] = {3, 2, 5};
  EXPECT_EQ(internal_dims("lpr", lpr), (std::array<std::size_t, kSiteRank>{3, 5, 2, 1}));
  const std::size_t dulr[] = {4, 2, 6, 7};
  EXPECT_EQ(internal_dims("dulr", dulr), (std::array<std::size_t, kSiteRank>{6, 7, 2, 4}));
  const std::size_t rud[] = {5, 2, 2};  // site 0 without l: l = 1
  EXPECT_EQ(internal_dims("rud", rud), (std::array<std::size_t, kSiteRank>{1, 5, 2, 2}));
}

}  // namespace
}  // namespace srcc
