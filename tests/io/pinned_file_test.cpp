// A pinned input file (lib/srcc/io/pinned_file.cpp): the same file whatever its name is given
// to meanwhile, a change in place noticed, and what is no regular file refused by name.
#include "srcc/io/pinned_file.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "../support/h5_fixture.hpp"
#include "srcc/core/error.hpp"

namespace srcc::test {
namespace {

namespace fs = std::filesystem;

TEST(PinnedFile, TheSameFileWhateverHappensToItsName) {
  TempDir dir;
  const auto path = dir / "in.h5";
  std::ofstream(path) << "first";
  PinnedFile pin(path.string());
  const int again = ::open(path.c_str(), O_RDONLY);
  EXPECT_TRUE(pin.same_file(again));
  ::close(again);
  EXPECT_TRUE(pin.still_named());
  EXPECT_NO_THROW(pin.check_unchanged());
  // Another file renamed over the name: the pin still holds the first.
  std::ofstream(dir / "new.h5") << "second, longer";
  fs::rename(dir / "new.h5", path);
  EXPECT_FALSE(pin.still_named());
  const int other = ::open(path.c_str(), O_RDONLY);
  EXPECT_FALSE(pin.same_file(other));
  ::close(other);
  char buf[8] = {};
  EXPECT_EQ(::pread(pin.fd(), buf, 5, 0), 5);
  EXPECT_EQ(std::string(buf, 5), "first");
}

TEST(PinnedFile, AChangeInPlaceIsNoticedAndNonFilesAreRefused) {
  TempDir dir;
  const auto path = dir / "in.h5";
  std::ofstream(path) << "first";
  PinnedFile pin(path.string());
  { std::ofstream(path, std::ios::app) << " and more"; }
  EXPECT_THROW(pin.check_unchanged(), InputError);
  EXPECT_THROW(PinnedFile((dir / "missing.h5").string()), InputError);
  EXPECT_THROW(PinnedFile(dir.path().string()), InputError) << "a directory";
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
  try {
    PinnedFile fifo((dir / "fifo").string());
    ADD_FAILURE() << "pinned a FIFO";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("fifo"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace srcc::test
