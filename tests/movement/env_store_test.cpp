// Scratch directories: private per run, named after the process and the place its PID means
// something in, and those of this place's processes that no longer exist removed by a later
// run (a SIGKILL'd run cannot clean up after itself); those of other hosts never.
#include "srcc/movement/env_store.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "../support/h5_fixture.hpp"
#include "srcc/core/process_tag.hpp"

namespace srcc {
namespace {

namespace fs = std::filesystem;

pid_t finished_process() {
  const pid_t pid = fork();
  if (pid == 0) _exit(0);
  waitpid(pid, nullptr, 0);  // reaped: the pid names no process any more
  return pid;
}

std::string scratch_name(const std::string& tag, long pid, const std::string& rest) {
  return "src-compress-" + tag + "-" + std::to_string(pid) + "-" + rest;
}

TEST(ScratchDirs, OnlyThoseOfFinishedProcessesOfThisHostAreRemoved) {
  test::TempDir parent;
  const std::string here = process_tag();
  const pid_t gone = finished_process();
  const fs::path dead = parent / scratch_name(here, gone, "abcdef");
  const fs::path alive = parent / scratch_name(here, getppid(), "ghijkl");
  const fs::path mine = parent / scratch_name(here, getpid(), "mnopqr");
  // The same dead PID on another node sharing the directory (or another PID namespace): its
  // run may be alive there.
  const fs::path elsewhere = parent / scratch_name("0123456789abcdef", gone, "stuvwx");
  const fs::path untagged = parent / ("src-compress-" + std::to_string(gone) + "-yzabcd");
  const fs::path other = parent / "src-compress-notapid";
  for (const auto& d : {dead, alive, mine, elsewhere, untagged, other}) {
    fs::create_directory(d);
    std::ofstream(d / "env.bin") << "spilled";
  }
  const auto removed = remove_stale_scratch(parent.path().string());
  ASSERT_EQ(removed.size(), 1u);
  EXPECT_EQ(removed.front(), dead.string());
  EXPECT_FALSE(fs::exists(dead));
  for (const auto& d : {alive, mine, elsewhere, untagged, other})
    EXPECT_TRUE(fs::exists(d / "env.bin")) << d;
}

TEST(ScratchDirs, ARunsDirectoryCarriesItsHostTagAndPidAndGoesAwayWithIt) {
  test::TempDir parent;
  fs::path made;
  {
    ScratchDir dir(parent.path().string());
    made = dir.path();
    EXPECT_EQ(made.filename().string().rfind(scratch_name(process_tag(), getpid(), ""), 0), 0u)
        << made;
    EXPECT_TRUE(fs::is_directory(made));
  }
  EXPECT_FALSE(fs::exists(made));
}

}  // namespace
}  // namespace srcc
