// Tests of the error family (lib/srcc/core/error.hpp): every kind has its own exit code and
// meaning, and README.md's exit-code table says the same as --help (which prints error.hpp's).
#include "srcc/core/error.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace srcc {
namespace {

TEST(ErrorKinds, EachHasItsOwnExitCodeAndMeaning) {
  std::set<int> codes;
  std::set<std::string> meanings;
  for (ErrorKind k : kErrorKinds) {
    EXPECT_TRUE(codes.insert(exit_code(k)).second) << exit_code(k);
    EXPECT_TRUE(meanings.insert(exit_meaning(k)).second) << exit_meaning(k);
    EXPECT_NE(exit_code(k), 0);
    EXPECT_NE(exit_code(k), 1) << "1 is for internal errors";
  }
  EXPECT_EQ(codes.size(), 7u);
  EXPECT_EQ(exit_code(InputError("x").kind()), 3);
  EXPECT_EQ(exit_code(InterruptedError("x").kind()), 130);
}

TEST(ErrorKinds, ReadmeTableAgreesWithTheCode) {
  std::ifstream in(std::string(SRCC_SOURCE_DIR) + "/README.md");
  ASSERT_TRUE(in) << "README.md not found";
  std::stringstream text;
  text << in.rdbuf();
  const std::string readme = text.str();
  for (ErrorKind k : kErrorKinds) {
    const std::string meaning = exit_meaning(k);
    const std::string row = "| " + std::to_string(exit_code(k)) + " | " +
                            meaning.substr(0, meaning.find(' '));
    EXPECT_NE(readme.find(row), std::string::npos) << "README.md lacks the row '" << row << "'";
  }
}

}  // namespace
}  // namespace srcc
