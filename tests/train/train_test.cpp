// Tests of the train model (lib/srcc/train/train.cpp): train arguments, the fused bonds of a
// stack, and the checks that a stack can be contracted, each naming the site and the mismatch.
#include "srcc/train/train.hpp"

#include <gtest/gtest.h>

#include "srcc/core/error.hpp"

namespace srcc {
namespace {

// A train description of n sites with bond `bond` and legs u, d (d = 1: an MPS).
TrainInfo train(const std::string& group, std::size_t n, std::size_t bond, std::size_t u,
                std::size_t d) {
  TrainInfo t;
  t.file = "f.h5";
  t.group = group;
  t.kind = d == 1 ? TrainKind::kMps : TrainKind::kMpo;
  for (std::size_t j = 0; j < n; ++j) {
    t.dims.push_back({j == 0 ? 1 : bond, j + 1 == n ? 1 : bond, u, d});
    t.dtypes.push_back(DType::kFloat64);
    t.dataset_shapes.push_back({t.dims.back().begin(), t.dims.back().end()});
  }
  return t;
}

std::string error_of(const Stack& s) {
  try {
    validate_stack(s);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(TrainRef, FileAndGroupSplitAtTheLastColonSlash) {
  EXPECT_EQ(parse_train_ref("in.h5").file, "in.h5");
  EXPECT_EQ(parse_train_ref("in.h5").group, "");
  const TrainRef r = parse_train_ref("run:3/in.h5:/states/psi");
  EXPECT_EQ(r.file, "run:3/in.h5");
  EXPECT_EQ(r.group, "/states/psi");
  EXPECT_THROW(parse_train_ref(""), UsageError);
}

TEST(Stack, FusedBondsAndTheLargestBond) {
  Stack s{{train("/H", 6, 3, 2, 2), train("/psi", 6, 4, 2, 1)}};
  EXPECT_NO_THROW(validate_stack(s));
  EXPECT_EQ(s.fused_left(0), 1u);
  EXPECT_EQ(s.fused_left(3), 12u);
  EXPECT_EQ(s.fused_right(5), 1u);
  EXPECT_EQ(s.result_kind(), TrainKind::kMps);
  // At the middle cut: min(fused 12, 2³ on either side) = 8.
  EXPECT_EQ(s.largest_bond(), 8u);
}

TEST(Stack, MismatchesNameTheSiteAndTheLegs) {
  Stack length{{train("/H", 6, 3, 2, 2), train("/psi", 5, 4, 2, 1)}};
  EXPECT_NE(error_of(length).find("f.h5:/psi: has 5 sites but f.h5:/H has 6"), std::string::npos)
      << error_of(length);
  Stack legs{{train("/H", 4, 3, 2, 3), train("/psi", 4, 4, 2, 1)}};
  EXPECT_NE(error_of(legs).find("down (input) leg has size 3"), std::string::npos) << error_of(legs);
  Stack order{{train("/psi", 4, 4, 2, 1), train("/H", 4, 3, 2, 2)}};
  EXPECT_NE(error_of(order).find("an MPS can only be the last"), std::string::npos) << error_of(order);
  Stack bonds{{train("/psi", 4, 4, 2, 1)}};
  bonds.layers[0].dims[2][kLegL] = 5;
  EXPECT_NE(error_of(bonds).find("/psi/2: left bond 5"), std::string::npos) << error_of(bonds);
}

}  // namespace
}  // namespace srcc
