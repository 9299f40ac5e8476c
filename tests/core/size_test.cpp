// Tests of size parsing (lib/srcc/core/size.cpp).
#include "srcc/core/size.hpp"

#include <gtest/gtest.h>

#include "srcc/core/error.hpp"

namespace srcc {
namespace {

TEST(ParseSize, UnitsArePowersOfTenOrTwo) {
  EXPECT_EQ(parse_size("4096", "--x"), 4096u);
  EXPECT_EQ(parse_size("512B", "--x"), 512u);
  EXPECT_EQ(parse_size("2KB", "--x"), 2000u);
  EXPECT_EQ(parse_size("2kib", "--x"), 2048u);
  EXPECT_EQ(parse_size("1.5 GB", "--x"), 1500000000u);
  EXPECT_EQ(parse_size("4GiB", "--x"), 4ull << 30);
  EXPECT_EQ(parse_size("3MiB", "--x"), 3ull << 20);
  EXPECT_EQ(parse_size("1tb", "--x"), 1000000000000ull);
  EXPECT_EQ(parse_size("1TiB", "--x"), 1ull << 40);
}

TEST(ParseSize, BadSizesNameTheFlag) {
  for (const char* bad : {"", "GB", "-1GB", "12 parsecs", "1.2.3MB", "1e400", "0x10"}) {
    try {
      parse_size(bad, "--host-memory");
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("--host-memory"), std::string::npos);
      EXPECT_NE(std::string(e.what()).find("GiB"), std::string::npos);
    }
  }
}

TEST(FormatSize, ReadableUnits) {
  EXPECT_EQ(format_size(512), "512 B");
  EXPECT_EQ(format_size(3ull << 20), "3.00 MiB");
  EXPECT_EQ(format_size(1536ull << 20), "1.50 GiB");
}

}  // namespace
}  // namespace srcc
