// Files other libraries wrote, across formats (each format's own reader has its test:
// tenpy_train_test, itensor_train_test): every train found and nothing else, and products of
// trains from different libraries checked by their sites' bases.
#include <gtest/gtest.h>


#include "../support/cli_runner.hpp"
#include "srcc/core/error.hpp"
#include "srcc/io/itensor/itensor_objects.hpp"
#include "srcc/io/train_reader.hpp"

namespace srcc::test {
namespace {

std::string data(const std::string& name) { return test_data(name); }

TEST(ForeignFiles, DiscoveryFindsTrainsOfEveryFormatAndIgnoresOtherGroups) {
  const auto tenpy = list_trains(data("tenpy_tfi_L16_psi_and_H.h5"));
  ASSERT_EQ(tenpy.size(), 2u);  // 300-odd TeNPy objects (sites, charges, ops) are no trains
  EXPECT_EQ(tenpy[0].group, "/H_MPO");
  EXPECT_EQ(tenpy[1].group, "/psi");
  for (const auto& t : tenpy) EXPECT_EQ(t.format, TrainFormat::kTenpy);
  const auto it = list_trains(data("itensor_tfi_L16_dense.h5"));
  ASSERT_EQ(it.size(), 2u);
  for (const auto& t : it) EXPECT_EQ(t.format, TrainFormat::kItensor);
  // The file ITensors.jl wrote holds one ITensor, no MPS.
  EXPECT_TRUE(list_trains(data("itensor_real_testfile_v0.1.41.h5")).empty());
  // An infinite state is a train we name but do not read.
  const auto inf = list_trains(data("tenpy_tfi_infinite_L2.h5"));
  ASSERT_EQ(inf.size(), 2u);
  EXPECT_FALSE(inf[1].info.has_value());
  EXPECT_NE(inf[1].refused.find("boundary condition 'infinite'"), std::string::npos) << inf[1].refused;
}

// DMRG leaves the forms A A B … B: read with its singular values and norm, the state is the
// ground state (norm 1, the file's energy); the stored tensors taken as they are would give a
// norm of 2 and the wrong energy.
TEST(ForeignFiles, ProductsAcrossLibrariesAreCheckedBySiteBasis) {
  Stack ok;
  ok.layers = {TrainReader(TrainRef{data("itensor_tfi_L16_dense.h5"), "/H"}).info(),
               TrainReader(TrainRef{data("tenpy_tfi_L16_parity.h5"), "/psi"}).info()};
  EXPECT_TRUE(check_bases(ok).empty());
  Stack bad;
  bad.layers = {TrainReader(TrainRef{data("itensor_xxz_L12_qn.h5"), "/H"}).info(),
                TrainReader(TrainRef{data("tenpy_xxz_L12_sz.h5"), "/psi"}).info()};
  try {
    check_bases(bad);
    FAIL() << "the mismatch was not found";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("acts on the physical basis (up, down) but"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("is stored in the basis (down, up)"), std::string::npos);
  }
}

}  // namespace
}  // namespace srcc::test
