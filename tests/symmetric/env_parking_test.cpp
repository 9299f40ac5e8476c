// The charged sweep's environments that the plan puts on scratch disk: their numbers leave
// memory for a file in the run's private scratch directory and come back bit for bit, each move
// a row of the transfer log; those the plan keeps in memory are not touched; nothing is left.
#include "srcc/symmetric/env_parking.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <vector>

#include "../support/guarded_device.hpp"
#include "../support/h5_fixture.hpp"
#include "charged_support.hpp"

namespace srcc {
namespace {

using namespace test::charged;
namespace fs = std::filesystem;

std::size_t files_under(const fs::path& dir) {
  std::size_t n = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir)) n += e.is_regular_file();
  return n;
}

TEST(EnvParking, TheCutsThePlanSpillsComeBackBitForBit) {
  OneThread<cdouble> cpu;
  Kernels<cdouble>& K = cpu.K();
  test::TempDir scratch;
  const std::size_t n = 8;
  const ChargedStack<cdouble> st =
      stack_of(K, {xxz<cdouble>(n), random_charged<cdouble>(n, 12, 0, 5)}, {TrainKind::kMpo, TrainKind::kMps}, Rule::kU1);
  Plan plan;
  plan.memory_from = plan.host_from = 4;  // cuts 1 … 3 on scratch, 4 … 7 in memory
  plan.budgets.scratch_dir = scratch.path().string();
  ASSERT_TRUE(EnvParking<cdouble>::needed(plan));
  TransferLog log;
  std::vector<BlockTensor<cdouble>> env(n);
  std::vector<std::vector<cdouble>> numbers(n);
  {
    EnvParking<cdouble> parking(K, "cpu", log, plan);
    for (std::size_t j = 1; j < n; ++j) {
      env[j] = st.sites[1][j];  // its numbers shared with the stack's site, which keeps them
      numbers[j].assign(env[j].data.data(), env[j].data.data() + env[j].elements);
      ASSERT_GT(numbers[j].size(), 1u);
      const cdouble* before = env[j].data.data();
      parking.park(env[j], j);
      if (j < 4) {
        EXPECT_EQ(env[j].data.data(), nullptr) << j;
      } else {
        EXPECT_EQ(env[j].data.data(), before) << j;
      }
    }
    // One spill is in flight at a time: the two before the last are surely on disk.
    EXPECT_GE(files_under(scratch.path()), 2u);
    for (std::size_t j = n; j-- > 1;) {
      parking.fetch(env[j], j);
      ASSERT_NE(env[j].data.data(), nullptr) << j;
      for (std::size_t i = 0; i < numbers[j].size(); ++i) ASSERT_EQ(env[j].data.data()[i], numbers[j][i]) << j << " " << i;
    }
    EXPECT_EQ(files_under(scratch.path()), 0u);
  }
  EXPECT_TRUE(fs::is_empty(scratch.path()));
  std::size_t writes = 0, reads = 0;
  for (const auto& row : log.take_from(0)) {
    EXPECT_EQ(row.what, "environment");
    EXPECT_TRUE(row.site >= 1 && row.site <= 3) << row.site;
    writes += row.mechanism == mechanism::kFileWrite;
    reads += row.mechanism == mechanism::kFileRead;
  }
  EXPECT_EQ(writes, 3u);
  EXPECT_EQ(reads, 3u);
}

// On a device (the guarded stand-in, whose memory the host cannot read): the cuts the plan puts
// in host memory and on scratch leave the device and come back bit for bit.
TEST(EnvParking, OnADeviceTheHostAndScratchTiersComeBackBitForBit) {
  test::GuardedDevice device;
  Kernels<cdouble>& D = device.kernels<cdouble>();
  test::TempDir scratch;
  const std::size_t n = 8;
  const ChargedStack<cdouble> st =
      stack_of(D, {xxz<cdouble>(n), random_charged<cdouble>(n, 12, 0, 5)}, {TrainKind::kMpo, TrainKind::kMps}, Rule::kU1);
  Plan plan;
  plan.host_from = 3;
  plan.memory_from = 5;  // cuts 1, 2 on scratch, 3, 4 in host memory, 5 … 7 on the device
  plan.budgets.scratch_dir = scratch.path().string();
  TransferLog log;
  std::vector<BlockTensor<cdouble>> env(n);
  std::vector<std::vector<cdouble>> numbers(n);
  {
    EnvParking<cdouble> parking(D, "guarded:0", log, plan);
    for (std::size_t j = 1; j < n; ++j) {
      env[j] = allocate_blocks(D, st.sites[1][j].legs, st.sites[1][j].labels, [&] {
        std::vector<BlockKey> keys;
        for (const auto& b : st.sites[1][j].blocks) keys.push_back(b.key);
        return keys;
      }());
      D.copy(env[j].elements, st.sites[1][j].data.data(), env[j].data.data());
      numbers[j] = D.download(env[j].data, env[j].elements);
      parking.park(env[j], j);
      EXPECT_EQ(env[j].data.data() == nullptr, j < 5) << j;
    }
    for (std::size_t j = n; j-- > 1;) {
      parking.fetch(env[j], j);
      ASSERT_NE(env[j].data.data(), nullptr) << j;
      EXPECT_EQ(D.download(env[j].data, env[j].elements), numbers[j]) << j;
    }
  }
  EXPECT_TRUE(fs::is_empty(scratch.path()));
  std::size_t moved = 0;
  for (const auto& row : log.take_from(0)) moved += row.site >= 1 && row.site <= 4;
  EXPECT_GE(moved, 8u);  // each of the four out and back
}

TEST(EnvParking, APlanThatKeepsEverythingInMemoryNeedsNone) {
  Plan plan;
  plan.memory_from = plan.host_from = 1;
  EXPECT_FALSE(EnvParking<double>::needed(plan));
}

}  // namespace
}  // namespace srcc
