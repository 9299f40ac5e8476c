// Atomic outputs (lib/srcc/io/output_file.cpp): written under a temporary name beside the target
// and renamed only when committed, removed otherwise; paths refused before any work.
#include "srcc/io/output_file.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "../support/h5_fixture.hpp"
#include "srcc/core/error.hpp"

namespace srcc::test {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(OutputFile, CommittedOrGoneAndNothingHalfWritten) {
  TempDir dir;
  const std::string target = (dir / "out.txt").string();
  {
    OutputFile out(target, false);
    EXPECT_EQ(fs::path(out.temp_path()).parent_path(), dir.path()) << "beside the target: one file system";
    EXPECT_EQ(fs::path(out.temp_path()).filename().string().rfind(".out.txt.tmp-", 0), 0u) << out.temp_path();
    std::ofstream(out.temp_path()) << "half";
    EXPECT_FALSE(fs::exists(target));
  }
  EXPECT_TRUE(fs::is_empty(dir.path())) << "not committed: the temporary file is removed";
  {
    OutputFile out(target, false);
    std::ofstream(out.temp_path()) << "whole";
    out.commit();
  }
  EXPECT_EQ(slurp(target), "whole");
  EXPECT_THROW(OutputFile(target, false), OutputError) << "exists, no --force";
  {
    OutputFile out(target, true);
    std::ofstream(out.temp_path()) << "again";
    out.commit();
  }
  EXPECT_EQ(slurp(target), "again");
}

TEST(OutputFile, PathsThatCannotBeAnOutputAreRefused) {
  TempDir dir;
  EXPECT_THROW(check_output_path((dir / "no/such/dir/out.h5").string(), false), OutputError);
  EXPECT_THROW(check_output_path(dir.path().string(), true), OutputError) << "a directory, even with --force";
  EXPECT_THROW(check_output_path((dir / std::string(300, 'x')).string(), false), OutputError) << "a name too long";
  EXPECT_NO_THROW(check_output_path((dir / "fine.h5").string(), false));
  EXPECT_THROW(check_disk_room((dir / "big.h5").string(), std::uint64_t{1} << 62, "a test"), ResourceError);
  EXPECT_NO_THROW(check_disk_room((dir / "small.h5").string(), 1024, "a test"));
}

}  // namespace
}  // namespace srcc::test
