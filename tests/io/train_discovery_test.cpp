// Which groups of a file are trains, in which format (lib/srcc/io/train_discovery.cpp and the
// table of io/formats.cpp): TeNPy's and ITensor's files as those libraries wrote them, ours, and
// groups that are no train.
#include "srcc/io/train_discovery.hpp"

#include <gtest/gtest.h>

#include "../support/cli_runner.hpp"
#include "../support/h5_fixture.hpp"
#include "srcc/io/h5/h5_handle.hpp"
#include "srcc/session/write_example.hpp"

namespace srcc::test {
namespace {

std::vector<std::pair<std::string, TrainFormat>> found(const std::string& file) {
  h5::Handle f = h5::open_for_reading(file);
  std::vector<std::pair<std::string, TrainFormat>> out;
  for (const auto& t : find_trains(f.get(), file)) out.emplace_back(t.group, t.format);
  return out;
}

TEST(TrainDiscovery, EachLibrarysTrainsAndNothingElse) {
  const std::string data = source_dir() + "/tests/data/";
  EXPECT_EQ(found(data + "tenpy_xxz_L12_sz.h5"),
            (std::vector<std::pair<std::string, TrainFormat>>{{"/H_MPO", TrainFormat::kTenpy}, {"/psi", TrainFormat::kTenpy}}));
  EXPECT_EQ(found(data + "itensor_xxz_L12_qn.h5"),
            (std::vector<std::pair<std::string, TrainFormat>>{{"/H", TrainFormat::kItensor}, {"/psi", TrainFormat::kItensor}}));
  TempDir dir;
  const std::string ours = (dir / "in.h5").string();
  (void)write_example({.example = {.example = Example::kIsing, .sites = 4}, .output = {ours, "/H"}});
  (void)write_example({.example = {.example = Example::kProduct, .sites = 4}, .output = {ours, "/psi"}});
  EXPECT_EQ(found(ours), (std::vector<std::pair<std::string, TrainFormat>>{{"/H", TrainFormat::kSrcc}, {"/psi", TrainFormat::kSrcc}}));
  h5::Handle f = h5::open_for_reading(data + "tenpy_xxz_L12_sz.h5");
  EXPECT_EQ(detect_format(f.get(), "/H_MPO/chinfo", "x"), TrainFormat::kAuto) << "TeNPy's own objects are no train";
  EXPECT_EQ(detect_format(f.get(), "/E0", "x"), TrainFormat::kAuto) << "a dataset";
}

}  // namespace
}  // namespace srcc::test
