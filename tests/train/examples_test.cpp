// The example table (lib/srcc/train/examples.cpp): every kind by name, its sites those of the
// generators it names, its type and bond, and options that do not fit refused by flag.
#include "srcc/train/examples.hpp"

#include <gtest/gtest.h>

#include "srcc/core/error.hpp"
#include "srcc/train/generate.hpp"

namespace srcc {
namespace {

TEST(Examples, EveryKindByNameAndUnknownOnesRefused) {
  for (const auto& row : example_table()) EXPECT_EQ(parse_example(std::string(row.name)), row.example);
  try {
    (void)parse_example("heisenberg");
    ADD_FAILURE() << "accepted an unknown kind";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("ising-step"), std::string::npos) << e.what();
  }
}

TEST(Examples, SitesAreTheGeneratorsAndTypesFollowTheKind) {
  ExampleOptions o{.example = Example::kIsing, .sites = 5, .coupling = 0.7, .field = 0.3};
  Rng rng(0);
  EXPECT_EQ(example_site<double>(o, 2, rng).data, (ising_site<double>(2, 5, 0.7, 0.3).data));
  EXPECT_EQ(example_bond(o), 3u);
  EXPECT_EQ(example_dtype(o), DType::kFloat64);
  o.example = Example::kIsingStep;
  o.dt = 0.1;
  EXPECT_EQ(example_dtype(o), DType::kComplex128) << "a real-time step is complex";
  o.imaginary = true;
  EXPECT_EQ(example_dtype(o), DType::kFloat64);
  // Random trains draw site after site from one stream, as random_train does.
  o = ExampleOptions{.example = Example::kRandomMpo, .sites = 4, .bond = 3, .phys = 2, .seed = 9};
  Rng draws(o.seed);
  const auto whole = random_train<double>(TrainKind::kMpo, 4, 3, 2, 9);
  for (std::size_t j = 0; j < 4; ++j) EXPECT_EQ(example_site<double>(o, j, draws).data, whole[j].data) << j;
}

TEST(Examples, OptionsThatDoNotFitNameTheirFlag) {
  auto refused = [](const ExampleOptions& o, const std::string& flag) {
    try {
      check_example(o);
      ADD_FAILURE() << "accepted; expected " << flag;
    } catch (const UsageError& e) {
      EXPECT_EQ(std::string(e.what()).rfind(flag, 0), 0u) << e.what();
    }
  };
  refused({.example = Example::kMagnetization, .phys = 3}, "--phys");
  refused({.example = Example::kIsingStep}, "--dt");
  refused({.example = Example::kIsing, .field = std::nan("")}, "--h");
  ExampleOptions huge{.example = Example::kIsingStep, .sites = 4, .coupling = 1e300, .dt = 1e300, .imaginary = true};
  Rng rng(0);
  EXPECT_THROW(example_site<double>(huge, 1, rng), UsageError) << "entries beyond the type";
}

}  // namespace
}  // namespace srcc
