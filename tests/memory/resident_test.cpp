// The process's peak resident size (lib/srcc/memory/resident.cpp): positive, never falling, and
// grown by memory the process touches.
#include "srcc/memory/resident.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>

namespace srcc::memory {
namespace {

TEST(Resident, ThePeakGrowsWithTouchedMemory) {
  const std::int64_t before = peak_resident_bytes();
  ASSERT_GT(before, 0);
  constexpr std::size_t bytes = std::size_t{96} << 20;
  const auto block = std::make_unique<char[]>(bytes);
  std::memset(block.get(), 1, bytes);  // touched: resident
  const std::int64_t after = peak_resident_bytes();
#ifndef SRCC_SANITIZED  // the sanitizer's shadow memory changes what resident means
  EXPECT_GE(after, before + static_cast<std::int64_t>(bytes) / 2) << "before " << before;
#endif
  EXPECT_GE(after, before);
  EXPECT_EQ(block[bytes - 1], 1);
}

}  // namespace
}  // namespace srcc::memory
