// Every long-running subcommand stops on SIGINT/SIGTERM within a fraction of a second, with
// exit code 130 and nothing left behind (no output under its final name, no temporary file).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>
#include <vector>

#include "../support/cli_runner.hpp"

namespace srcc::test {
namespace {

struct Stopped {
  int code = -1;
  double seconds_after_signal = 0;
};

// Starts `src-compress ARGS` in `dir`, sends `sig` after `delay`, waits for it.
Stopped stop(const TempDir& dir, const std::vector<std::string>& args, int sig,
             std::chrono::milliseconds delay) {
  const pid_t pid = fork();
  if (pid == 0) {
    if (chdir(dir.path().c_str()) != 0) _exit(99);
    if (!freopen("/dev/null", "w", stderr) || !freopen("/dev/null", "w", stdout)) _exit(97);
    std::vector<char*> argv{const_cast<char*>("src-compress")};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(binary().c_str(), argv.data());
    _exit(98);
  }
  std::this_thread::sleep_for(delay);
  const auto t0 = std::chrono::steady_clock::now();
  kill(pid, sig);
  int status = 0;
  waitpid(pid, &status, 0);
  Stopped s;
  s.seconds_after_signal = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (WIFEXITED(status)) s.code = WEXITSTATUS(status);
  return s;
}

TEST(CliSignals, EverySubcommandStopsPromptlyAndLeavesNothing) {
  TempDir dir;
  make_large_inputs(dir);  // big_h.h5, big_psi.h5: seconds of work for apply
  ASSERT_EQ(run_cli(dir, "generate random-mps -o other.h5 --sites 400 --bond 96 --seed 7 -q").code, 0);
  struct Case {
    std::vector<std::string> args;
    std::string output;  // what must not appear
  };
  const std::vector<Case> cases = {
      {{"apply", "big_h.h5", "big_psi.h5", "-o", "out.h5", "--chi", "256", "--threads", "1"}, "out.h5"},
      {{"generate", "random-mps", "-o", "gen.h5", "--sites", "4000", "--bond", "128"}, "gen.h5"},
      {{"distance", "big_psi.h5", "other.h5"}, ""},
      // In complex128: in float64 an AVX-512 core truncates big_psi in 0.3 s, before the signal.
      {{"truncate", "big_psi.h5", "-o", "trunc.h5", "--chi", "8", "--threads", "1", "--dtype",
        "complex128"},
       "trunc.h5"},
  };
  for (int sig : {SIGTERM, SIGINT})
    for (const auto& c : cases) {
      const Stopped s = stop(dir, c.args, sig, std::chrono::milliseconds(400));
      EXPECT_EQ(s.code, 130) << c.args[0] << " after signal " << sig
                             << " (0: it finished first, make its input larger)";
      EXPECT_LT(s.seconds_after_signal, 1.0) << c.args[0] << " after signal " << sig;
      if (!c.output.empty()) {
        EXPECT_FALSE(std::filesystem::exists(dir / c.output)) << c.args[0];
      }
      EXPECT_EQ(temp_files(dir), 0) << c.args[0];
    }
}

}  // namespace
}  // namespace srcc::test
