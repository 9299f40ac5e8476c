// The forked read check: a reader that crashes is reported as an input error naming the file,
// ordinary errors are left to the real read, and a clean read passes.
#include "srcc/io/read_probe.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
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
    });
    FAIL() << "the crash was not reported";
  } catch (const InputError& e) {
    const std::string what = e.what();
    // A signal, or under AddressSanitizer its report and exit status.
    EXPECT_EQ(what.rfind("b.h5: reading it crashed the HDF5 library (", 0), 0u) << what;
  }
}

TEST(ReadProbe, OrdinaryErrorsAndCleanReadsPass) {
  EXPECT_NO_THROW(probe_files({"a.h5"}, [](const std::string&) { throw InputError("a.h5: bad"); }));
  EXPECT_NO_THROW(probe_files({"a.h5", "b.h5"}, [](const std::string&) {}));
  EXPECT_NO_THROW(probe_files({}, [](const std::string&) { std::abort(); }));
}

TEST(ReadProbe, AStuckReadIsStoppedAtTheLimit) {
  try {
    probe_files({"slow.h5"}, [](const std::string&) { for (;;) std::this_thread::sleep_for(std::chrono::seconds(1)); }, 0.3);
    FAIL() << "the stuck read was not stopped";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("slow.h5: reading its metadata did not finish within"), std::string::npos);
  }
}

TEST(ReadProbe, AnAbortIsACrashToo) {
  EXPECT_THROW(probe_files({"x.h5"}, [](const std::string&) { std::abort(); }), InputError);
}

}  // namespace
}  // namespace srcc
