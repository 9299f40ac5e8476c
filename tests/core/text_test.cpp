// Text for messages and summaries (lib/srcc/core/text.cpp): UTF-8 sequences told apart from
// stray bytes, untrusted text made printable, and numbers known by their logarithm printed
// beyond a double's range.
#include "srcc/core/text.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace srcc {
namespace {

TEST(Text, Utf8SequencesAndPrintableText) {
  EXPECT_EQ(utf8_sequence("a"), 1u);
  EXPECT_EQ(utf8_sequence("χ"), 2u);
  EXPECT_EQ(utf8_sequence("‖"), 3u);
  EXPECT_EQ(utf8_sequence("\xf0\x9f\x98\x80"), 4u);
  EXPECT_EQ(utf8_sequence("\x80"), 0u) << "a stray continuation byte";
  EXPECT_EQ(utf8_sequence("\xc0\xaf"), 0u) << "an overlong '/'";
  EXPECT_EQ(utf8_sequence("\xed\xa0\x80"), 0u) << "a surrogate";
  EXPECT_EQ(printable("ψ\tok\n"), "ψ\tok\n");
  EXPECT_EQ(printable(std::string("a\x01z\xff", 4)), "a\\x01z\\xff");
}

TEST(Text, NumbersByTheirLogarithm) {
  EXPECT_EQ(format_log10(std::log10(3.141593) - 790), "3.141593e-790");
  EXPECT_EQ(format_log10(2.0), "1.000000e+02");
  EXPECT_EQ(format_log10(-std::numeric_limits<double>::infinity()), "0");
  EXPECT_EQ(format_magnitude(std::log10(28.1754)), "28.1754");
  EXPECT_EQ(format_magnitude(std::log10(4.351201) - 486), "4.351201e-486");
}

}  // namespace
}  // namespace srcc
