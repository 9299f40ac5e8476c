// The forked read check: a reader that crashes is reported as an input error naming the file,
// ordinary errors are left to the real read, and a clean read passes.
#include "srcc/io/read_probe.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <vector>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <thread>
#include <stdexcept>

#include "srcc/core/error.hpp"

namespace srcc {
namespace {

// Checks `files` with a read that crashes on `bad`: the error names that file.
void expect_crash_named(const std::vector<std::string>& files, const std::string& bad) {
  try {
    probe_files(files, [&bad](const std::string& f) {
      if (f == bad) std::raise(SIGSEGV);
      return f;
    });
    FAIL() << "the crash was not reported";
  } catch (const InputError& e) {
    const std::string what = e.what();
    // A signal, or under AddressSanitizer its report and exit status.
    EXPECT_EQ(what.rfind(bad + ": reading it crashed the HDF5 library (", 0), 0u) << what;
  }
}

TEST(ReadProbe, ACrashingReadBecomesAnInputErrorNamingTheFile) {
  expect_crash_named({"a.h5", "b.h5", "c.h5"}, "b.h5");
}

TEST(ReadProbe, WhatTheChildReadComesBack) {
  const auto out = probe_files({"a.h5", "b.h5"}, [](const std::string& f) -> std::string {
    return f == "a.h5" ? std::string(100000, 'x') : "read " + f;  // larger than a pipe's buffer
  });
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0], std::string(100000, 'x'));
  EXPECT_EQ(out[1], "read b.h5");
  EXPECT_TRUE(probe_files({}, [](const std::string&) -> std::string { std::abort(); }).empty());
}

// An error the child met is thrown in the parent with its kind and message, so that the parent
// never reads the file a second time: the first file's in order, whichever finished first.
TEST(ReadProbe, TheChildsErrorIsThrownWithItsKindAndMessage) {
  auto read = [](const std::string& f) -> std::string {
    if (f == "b.h5") throw InputError("b.h5: bad attribute");
    if (f == "c.h5") throw ResourceError("c.h5: too big");
    return f;
  };
  try {
    probe_files({"a.h5", "b.h5", "c.h5"}, read);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "b.h5: bad attribute");
  }
  try {
    probe_files({"c.h5", "b.h5"}, read);
    FAIL() << "no error";
  } catch (const ResourceError& e) {
    EXPECT_STREQ(e.what(), "c.h5: too big");
  }
}

// The child's memory is bounded: metadata that claims gigabytes fails there (exit 5), and the
// command itself never allocates it.
TEST(ReadProbe, AChildThatAllocatesTooMuchIsAResourceError) {
#ifdef SRCC_SANITIZED
  GTEST_SKIP() << "no address-space bound under AddressSanitizer";
#endif
  try {
    probe_files({"bomb.h5"}, [](const std::string&) -> std::string {
      std::vector<char> big(kProbeMemoryBytes * 2, 'x');
      return std::string(1, big[12345]);
    });
    FAIL() << "the allocation was not bounded";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kResource);
    EXPECT_NE(std::string(e.what()).find("bomb.h5: reading its metadata needs more than 512 MiB"),
              std::string::npos) << e.what();
  }
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

// More files than are checked at once (a `collect` over a sweep's outputs): every one is read,
// in order, and a crash among the later ones is still named.
TEST(ReadProbe, ManyFilesAreCheckedAFewAtATime) {
  std::vector<std::string> files;
  for (int i = 0; i < 40; ++i) files.push_back("f" + std::to_string(i) + ".h5");
  const auto out = probe_files(files, [](const std::string& f) { return "read " + f; });
  ASSERT_EQ(out.size(), files.size());
  for (std::size_t i = 0; i < files.size(); ++i) EXPECT_EQ(out[i], "read " + files[i]);
  expect_crash_named(files, "f37.h5");
}

TEST(ReadProbe, AnAbortIsACrashToo) {
  EXPECT_THROW(probe_files({"x.h5"}, [](const std::string&) -> std::string { std::abort(); }), InputError);
}

}  // namespace
}  // namespace srcc
