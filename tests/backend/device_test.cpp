// Tests of --device parsing and backend making (lib/srcc/backend/device.cpp) that need no GPU.
#include "srcc/backend/device.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "srcc/core/error.hpp"

namespace srcc {
namespace {

TEST(DeviceSpec, ParsesTheValidFormsOnly) {
  EXPECT_FALSE(parse_device("cpu").gpu);
  EXPECT_EQ(parse_device("gpu").ids, std::vector<int>{0});
  EXPECT_EQ(parse_device("gpu:3").ids, std::vector<int>{3});
  EXPECT_EQ(parse_device("gpu:0,1").ids, (std::vector<int>{0, 1}));
  EXPECT_EQ(parse_device("gpu:0,1").text(), "gpu:0,1");
  for (const char* bad : {"", "tpu", "gpu:", "gpu:x", "gpu:-1", "gpu:0,", "cuda"})
    EXPECT_THROW(parse_device(bad), UsageError) << bad;
}

TEST(DeviceSpec, ListingAGpuTwiceIsRefused) {
  try {
    (void)make_backends(parse_device("gpu:1,1"), 1, 0, 0);
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("gpu:1 is listed twice"), std::string::npos) << e.what();
  }
}

TEST(DeviceSpec, CpuMakesOneCpuBackend) {
  const auto backends = make_backends(parse_device("cpu"), 2, 1u << 20, 0);
  ASSERT_EQ(backends.size(), 1u);
  EXPECT_EQ(backends.front()->name(), "cpu");
}

}  // namespace
}  // namespace srcc
