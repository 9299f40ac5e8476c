// The forked read check: a reader that crashes is reported as an input error naming the file,
// ordinary errors are left to the real read, and a clean read passes.
#include "srcc/io/read_probe.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <thread>
#include <stdexcept>

#include "srcc/core/error.hpp"

namespace srcc {
namespace {

TEST(ReadProbe, ACrashingReadBecomesAnInputErrorNamingTheFile) {
  const std::vector<std::string> files = {"a.h5", "b.h5", "c.h5"};
  try {
    probe_files(files, [](const std::string& f) {
      if (f == "b.h5") std::raise(SIGSEGV);
      return f;
    });
    FAIL() << "the crash was not reported";
  } catch (const InputError& e) {
    const std::string what = e.what();
    // A signal, or under AddressSanitizer its report and exit status.
    EXPECT_EQ(what.rfind("b.h5: reading it crashed the HDF5 library (", 0), 0u) << what;
  }
}

TEST(ReadProbe, WhatTheChildReadComesBackAndErrorsAreLeftToTheRealRead) {
  const auto out = probe_files({"a.h5", "b.h5", "c.h5"}, [](const std::string& f) -> std::string {
    if (f == "b.h5") throw InputError("b.h5: bad");
    return f == "a.h5" ? std::string(100000, 'x') : "read " + f;  // larger than a pipe's buffer
  });
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0], std::string(100000, 'x'));
  EXPECT_FALSE(out[1].has_value());
  EXPECT_EQ(out[2], "read c.h5");
  EXPECT_TRUE(probe_files({}, [](const std::string&) -> std::string { std::abort(); }).empty());
}

TEST(ReadProbe, AStuckReadIsStoppedAtTheLimit) {
  try {
    probe_files({"slow.h5"}, [](const std::string&) -> std::string {
      for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
    }, 0.3);
    FAIL() << "the stuck read was not stopped";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("slow.h5: reading its metadata did not finish within"), std::string::npos);
  }
}

// Each read waits until the other has started: checked one after the other, the first would
// wait until the limit stopped it.
TEST(ReadProbe, TheFilesAreReadSideBySide) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("srcc-probe-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto out = probe_files({"a.h5", "b.h5"}, [&dir](const std::string& f) -> std::string {
    std::ofstream(dir / f).put('x');
    const auto other = dir / (f == "a.h5" ? "b.h5" : "a.h5");
    while (!std::filesystem::exists(other)) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return "read " + f;
  }, 5.0);
  std::filesystem::remove_all(dir);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0], "read a.h5");
  EXPECT_EQ(out[1], "read b.h5");
}

TEST(ReadProbe, TheFirstStuckFileIsNamed) {
  try {
    probe_files({"fine.h5", "slow.h5", "also_slow.h5"}, [](const std::string& f) -> std::string {
      while (f != "fine.h5") std::this_thread::sleep_for(std::chrono::seconds(1));
      return f;
    }, 0.3);
    FAIL() << "the stuck read was not stopped";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("slow.h5: reading its metadata did not finish", 0), 0u)
        << e.what();
  }
}

TEST(ReadProbe, AnAbortIsACrashToo) {
  EXPECT_THROW(probe_files({"x.h5"}, [](const std::string&) -> std::string { std::abort(); }), InputError);
}

}  // namespace
}  // namespace srcc
