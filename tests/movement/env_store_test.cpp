// Scratch directories: private per run, named after the process, and those of processes that
// no longer exist removed by a later run (a SIGKILL'd run cannot clean up after itself).
#include "srcc/movement/env_store.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "../support/h5_fixture.hpp"

namespace srcc {
namespace {

namespace fs = std::filesystem;

pid_t finished_process() {
  const pid_t pid = fork();
  if (pid == 0) _exit(0);
  waitpid(pid, nullptr, 0);  // reaped: the pid names no process any more
  return pid;
}

TEST(ScratchDirs, OnlyThoseOfFinishedProcessesAreRemoved) {
  test::TempDir parent;
  const fs::path dead = parent / ("src-compress-" + std::to_string(finished_process()) + "-abcdef");
  const fs::path alive = parent / ("src-compress-" + std::to_string(getppid()) + "-ghijkl");
  const fs::path mine = parent / ("src-compress-" + std::to_string(getpid()) + "-mnopqr");
  const fs::path other = parent / "src-compress-notapid";
  for (const auto& d : {dead, alive, mine, other}) {
    fs::create_directory(d);
    std::ofstream(d / "env.bin") << "spilled";
  }
  const auto removed = remove_stale_scratch(parent.path().string());
  ASSERT_EQ(removed.size(), 1u);
  EXPECT_EQ(removed.front(), dead.string());
  EXPECT_FALSE(fs::exists(dead));
  for (const auto& d : {alive, mine, other}) EXPECT_TRUE(fs::exists(d / "env.bin")) << d;
}

TEST(ScratchDirs, ARunsDirectoryCarriesItsPidAndGoesAwayWithIt) {
  test::TempDir parent;
  fs::path made;
  {
    ScratchDir dir(parent.path().string());
    made = dir.path();
    EXPECT_EQ(made.filename().string().rfind("src-compress-" + std::to_string(getpid()) + "-", 0), 0u)
        << made;
    EXPECT_TRUE(fs::is_directory(made));
  }
  EXPECT_FALSE(fs::exists(made));
}

}  // namespace
}  // namespace srcc
