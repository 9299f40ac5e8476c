// The weights of apply --term: every way of writing a number we accept, read exactly, and
// written back so that they read the same again.
#include <gtest/gtest.h>

#include "srcc/core/error.hpp"
#include "srcc/core/weight.hpp"

namespace srcc {
namespace {

using cd = std::complex<double>;

TEST(Weight, ReadsRealAndComplexNumbers) {
  EXPECT_EQ(parse_weight("0.5"), cd(0.5, 0));
  EXPECT_EQ(parse_weight("-2e-3"), cd(-2e-3, 0));
  EXPECT_EQ(parse_weight("2i"), cd(0, 2));
  EXPECT_EQ(parse_weight("-0.5j"), cd(0, -0.5));
  EXPECT_EQ(parse_weight("0.5+0.25i"), cd(0.5, 0.25));
  EXPECT_EQ(parse_weight("1e-3-2j"), cd(1e-3, -2));
  EXPECT_EQ(parse_weight("(0.5,-0.25)"), cd(0.5, -0.25));
  EXPECT_EQ(parse_weight("i"), cd(0, 1));
  EXPECT_EQ(parse_weight("-i"), cd(0, -1));
  EXPECT_EQ(parse_weight("3-i"), cd(3, -1));
}

TEST(Weight, RefusesWhatIsNoNumberNamingTheFlag) {
  for (const char* bad : {"", "abc", "1+", "1+2", "2ii", "i2", "(1,)", "(1 2)", " 1", "1 ", "nan", "inf", "1e999"}) {
    try {
      parse_weight(bad, "--term");
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("--term"), std::string::npos) << e.what();
    }
  }
}

TEST(Weight, WritesWhatReadsBackTheSame) {
  for (cd w : {cd(0.5, 0), cd(0, -2), cd(0.1, 0.2), cd(-1.0 / 3, 1e-17), cd(0, 0)}) {
    EXPECT_EQ(parse_weight(format_weight(w)), w) << format_weight(w);
  }
  EXPECT_EQ(format_weight(cd(0.5, 0)), "0.5");
  EXPECT_EQ(format_weight(cd(0, -2)), "-2i");
  EXPECT_EQ(format_weight(cd(0.1, 0.2)), "0.1+0.2i");
}

}  // namespace
}  // namespace srcc
