// Tests of durations (lib/srcc/core/duration.cpp): --max-time in seconds, units and SLURM forms.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <string>

#include "srcc/core/duration.hpp"
#include "srcc/core/error.hpp"

namespace srcc {
namespace {

TEST(Duration, SecondsUnitsAndSlurmForms) {
  EXPECT_DOUBLE_EQ(parse_duration("90", "--max-time"), 90);
  EXPECT_DOUBLE_EQ(parse_duration("90s", "--max-time"), 90);
  EXPECT_DOUBLE_EQ(parse_duration("15m", "--max-time"), 900);
  EXPECT_DOUBLE_EQ(parse_duration("1h30m", "--max-time"), 5400);
  EXPECT_DOUBLE_EQ(parse_duration("2d", "--max-time"), 172800);
  EXPECT_DOUBLE_EQ(parse_duration("01:30:00", "--max-time"), 5400);
  EXPECT_DOUBLE_EQ(parse_duration("10:00", "--max-time"), 600);
  EXPECT_DOUBLE_EQ(parse_duration("1-12:00:00", "--max-time"), 129600);
  for (const char* bad : {"", "soon", "1h30", "1:2:3:4", "-5s", "1x"}) {
    try {
      parse_duration(bad, "--max-time");
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("--max-time"), std::string::npos);
    }
  }
}

}  // namespace
}  // namespace srcc
