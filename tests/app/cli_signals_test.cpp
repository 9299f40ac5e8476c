// Every long-running subcommand stops on SIGINT/SIGTERM within a fraction of a second, leaves
// nothing behind (no output under its final name, no temporary file) and then ends as killed by
// that signal, as other tools do: a shell loop stops at Ctrl-C. A signal the parent ignores
// (nohup) stays ignored.
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
  int code = -1;    // the exit status, -1 when killed by a signal
  int signal = 0;   // the signal that ended it, 0 when it exited
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
  if (WIFSIGNALED(status)) s.signal = WTERMSIG(status);
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
      EXPECT_EQ(s.signal, sig) << c.args[0] << " after signal " << sig << ": exit " << s.code
                               << " (0: it finished first, make its input larger)";
      EXPECT_LT(s.seconds_after_signal, 1.0) << c.args[0] << " after signal " << sig;
      if (!c.output.empty()) {
        EXPECT_FALSE(std::filesystem::exists(dir / c.output)) << c.args[0];
      }
      EXPECT_EQ(temp_files(dir), 0) << c.args[0];
    }
}

// Ctrl-C in a shell loop over runs: the run cleans up and dies by SIGINT, so bash stops the loop
// (a run that exited 130 instead would have let the loop go on to its next command).
TEST(CliSignals, CtrlCStopsAShellLoop) {
  TempDir dir;
  make_large_inputs(dir);
  const std::string loop = "for i in 1 2 3; do '" + binary() +
                           "' apply big_h.h5 big_psi.h5 -o out.h5 --chi 256 --threads 1 2>/dev/null; echo \"after $i\" >>loop.log; done";
  const pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);  // a process group of its own, as a terminal's foreground job
    if (chdir(dir.path().c_str()) != 0) _exit(99);
    execl("/bin/bash", "bash", "-c", loop.c_str(), static_cast<char*>(nullptr));
    _exit(98);
  }
  setpgid(pid, pid);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  kill(-pid, SIGINT);  // what the terminal sends on Ctrl-C: the whole group
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << "bash went on: status " << status;
  EXPECT_FALSE(std::filesystem::exists(dir / "loop.log")) << slurp(dir / "loop.log");
  EXPECT_FALSE(std::filesystem::exists(dir / "out.h5"));
  EXPECT_EQ(temp_files(dir), 0);
}

// Under nohup (SIGINT ignored by the parent) SIGINT does not stop the run; SIGTERM still does.
TEST(CliSignals, ASignalTheParentIgnoresStaysIgnored) {
  TempDir dir;
  make_large_inputs(dir);
  const pid_t pid = fork();
  if (pid == 0) {
    signal(SIGINT, SIG_IGN);
    if (chdir(dir.path().c_str()) != 0) _exit(99);
    if (!freopen("/dev/null", "w", stderr)) _exit(97);
    execl(binary().c_str(), "src-compress", "apply", "big_h.h5", "big_psi.h5", "-o", "out.h5", "--chi", "256",
          "--threads", "1", static_cast<char*>(nullptr));
    _exit(98);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  kill(pid, SIGINT);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  kill(pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << "status " << status;
  EXPECT_EQ(temp_files(dir), 0);
}

// --json on failure: one JSON object on stdout with the exit code, the kind and the message.
TEST(CliErrors, JsonOnFailureIsAnErrorObject) {
  TempDir dir;
  auto r = run_cli(dir, "apply missing.h5 other.h5 -o out.h5 --chi 4 --json");
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.out.find("{\"error\": {\"code\": 3, \"kind\": \"input\", \"message\": \"missing.h5"), std::string::npos) << r.out;
  r = run_cli(dir, "apply a.h5 b.h5 -o out.h5 --chi -3 --json");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("\"kind\": \"usage\""), std::string::npos) << r.out;
}

}  // namespace
}  // namespace srcc::test
