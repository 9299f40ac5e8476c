// Tests of the budgets (lib/srcc/plan/budgets.cpp) and the memory policy they follow
// (lib/srcc/memory/policy.hpp).
#include "srcc/plan/budgets.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "../support/h5_fixture.hpp"
#include "srcc/core/error.hpp"
#include "srcc/memory/policy.hpp"

namespace srcc::test {
namespace {

constexpr std::uint64_t MiB = std::uint64_t{1} << 20;

std::uint64_t mem_available() {
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  std::uint64_t value = 0;
  while (in >> key >> value >> unit)
    if (key == "MemAvailable:") return value * 1024;
  return 0;
}

TEST(MemoryPolicy, MarginsAreTheDocumentedOnes) {
  EXPECT_EQ(memory::detected_host_budget(10240 * MiB), 10240 * MiB - 1024 * MiB - 256 * MiB);
  EXPECT_EQ(memory::detected_host_budget(200 * MiB), 0u) << "less than the margin: nothing";
  EXPECT_EQ(memory::detected_device_budget(20480 * MiB), 20480 * MiB - 1024 * MiB - 512 * MiB);
  EXPECT_EQ(memory::detected_device_budget(400 * MiB), 200 * MiB) << "small device: half";
  EXPECT_EQ(memory::host_pool_limit(1000 * MiB), 984 * MiB);
  EXPECT_EQ(memory::host_pool_limit(10 * MiB), 0u);
  EXPECT_EQ(memory::usable_scratch(2000 * MiB), 1900 * MiB);
}

TEST(Budgets, GivenValuesAreKeptDetectedOnesFollowTheMachine) {
  TempDir dir;
  const Budgets given = resolve_budgets(3 * MiB, 5 * MiB, dir.path().string());
  EXPECT_EQ(given.host_bytes, 3 * MiB);
  EXPECT_FALSE(given.host_detected);
  EXPECT_EQ(given.gpu_bytes, 5 * MiB);
  EXPECT_EQ(given.scratch_dir, dir.path().string());
  const auto space = std::filesystem::space(dir.path());
  EXPECT_LE(given.scratch_bytes, space.available);
  EXPECT_GE(given.scratch_bytes, space.available / 2);

  const Budgets detected = resolve_budgets(0, 0, dir.path().string());
  EXPECT_TRUE(detected.host_detected);
  const std::uint64_t avail = mem_available();
  ASSERT_GT(avail, 0u);
  EXPECT_LE(detected.host_bytes, memory::detected_host_budget(avail) + 64 * MiB);  // it moves
  EXPECT_GT(detected.host_bytes, 0u);
}

TEST(Budgets, ScratchDirectoryMustExist) {
  TempDir dir;
  try {
    (void)resolve_budgets(0, 0, (dir / "missing").string());
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--scratch-dir"), std::string::npos) << e.what();
  }
  std::ofstream(dir / "file") << "x";
  EXPECT_THROW((void)resolve_budgets(0, 0, (dir / "file").string()), UsageError);
}

}  // namespace
}  // namespace srcc::test
