// The locks of an update in place: src-compress writers take turns, and a program that has the
// file open for writing (an HDF5 writer's exclusive flock) makes the update fail by name.
#include "srcc/io/file_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "srcc/core/error.hpp"

namespace srcc {
namespace {

std::string fresh_file(const char* name) {
  const auto p = std::filesystem::temp_directory_path() / name;
  std::ofstream(p) << "data";
  return p.string();
}

TEST(FileLock, AWriterWaitsForTheOneBeforeItAndGivesUpNamingTheFile) {
  const std::string path = fresh_file("srcc_file_lock_turns.h5");
  {
    FileLock first(path);
    const auto t0 = std::chrono::steady_clock::now();
    try {
      FileLock second(path, 0.3);
      FAIL() << "two writers held the lock at once";
    } catch (const OutputError& e) {
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
    EXPECT_GE(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 0.25);
  }
  EXPECT_NO_THROW(FileLock again(path, 0.3));  // released with the first
  std::filesystem::remove(path);
}

TEST(FileLock, AProgramWritingTheFileMakesTheUpdateFail) {
  const std::string path = fresh_file("srcc_file_lock_writer.h5");
  const int fd = ::open(path.c_str(), O_RDWR);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);  // as HDF5 does for a file open for writing
  EXPECT_THROW(FileLock(path, 0.3), OutputError);
  ::flock(fd, LOCK_UN);
  ASSERT_EQ(::flock(fd, LOCK_SH | LOCK_NB), 0);  // a reader is no concern
  EXPECT_NO_THROW(FileLock(path, 0.3));
  ::close(fd);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace srcc
