// The terms of a sum as trains (lib/srcc/train/term_sum.cpp): the bond bounds of the summed
// network, and terms that cannot be added refused naming the term.
#include "srcc/train/term_sum.hpp"

#include <gtest/gtest.h>

#include "../support/stacks.hpp"
#include "srcc/core/error.hpp"

namespace srcc::test {
namespace {

TEST(TermSum, BondBoundsAddTheTermsUpToThePhysicalLimit) {
  const auto a = make_stack<double>(std::vector<CLayer>{{TrainKind::kMps, real_cores(TrainKind::kMps, 10, 5, 2, 1)}});
  const auto b = make_stack<double>(std::vector<CLayer>{
      {TrainKind::kMpo, real_cores(TrainKind::kMpo, 10, 2, 2, 2)}, {TrainKind::kMps, real_cores(TrainKind::kMps, 10, 3, 2, 3)}});
  const auto bound = sum_bond_bounds({&a.stack, &b.stack});
  EXPECT_EQ(bound[5], 5u + 6u);  // the terms' bonds added up
  EXPECT_EQ(bound[1], 2u);       // one site of dimension 2 to the left
  EXPECT_EQ(bound[9], 2u);       // and to the right
  EXPECT_EQ(bound[3], 8u);
  EXPECT_EQ(sum_largest_bond({&a.stack, &b.stack}), 11u);
}

TEST(TermSum, TermsThatCannotBeAddedAreRefusedByTerm) {
  const auto a = make_stack<double>(std::vector<CLayer>{{TrainKind::kMps, real_cores(TrainKind::kMps, 6, 3, 2, 1)}});
  const auto shorter = make_stack<double>(std::vector<CLayer>{{TrainKind::kMps, real_cores(TrainKind::kMps, 5, 3, 2, 2)}});
  const auto wider = make_stack<double>(std::vector<CLayer>{{TrainKind::kMps, real_cores(TrainKind::kMps, 6, 3, 3, 3)}});
  const auto op = make_stack<double>(std::vector<CLayer>{{TrainKind::kMpo, real_cores(TrainKind::kMpo, 6, 2, 2, 4)}});
  EXPECT_NO_THROW(validate_terms({&a.stack, &a.stack}));
  for (const auto* other : {&shorter.stack, &wider.stack, &op.stack}) {
    try {
      validate_terms({&a.stack, other});
      ADD_FAILURE() << "added";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("term 2"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace srcc::test
