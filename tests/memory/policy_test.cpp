// The memory policy's numbers (lib/srcc/memory/policy.hpp): the margins the detected budgets
// leave, and the pool's limit under a budget.
#include "srcc/memory/policy.hpp"

#include <gtest/gtest.h>

namespace srcc::memory {
namespace {

TEST(Policy, DetectedBudgetsLeaveTheirMargins) {
  constexpr std::uint64_t gib = std::uint64_t{1} << 30;
  // 10% and 256 MiB of the available host memory stay with the machine.
  EXPECT_EQ(detected_host_budget(10 * gib), 10 * gib - gib - 256 * kMiB);
  EXPECT_EQ(detected_host_budget(200 * kMiB), 0u) << "less than the margin: nothing";
  // 5% and 512 MiB of a device's free memory, or half of it where that leaves nothing.
  EXPECT_EQ(detected_device_budget(20 * gib), 20 * gib - gib - 512 * kMiB);
  EXPECT_EQ(detected_device_budget(256 * kMiB), 128 * kMiB);
  EXPECT_EQ(usable_scratch(100 * gib), 95 * gib);
  EXPECT_EQ(host_pool_limit(1 * gib), gib - kResidentMargin);
  EXPECT_EQ(host_pool_limit(kResidentMargin), 0u);
}

}  // namespace
}  // namespace srcc::memory
