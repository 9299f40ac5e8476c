// evolve and expect (lib/srcc/session/evolve.cpp, measure/expect.cpp, measure/sandwich.cpp) against dense
// references: the Trotter step applied N times as a dense matrix, ⟨ψ|O|ψ⟩ and ⟨O²⟩ by dense
// products; resumption after a stop equal to the uninterrupted run; bad inputs refused.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <functional>
#include <sstream>
#include <map>
#include <random>
#include <thread>

#include <hdf5.h>
#include <lapacke.h>

#include "../support/cli_runner.hpp"
#include "../support/dense.hpp"
#include "../support/h5_edit.hpp"
#include "../support/h5_read.hpp"
#include "srcc/train/generate.hpp"

namespace srcc::test {
namespace {

namespace fs = std::filesystem;

std::map<std::string, std::vector<double>> trajectory(const fs::path& file) { return read_columns(file, "/trajectory"); }

long long log_int(const fs::path& file, const char* name) { return read_int_attr(file, "/log", name); }

// y = M x for the row-major matrix M of an operator train ([(u…), (d…)]).
std::vector<cd> mul(const std::vector<cd>& m, const std::vector<cd>& x) {
  const std::size_t n = x.size();
  std::vector<cd> y(n, 0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < n; ++k) y[i] += m[i * n + k] * x[k];
  return y;
}

std::vector<cd> matrix_of(const std::vector<Tensor<cdouble>>& mpo) {
  const DenseTrain d = dense_train(mpo);
  return interleaved_to_matrix(d.v, d.ups, d.downs);
}


class Evolve : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(run_cli(dir_, "generate product -o psi.h5 --sites 10 -q").code, 0);
    ASSERT_EQ(run_cli(dir_, "generate ising-step -o U.h5 --sites 10 --J 1 --h 0.7 --dt 0.1 -q").code, 0);
    ASSERT_EQ(run_cli(dir_, "generate ising -o H.h5 --sites 10 --J 1 --h 0.7 -q").code, 0);
    ASSERT_EQ(run_cli(dir_, "generate magnetization -o M.h5 --sites 10 -q").code, 0);
  }
  TempDir dir_;
};

// χ̄ = 32 holds every state of 10 spins exactly: the states and observables are those of the
// dense step applied k times; at χ̄ = 3 the states are compressed and their true error stays
// within a few times the error budget the run reports.
TEST_F(Evolve, EqualsTheDenseStepAppliedNTimes) {
  auto r = run_cli(dir_, "evolve U.h5 psi.h5 --steps 12 --dt 0.1 -o exact.h5 --chi 32 --seed 1 "
                         "--measure H.h5 --measure M.h5 --save-every 4 -q");
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_cli(dir_, "evolve U.h5 psi.h5 --steps 12 --dt 0.1 -o small.h5 --chi 3 --seed 1 --save-every 4 -q");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto u = matrix_of(read_cores(dir_ / "U.h5", "/U"));
  const auto h = matrix_of(read_cores(dir_ / "H.h5", "/H"));
  const auto m = matrix_of(read_cores(dir_ / "M.h5", "/M"));
  std::vector<cd> psi = dense_train(read_cores(dir_ / "psi.h5", "/psi")).v;
  const auto traj = trajectory(dir_ / "exact.h5");
  const auto small = trajectory(dir_ / "small.h5");
  ASSERT_EQ(traj.at("step").size(), 12u);
  for (std::size_t k = 1; k <= 12; ++k) {
    psi = mul(u, psi);
    const double n2 = inner(psi, psi).real();
    EXPECT_NEAR(traj.at("H_re")[k - 1], (inner(psi, mul(h, psi)) / n2).real(), 1e-10) << k;
    EXPECT_NEAR(traj.at("M_re")[k - 1], (inner(psi, mul(m, psi)) / n2).real(), 1e-10) << k;
    EXPECT_NEAR(traj.at("time")[k - 1], 0.1 * static_cast<double>(k), 1e-15);
    if (k % 4 != 0) continue;
    const auto got = dense_train(read_cores(dir_ / "exact.h5", "/states/" + std::to_string(k))).v;
    EXPECT_NEAR(std::abs(inner(got, psi)) / std::sqrt(inner(got, got).real() * n2), 1.0, 1e-12) << k;
    const auto approx = dense_train(read_cores(dir_ / "small.h5", "/states/" + std::to_string(k))).v;
    double diff = 0;
    for (std::size_t i = 0; i < psi.size(); ++i) diff += std::norm(approx[i] - psi[i]);
    const double error = std::sqrt(diff / n2), budget = small.at("error_budget")[k - 1];
    EXPECT_GT(error, 1e-8) << "χ̄ = 3 must compress";
    EXPECT_LT(error, 4 * budget) << "step " << k;
  }
  // The last state is /result.
  EXPECT_NEAR(std::abs(inner(dense_train(read_cores(dir_ / "exact.h5", "/result")).v, psi)), 1.0, 1e-12);
  EXPECT_EQ(log_int(dir_ / "exact.h5", "complete"), 1);
  EXPECT_EQ(log_int(dir_ / "exact.h5", "steps_done"), 12);
}

// The step records the time it stands for (generate step, ising-step: U.h5's dt = 0.1): the time
// column takes it without --dt, a --dt that differs is named and kept, --resume continues with
// the evolution's own, and two MPOs that each record one leave the column in steps.
TEST_F(Evolve, TakesTheStepsOwnTimeForItsTimeColumn) {
  auto r = run_cli(dir_, "inspect U.h5 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"step_dt\": 0.1"), std::string::npos) << r.out;
  r = run_cli(dir_, "inspect psi.h5 --json");
  EXPECT_EQ(r.out.find("step_dt"), std::string::npos) << "a state is no step: " << r.out;
  r = run_cli(dir_, "evolve U.h5 psi.h5 --steps 3 --chi 8 --seed 1 -o own.h5");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("one step is dt = 0.1 in the time column, as U.h5:/U records"), std::string::npos) << r.err;
  auto traj = trajectory(dir_ / "own.h5");
  ASSERT_EQ(traj.at("time").size(), 3u);
  for (std::size_t k = 1; k <= 3; ++k) EXPECT_NEAR(traj.at("time")[k - 1], 0.1 * static_cast<double>(k), 1e-15);
  r = run_cli(dir_, "evolve U.h5 psi.h5 --steps 5 --chi 8 --seed 1 -o own.h5 --resume -q");
  ASSERT_EQ(r.code, 0) << r.err;
  traj = trajectory(dir_ / "own.h5");
  ASSERT_EQ(traj.at("time").size(), 5u);
  EXPECT_NEAR(traj.at("time")[4], 0.5, 1e-15);

  r = run_cli(dir_, "evolve U.h5 psi.h5 --steps 2 --chi 8 --seed 1 --dt 0.2 -o given.h5");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("--dt 0.2 labels the time column, but U.h5:/U records a step of dt = 0.1"), std::string::npos)
      << r.err;
  EXPECT_NEAR(trajectory(dir_ / "given.h5").at("time")[1], 0.4, 1e-15);

  r = run_cli(dir_, "evolve U.h5 U.h5 psi.h5 --steps 2 --chi 8 --seed 1 -o twice.h5");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("2 of the step's MPOs record their time step: the time column counts steps"), std::string::npos)
      << r.err;
  EXPECT_EQ(trajectory(dir_ / "twice.h5").at("time")[1], 2.0);

  // A recorded dt that is no number is refused, naming the train and the attribute.
  fs::copy_file(dir_ / "U.h5", dir_ / "bad.h5");
  set_double_attr(dir_ / "bad.h5", "/U", "dt", std::nan(""));
  expect_clean_failure(run_cli(dir_, "evolve bad.h5 psi.h5 --steps 2 --chi 8 -o nan.h5"), 3,
                       "bad.h5:/U: attribute 'dt' is nan, not a finite number", dir_);
}

// Imaginary time with --normalize: the norm removed at each step is in the trajectory, the state
// stays at norm 1 and its energy falls to the ground state's.
TEST_F(Evolve, ImaginaryTimeWithNormalizeFindsTheGroundState) {
  ASSERT_EQ(run_cli(dir_, "generate ising-step -o tau.h5 --sites 10 --J 1 --h 1.5 --dt 0.1 --imaginary-time -q").code, 0);
  ASSERT_EQ(run_cli(dir_, "generate ising -o H15.h5 --sites 10 --J 1 --h 1.5 -q").code, 0);
  const auto r = run_cli(dir_, "evolve tau.h5 psi.h5 --steps 60 -o gs.h5 --chi 16 --seed 2 --normalize --measure H15.h5 -q");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto traj = trajectory(dir_ / "gs.h5");
  const auto h = matrix_of(read_cores(dir_ / "H15.h5", "/H"));
  // The ground-state energy by dense diagonalization.
  std::vector<cd> a = h;
  std::vector<double> w(1024);
  ASSERT_EQ(LAPACKE_zheev(LAPACK_ROW_MAJOR, 'N', 'U', 1024, reinterpret_cast<lapack_complex_double*>(a.data()), 1024, w.data()), 0);
  const double e = w[0];
  EXPECT_NEAR(traj.at("H15_re").back(), e, 2e-3);  // Trotter error of dt = 0.1
  EXPECT_GT(traj.at("H15_re").front(), traj.at("H15_re").back());
  const auto last = dense_train(read_cores(dir_ / "gs.h5", "/result")).v;
  EXPECT_NEAR(inner(last, last).real(), 1.0, 1e-12);
  EXPECT_NE(traj.at("norm").back(), 1.0);  // what --normalize took out
}

// A stop between steps (--max-time; SIGTERM at a random step) leaves a valid file with every
// finished step, a SIGKILL at a random moment the last checkpoint; --resume continues either to
// the state the uninterrupted run reaches.
TEST_F(Evolve, AStoppedRunResumesToTheUninterruptedResult) {
  ASSERT_EQ(run_cli(dir_, "generate product -o p40.h5 --sites 40 -q").code, 0);
  ASSERT_EQ(run_cli(dir_, "generate ising-step -o u40.h5 --sites 40 --J 1 --h 1 --dt 0.05 -q").code, 0);
  const std::string args = "evolve u40.h5 p40.h5 --steps 40 --chi 40 --seed 9 --checkpoint-every 1 -q";
  ASSERT_EQ(run_cli(dir_, args + " -o whole.h5").code, 0);
  // --max-time: stopped cleanly after some steps.
  auto r = run_cli(dir_, args + " -o part.h5 --max-time 0.15");
  ASSERT_EQ(r.code, 130) << r.err;
  EXPECT_NE(r.err.find("continue with --resume"), std::string::npos) << r.err;
  const long long done = log_int(dir_ / "part.h5", "steps_done");
  EXPECT_GT(done, 0);
  EXPECT_LT(done, 40);
  EXPECT_EQ(log_int(dir_ / "part.h5", "complete"), 0);
  EXPECT_EQ(trajectory(dir_ / "part.h5").at("step").size(), static_cast<std::size_t>(done));
  // --skip-existing does not take the checkpoint for a finished evolution.
  r = run_cli(dir_, "evolve u40.h5 p40.h5 --steps 40 --chi 40 --checkpoint-every 1 -o part.h5 --skip-existing --seed 9");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(log_int(dir_ / "part.h5", "steps_done"), 40);
  auto distance = [&](const std::string& a, const std::string& b) { return relative_distance(dir_, a, b); };
  EXPECT_LT(distance("part.h5:/result", "whole.h5:/result"), 1e-13);
  // A run in the background, signalled once its checkpoint holds `step` steps (and, for
  // SIGKILL, a moment later: anywhere in a later step or checkpoint). The steps are drawn at
  // random, so that runs of the suite stop at different ones; a failure names them.
  auto stopped_run = [&](const std::string& out, int signal, long long step, int later_ms) {
    const std::string cmd = "cd '" + dir_.path().string() + "' && exec '" + binary() + "' " + args + " -o " + out;
    const pid_t pid = fork();
    if (pid == 0) {
      execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    for (int i = 0; i < 20000; ++i) {
      if (fs::exists(dir_ / out) && log_int(dir_ / out, "steps_done") >= step) break;
      std::this_thread::sleep_for(std::chrono::microseconds(500));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(later_ms));
    ::kill(pid, signal);
    int status = 0;
    waitpid(pid, &status, 0);
    return status;
  };
  std::random_device random;
  const long long term_step = 1 + static_cast<long long>(random() % 25), kill_step = 1 + static_cast<long long>(random() % 25);
  SCOPED_TRACE("SIGTERM after step " + std::to_string(term_step) + ", SIGKILL after step " + std::to_string(kill_step));
  // SIGTERM from outside, then --resume (the seed taken from the file).
  const int term = stopped_run("sig.h5", SIGTERM, term_step, 0);
  ASSERT_TRUE(WIFSIGNALED(term)) << term;
  EXPECT_EQ(WTERMSIG(term), SIGTERM);
  const long long at_term = log_int(dir_ / "sig.h5", "steps_done");
  EXPECT_GE(at_term, term_step);
  EXPECT_LT(at_term, 40);
  r = run_cli(dir_, "evolve u40.h5 p40.h5 --steps 40 --chi 40 --checkpoint-every 1 -o sig.h5 --resume -q");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_LT(distance("sig.h5:/result", "whole.h5:/result"), 1e-13);
  // SIGKILL at any moment: what is left is the last checkpoint, whole.
  const int killed = stopped_run("kill.h5", SIGKILL, kill_step, 3);
  ASSERT_TRUE(WIFSIGNALED(killed)) << "the run ended before the signal";
  EXPECT_EQ(log_int(dir_ / "kill.h5", "complete"), 0);
  EXPECT_EQ(trajectory(dir_ / "kill.h5").at("step").size(),
            static_cast<std::size_t>(log_int(dir_ / "kill.h5", "steps_done")));
  r = run_cli(dir_, "evolve u40.h5 p40.h5 --steps 40 --chi 40 --checkpoint-every 1 -o kill.h5 --resume -q");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_LT(distance("kill.h5:/result", "whole.h5:/result"), 1e-13);
}

// SIGTERM (a batch system's time limit) at a random moment — within a sweep, a measurement or a
// checkpoint — under each checkpoint policy: the run saves every finished step, says how many
// the file holds (and it holds that many), and --resume reaches the uninterrupted result.
TEST_F(Evolve, ASigtermAtAnyMomentSavesWhatItSaysAndResumes) {
  ASSERT_EQ(run_cli(dir_, "generate product -o p24.h5 --sites 24 -q").code, 0);
  ASSERT_EQ(run_cli(dir_, "generate ising-step -o u24.h5 --sites 24 --J 1 --h 1 --dt 0.1 -q").code, 0);
  ASSERT_EQ(run_cli(dir_, "generate magnetization -o m24.h5 --sites 24 -q").code, 0);
  const std::string args = "evolve u24.h5 p24.h5 --steps 300 --chi 32 --seed 7 --measure m24.h5 -q";
  ASSERT_EQ(run_cli(dir_, args + " -o whole.h5 --save-every 25").code, 0);
  std::random_device random;
  const std::vector<std::string> policies = {"", "--checkpoint-every 7", "--save-every 25", "--checkpoint-every 1"};
  for (std::size_t i = 0; i < policies.size(); ++i) {
    const int delay_ms = 50 + static_cast<int>(random() % 900);
    const std::string out = "cut" + std::to_string(i) + ".h5";
    SCOPED_TRACE("policy '" + policies[i] + "', SIGTERM after " + std::to_string(delay_ms) + " ms");
    const std::string cmd = "cd '" + dir_.path().string() + "' && exec '" + binary() + "' " + args + " " +
                            policies[i] + " -o " + out + " 2>err.txt";
    const pid_t pid = fork();
    if (pid == 0) {
      execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    ::kill(pid, SIGTERM);
    int status = 0;
    waitpid(pid, &status, 0);
    const std::string err = slurp(dir_ / "err.txt");
    if (!WIFSIGNALED(status)) {
      ADD_FAILURE() << "finished before the signal: make the run longer; " << err;
      continue;
    }
    EXPECT_EQ(WTERMSIG(status), SIGTERM);
    EXPECT_EQ(temp_files(dir_), 0);
    const auto at = err.find(" holds the ");
    if (at == std::string::npos) {
      // Only a stop before the first step may leave nothing, and it says so.
      EXPECT_NE(err.find("no step had finished: no output was written"), std::string::npos) << err;
      EXPECT_FALSE(fs::exists(dir_ / out)) << err;
      continue;
    }
    const long long said = std::stoll(err.substr(at + 11));
    EXPECT_NE(err.find("continue with --resume"), std::string::npos) << err;
    EXPECT_EQ(log_int(dir_ / out, "steps_done"), said) << err;
    EXPECT_EQ(log_int(dir_ / out, "complete"), 0);
    EXPECT_EQ(trajectory(dir_ / out).at("step").size(), static_cast<std::size_t>(said));
    const auto r = run_cli(dir_, args + " " + policies[i] + " -o " + out + " --resume");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_LT(relative_distance(dir_, out + ":/result", "whole.h5:/result"), 1e-13);
    const auto resumed = trajectory(dir_ / out), whole = trajectory(dir_ / "whole.h5");
    ASSERT_EQ(resumed.at("step").size(), 300u);
    for (std::size_t k = 0; k < 300; ++k) EXPECT_NEAR(resumed.at("m24_re")[k], whole.at("m24_re")[k], 1e-12) << "step " << k + 1;
    if (policies[i] == "--save-every 25")
      EXPECT_LT(relative_distance(dir_, out + ":/states/150", "whole.h5:/states/150"), 1e-13);
  }
}

// --resume checks the checkpoint before it continues: a step count, trajectory, saved states or
// state changed by hand (or damaged) is refused, exit 3 naming the checkpoint, the file untouched.
TEST_F(Evolve, ResumeRefusesACheckpointThatDisagreesWithItself) {
  ASSERT_EQ(run_cli(dir_, "generate product -o p24.h5 --sites 24 -q").code, 0);
  ASSERT_EQ(run_cli(dir_, "generate ising-step -o u24.h5 --sites 24 --J 1 --h 1 --dt 0.1 -q").code, 0);
  const std::string args = "evolve u24.h5 p24.h5 --steps 60 --chi 16 --seed 3 --save-every 10 -q -o cp.h5";
  // A checkpoint of 40 steps: the run stopped by --max-time would do; an explicit shorter run
  // with the same fingerprint is the same file.
  ASSERT_EQ(run_cli(dir_, "evolve u24.h5 p24.h5 --steps 40 --chi 16 --seed 3 --save-every 10 -q -o good.h5").code, 0);
  struct Case {
    std::string what, message;
    std::function<void(const fs::path&)> change;
  };
  const std::vector<Case> cases = {
      {"steps_done raised by 5", "/log@steps_done is 45 but /trajectory has 40 rows",
       [](const fs::path& f) { set_int_attr(f, "/log", "steps_done", 45); }},
      {"steps_done -1", "/log@steps_done is -1", [](const fs::path& f) { set_int_attr(f, "/log", "steps_done", -1); }},
      {"steps_done 2^62", "/log@steps_done is 4611686018427387904",
       [](const fs::path& f) { set_int_attr(f, "/log", "steps_done", 1LL << 62); }},
      {"the last row deleted", "/log@steps_done is 40 but /trajectory has 39 rows",
       [](const fs::path& f) { remove_row(f, "/trajectory", 39); }},
      {"a row deleted, steps_done lowered to match", "/trajectory row 17 is step 18",
       [](const fs::path& f) {
         remove_row(f, "/trajectory", 16);
         set_int_attr(f, "/log", "steps_done", 39);
       }},
      {"/states deleted", "/states/10 is missing", [](const fs::path& f) { unlink_object(f, "/states"); }},
      {"a saved state deleted", "/states/30 is missing", [](const fs::path& f) { unlink_object(f, "/states/30"); }},
      {"the state of an earlier step as /result", "is not the state of step 40",
       [](const fs::path& f) {
         unlink_object(f, "/result");
         const hid_t h = H5Fopen(f.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
         H5Lcreate_hard(h, "/states/20", h, "/result", H5P_DEFAULT, H5P_DEFAULT);
         H5Fclose(h);
       }},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    fs::copy_file(dir_ / "good.h5", dir_ / "cp.h5", fs::copy_options::overwrite_existing);
    set_int_attr(dir_ / "cp.h5", "/log", "complete", 0);  // a checkpoint, not a finished run
    c.change(dir_ / "cp.h5");
    const std::string before = slurp(dir_ / "cp.h5");
    const auto r = run_cli(dir_, args + " --resume");
    EXPECT_EQ(r.code, 3) << r.err;
    EXPECT_NE(r.err.find("cp.h5: not a consistent checkpoint"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_EQ(slurp(dir_ / "cp.h5"), before);
    EXPECT_EQ(temp_files(dir_), 0);
  }
  // Unchanged, the same checkpoint resumes.
  fs::copy_file(dir_ / "good.h5", dir_ / "cp.h5", fs::copy_options::overwrite_existing);
  set_int_attr(dir_ / "cp.h5", "/log", "complete", 0);
  const auto r = run_cli(dir_, args + " --resume");
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_EQ(run_cli(dir_, "evolve u24.h5 p24.h5 --steps 60 --chi 16 --seed 3 --save-every 10 -q -o whole.h5").code, 0);
  EXPECT_LT(relative_distance(dir_, "cp.h5:/result", "whole.h5:/result"), 1e-13);
}

// Two runs writing one output (two --force jobs given the same -o): each version of the file
// holds one run's states only; a run whose output was replaced by the other stops, exit 4,
// saying so, instead of taking in the other's states.
TEST_F(Evolve, TwoRunsToOneOutputNeverMixTheirStates) {
  ASSERT_EQ(run_cli(dir_, "generate product -o p24.h5 --sites 24 -q").code, 0);
  ASSERT_EQ(run_cli(dir_, "generate ising-step -o u24.h5 --sites 24 --J 1 --h 1 --dt 0.1 -q").code, 0);
  const std::string args = "evolve u24.h5 p24.h5 --steps 200 --chi 24 --save-every 5 --checkpoint-every 3 -q";
  for (int seed : {7, 8}) ASSERT_EQ(run_cli(dir_, args + " --seed " + std::to_string(seed) + " -o ref" + std::to_string(seed) + ".h5").code, 0);
  for (int trial = 0; trial < 3; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const std::string both = "cd '" + dir_.path().string() + "' && { ('" + binary() + "' " + args +
                             " --seed 7 --force -o same.h5 2>e7.txt; echo $? >c7.txt) & ('" + binary() + "' " + args +
                             " --seed 8 --force -o same.h5 2>e8.txt; echo $? >c8.txt); wait; }";
    ASSERT_EQ(std::system(both.c_str()), 0);
    int finished = 0;
    for (int seed : {7, 8}) {
      const std::string s = std::to_string(seed);
      const int code = std::stoi(slurp(dir_ / ("c" + s + ".txt")));
      const std::string err = slurp(dir_ / ("e" + s + ".txt"));
      if (code == 0) ++finished;
      else {
        EXPECT_EQ(code, 4) << err;
        EXPECT_NE(err.find("was replaced by another run"), std::string::npos) << err;
      }
    }
    EXPECT_GE(finished, 1);
    EXPECT_EQ(temp_files(dir_), 0);
    // Whoever wrote the file last: all its states are that run's.
    const std::string seed = std::to_string(read_int_attr(dir_ / "same.h5", "/log", "seed"));
    const auto listed = read_string_attr(dir_ / "same.h5", "/log", "saved_states");
    std::istringstream in(listed);
    int states = 0;
    for (long long k; in >> k; ++states) {
      const auto got = read_cores(dir_ / "same.h5", "/states/" + std::to_string(k));
      const auto want = read_cores(dir_ / ("ref" + seed + ".h5"), "/states/" + std::to_string(k));
      ASSERT_EQ(got.size(), want.size());
      for (std::size_t j = 0; j < got.size(); ++j) {
        ASSERT_EQ(got[j].shape, want[j].shape) << "state " << k << " site " << j;
        for (std::size_t i = 0; i < got[j].data.size(); ++i)
          ASSERT_LT(std::abs(got[j].data[i] - want[j].data[i]), 1e-12) << "state " << k << " site " << j;
      }
    }
    EXPECT_GT(states, 0);
  }
}

// Many steps in one process: the resident size stays that of one step (a transfer log that kept
// every step's rows in full pinned the heap: 1 GB after 1000 steps at χ̄ = 32), the output file
// and its /log/transfers do not grow with the steps, and the log still counts every event.
TEST_F(Evolve, ALongEvolutionKeepsMemoryFileAndLogBounded) {
  ASSERT_EQ(run_cli(dir_, "generate product -o p24.h5 --sites 24 -q").code, 0);
  ASSERT_EQ(run_cli(dir_, "generate ising-step -o u24.h5 --sites 24 --J 1 --h 1 --dt 0.01 -q").code, 0);
  auto summary = [&](const std::string& out, int steps, int every) {
    const auto r = run_cli(dir_, "evolve u24.h5 p24.h5 --chi 32 --seed 3 --json -q -o " + out + " --steps " +
                                     std::to_string(steps) + " --checkpoint-every " + std::to_string(every));
    EXPECT_EQ(r.code, 0) << r.err;
    return r.out;
  };
  const std::string s = summary("long.h5", 300, 50);
  summary("short.h5", 30, 50);
  summary("once.h5", 300, 300);  // the same evolution, one checkpoint
  const long rss = std::atol(s.c_str() + s.find("\"peak_rss_bytes\": ") + 18);
  expect_resident_below(rss, 100e6, "300 steps at χ̄ = 32");
  const auto rows = read_transfers(dir_ / "long.h5"), short_rows = read_transfers(dir_ / "short.h5");
  EXPECT_LT(rows.size(), 1000u);
  EXPECT_LT(rows.size(), 2 * short_rows.size()) << "the log grows with the steps";
  EXPECT_LT(fs::file_size(dir_ / "long.h5"), 1.2 * static_cast<double>(fs::file_size(dir_ / "once.h5")))
      << "dead space of replaced checkpoints";
  // Every step's events are counted: the sweeps copy the state's cores each step.
  const auto events = read_columns(dir_ / "long.h5", "/log/transfers").at("events");
  long long mps = 0;
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i].what == "mps site" && rows[i].mechanism == "host copy") mps += static_cast<long long>(events[i]);
  EXPECT_GE(mps, 300 * 24);
}

// --taylor K: each step is Σ_{m≤K} (−i dt H)^m/m! ψ as one compressed sum. At χ̄ = 32 (exact for
// 10 spins) the states are those of the dense polynomial applied k times, and they approach
// e^{−iHt}ψ as K grows; with --imaginary-time the polynomial of e^{−dt H}.
TEST_F(Evolve, TaylorStepsAreTheDensePolynomialAndApproachTheExponential) {
  const double dt = 0.05;
  const std::size_t steps = 10;
  const auto h = matrix_of(read_cores(dir_ / "H.h5", "/H"));
  const std::vector<cd> psi0 = dense_train(read_cores(dir_ / "psi.h5", "/psi")).v;
  auto polynomial = [&](std::vector<cd> psi, std::size_t order, cd factor, bool normalize) {
    for (std::size_t k = 0; k < steps; ++k) {
      std::vector<cd> term = psi, sum = psi;
      for (std::size_t m = 1; m <= order; ++m) {
        term = mul(h, term);
        for (auto& x : term) x *= factor / static_cast<double>(m);
        for (std::size_t i = 0; i < sum.size(); ++i) sum[i] += term[i];
      }
      psi = sum;
      if (normalize) {
        const double n = std::sqrt(inner(psi, psi).real());
        for (auto& x : psi) x /= n;
      }
    }
    return psi;
  };
  // e^{−iHt}ψ by dense diagonalization.
  std::vector<cd> v = h;
  const std::size_t dim = psi0.size();
  std::vector<double> w(dim);
  ASSERT_EQ(LAPACKE_zheev(LAPACK_ROW_MAJOR, 'V', 'U', static_cast<lapack_int>(dim),
                          reinterpret_cast<lapack_complex_double*>(v.data()), static_cast<lapack_int>(dim), w.data()), 0);
  std::vector<cd> exact(dim, 0), coef(dim, 0);
  for (std::size_t a = 0; a < dim; ++a) {
    for (std::size_t i = 0; i < dim; ++i) coef[a] += std::conj(v[i * dim + a]) * psi0[i];
    coef[a] *= std::exp(cd(0, -w[a] * dt * static_cast<double>(steps)));
  }
  for (std::size_t i = 0; i < dim; ++i)
    for (std::size_t a = 0; a < dim; ++a) exact[i] += v[i * dim + a] * coef[a];
  auto distance = [](const std::vector<cd>& a, const std::vector<cd>& b) {
    double d = 0;
    for (std::size_t i = 0; i < a.size(); ++i) d += std::norm(a[i] - b[i]);
    return std::sqrt(d / inner(b, b).real());
  };
  double previous = 1;
  for (std::size_t order : {2, 4, 6}) {
    const std::string out = "taylor" + std::to_string(order) + ".h5";
    const auto r = run_cli(dir_, "evolve --taylor " + std::to_string(order) + " H.h5 psi.h5 --dt 0.05 --steps 10 -o " + out +
                                     " --chi 32 --seed 1 --measure H.h5 -q");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto got = dense_train(read_cores(dir_ / out, "/result")).v;
    const auto want = polynomial(psi0, order, cd(0, -dt), false);
    EXPECT_LT(distance(got, want), 1e-10) << order;
    // The only error left is the polynomial's own, which falls fast with the order.
    const double error = distance(got, exact);
    EXPECT_NEAR(error, distance(want, exact), 1e-9) << order;
    EXPECT_LT(error, order == 2 ? 0.5 : previous / 30) << order;
    std::printf("--taylor %zu: distance to e^{-iHt}psi %.3e\n", order, error);
    previous = error;
    EXPECT_NEAR(trajectory(dir_ / out).at("H_re").back(), (inner(want, mul(h, want)) / inner(want, want)).real(), 1e-9);
  }
  const auto r = run_cli(dir_, "evolve --taylor 4 --imaginary-time H.h5 psi.h5 --dt 0.05 --steps 10 --normalize -o tau.h5 --chi 32 --seed 1 -q");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_LT(distance(dense_train(read_cores(dir_ / "tau.h5", "/result")).v, polynomial(psi0, 4, cd(-dt, 0), true)), 1e-10);
  // The order is part of what a resumed run must share.
  const auto again = run_cli(dir_, "evolve --taylor 2 H.h5 psi.h5 --dt 0.05 --steps 12 -o taylor4.h5 --chi 32 --seed 1 --resume");
  EXPECT_EQ(again.code, 3);
  EXPECT_NE(again.err.find("its taylor is '4'"), std::string::npos) << again.err;
}

TEST_F(Evolve, BadInputsAreRefusedNamingWhatDiffers) {
  ASSERT_EQ(run_cli(dir_, "generate random-mpo -o u3.h5 --sites 10 --phys 3 --bond 2 --seed 1 -q").code, 0);
  ASSERT_EQ(run_cli(dir_, "generate magnetization -o m8.h5 --sites 8 -q").code, 0);
  ASSERT_EQ(run_cli(dir_, "apply H.h5 psi.h5 -o applied.h5 --chi 4 --seed 1 -q").code, 0);
  expect_clean_failure(run_cli(dir_, "evolve u3.h5 psi.h5 --steps 3 -o out.h5 --chi 4"), 3,
                       "u3.h5:/A/0: down (input) leg has size 3 but psi.h5:/psi/0 has physical leg of size 2", dir_);
  expect_clean_failure(run_cli(dir_, "evolve U.h5 psi.h5 --steps 3 -o out.h5 --chi 4 --measure m8.h5"), 3,
                       "m8.h5:/M has 8 sites but the state has 10", dir_);
  expect_clean_failure(run_cli(dir_, "evolve U.h5 psi.h5 --steps 0 -o out.h5 --chi 4"), 2, "--steps", dir_);
  expect_clean_failure(run_cli(dir_, "evolve --taylor 4 H.h5 psi.h5 --steps 3 -o out.h5 --chi 4"), 2, "--taylor: needs --dt", dir_);
  expect_clean_failure(run_cli(dir_, "evolve U.h5 psi.h5 --imaginary-time --steps 3 -o out.h5 --chi 4"), 2,
                       "--imaginary-time: only with --taylor", dir_);
  expect_clean_failure(run_cli(dir_, "evolve --taylor 9 H.h5 psi.h5 --dt 0.1 --steps 3 -o out.h5 --chi 4"), 2, "--taylor", dir_);
  expect_clean_failure(run_cli(dir_, "evolve --taylor 2 H.h5 psi.h5 --dt 0.1 --steps 3 -o out.h5 --chi 4 --dtype float64"), 2,
                       "complex weights", dir_);
  auto r = run_cli(dir_, "evolve U.h5 psi.h5 --steps 3 -o applied.h5 --chi 4 --resume");
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.err.find("applied.h5: an output of src-compress"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("not of evolve"), std::string::npos) << r.err;
  ASSERT_EQ(run_cli(dir_, "evolve U.h5 psi.h5 --steps 3 -o e.h5 --chi 4 --seed 5 -q").code, 0);
  r = run_cli(dir_, "evolve U.h5 psi.h5 --steps 6 -o e.h5 --chi 8 --seed 5 --resume");
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.err.find("e.h5: made by another evolution: its chi is '4', this run's '8'"), std::string::npos) << r.err;
  r = run_cli(dir_, "evolve U.h5 H.h5 --steps 3 -o e2.h5 --chi 4");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("evolve takes an MPS as its state"), std::string::npos) << r.err;
  expect_clean_failure(run_cli(dir_, "evolve U.h5 psi.h5 --steps 3 -o out.h5 --chi 4 --output-format tenpy"), 2,
                       "--output-format tenpy: evolve writes its file in src-compress's layout", dir_);
  // --dry-run plans the first step and writes nothing.
  r = run_cli(dir_, "evolve U.h5 psi.h5 --steps 3 -o out.h5 --chi 4 --dry-run --json");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"sites\": 10"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir_ / "out.h5"));
}

// expect against dense products: ⟨ψ|O|ψ⟩/⟨ψ|ψ⟩, ⟨φ|O|ψ⟩, and ⟨O²⟩ − ⟨O⟩² without forming O².
TEST(Expect, MatchesDenseExpectationsAndVariances) {
  TempDir dir;
  const auto psi = random_train<cdouble>(TrainKind::kMps, 8, 5, 2, 11);
  const auto phi = random_train<cdouble>(TrainKind::kMps, 8, 3, 2, 12);
  auto op = random_train<cdouble>(TrainKind::kMpo, 8, 3, 2, 13);
  write_raw_train(dir / "psi.h5", stored_train(psi, true, "lrp", true, "/psi"));
  write_raw_train(dir / "phi.h5", stored_train(phi, true, "lrp", true, "/phi"));
  write_raw_train(dir / "o.h5", stored_train(op, false, "lrud", true, "/O"));
  ASSERT_EQ(run_cli(dir, "generate ising -o h.h5 --sites 8 --J 1 --h 0.4 -q").code, 0);
  auto r = run_cli(dir, "expect psi.h5 o.h5 h.h5 --variance --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto vp = dense_train(psi).v, vf = dense_train(phi).v;
  const auto mo = matrix_of(op), mh = matrix_of(read_cores(dir / "h.h5", "/H"));
  const double n2 = inner(vp, vp).real();
  auto number_after = [&](const std::string& key, std::size_t from) {
    const auto at = r.out.find("\"" + key + "\": ", from);
    return std::make_pair(std::atof(r.out.c_str() + at + key.size() + 4), at);
  };
  const cd eo = inner(vp, mul(mo, vp)) / n2;
  auto [re, at] = number_after("re", 0);
  EXPECT_NEAR(re, eo.real(), 1e-12 * std::abs(eo));
  auto [im, at2] = number_after("im", at);
  EXPECT_NEAR(im, eo.imag(), 1e-12 * std::abs(eo));
  const auto hv = mul(mh, vp);
  const double eh = (inner(vp, hv) / n2).real(), var = (inner(hv, hv) / n2).real() - eh * eh;
  auto [re_h, at3] = number_after("re", at2);
  EXPECT_NEAR(re_h, eh, 1e-12 * std::abs(eh));
  auto [v_h, at4] = number_after("variance", at3);
  EXPECT_NEAR(v_h, var, 1e-10 * std::abs(eh * eh));
  (void)at4;
  // A matrix element with a bra.
  r = run_cli(dir, "expect psi.h5 o.h5 --bra phi.h5 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const cd fo = inner(vf, mul(mo, vp));
  EXPECT_NEAR(number_after("re", r.out.find("operators")).first, fo.real(), 1e-12 * std::abs(fo));
  // An operator of another length.
  ASSERT_EQ(run_cli(dir, "generate ising -o h6.h5 --sites 6 -q").code, 0);
  r = run_cli(dir, "expect psi.h5 h6.h5");
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.err.find("h6.h5:/H has 6 sites but psi.h5:/psi has 8"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace srcc::test
