// generate's writing (lib/srcc/session/write_example.cpp): the kind's group when none is given,
// a group added to an existing file, the sites those of the example, and the budget checked
// before anything is written.
#include "srcc/session/write_example.hpp"

#include <gtest/gtest.h>

#include "../support/h5_fixture.hpp"
#include "../support/h5_read.hpp"
#include "srcc/core/error.hpp"
#include "srcc/train/generate.hpp"

namespace srcc::test {
namespace {

TEST(WriteExample, GroupsSitesAndBudget) {
  TempDir dir;
  const std::string file = (dir / "in.h5").string();
  const TrainRef h = write_example({.example = {.example = Example::kIsing, .sites = 4, .coupling = 0.5, .field = 2},
                                    .output = {file, ""}});
  EXPECT_EQ(h.group, "/H");
  const TrainRef psi = write_example({.example = {.example = Example::kRandomMps, .sites = 4, .bond = 3, .seed = 8},
                                      .output = {file, "/psi"}});
  const auto cores = read_cores(file, "/psi");
  const auto want = random_train<double>(TrainKind::kMps, 4, 3, 2, 8);
  ASSERT_EQ(cores.size(), want.size());
  for (std::size_t j = 0; j < want.size(); ++j)
    for (std::size_t i = 0; i < want[j].size(); ++i) EXPECT_EQ(cores[j].data[i].real(), want[j].data[i]) << j;
  EXPECT_EQ(read_cores(file, "/H").size(), 4u) << "the first group is still there";
  EXPECT_THROW(write_example({.example = {.example = Example::kProduct, .sites = 4}, .output = {file, "/psi"}}), OutputError)
      << "an existing group needs force";
  EXPECT_THROW(write_example({.example = {.example = Example::kRandomMps, .sites = 4, .bond = 1000},
                              .output = {(dir / "big.h5").string(), ""}, .host_memory = 1024}),
               ResourceError);
  EXPECT_FALSE(std::filesystem::exists(dir / "big.h5"));
}

}  // namespace
}  // namespace srcc::test
