// Memory budgets through the binary: spilling under --host-memory with the resident size
// measured, impossible budgets, and --dry-run.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "../support/cli_runner.hpp"
#include "srcc/train/generate.hpp"

namespace srcc::test {
namespace {

TEST(CliBudget, TightHostMemorySpillsBatchesAndKeepsTheResult) {
  TempDir dir;
  std::filesystem::create_directory(dir / "scratch");
  ASSERT_EQ(run_cli(dir, "generate random-mpo -o h.h5 --sites 80 --bond 24 --dtype complex128 --seed 1 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "generate random-mps -o p.h5 --sites 80 --bond 24 --dtype complex128 --seed 2 -q").code, 0);
  const auto [free_code, free_rss] =
      run_measured(dir, {"apply", "h.h5", "p.h5", "-o", "free.h5", "--chi", "48", "--seed", "4"});
  ASSERT_EQ(free_code, 0);
  // The plan for a tight budget spills environments and says so; nothing is read for it.
  const std::string budget = "56MB";
  auto r = run_cli(dir, "apply h.h5 p.h5 -o tight.h5 --chi 48 --seed 4 --host-memory " + budget +
                            " --scratch-dir scratch --dry-run --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"env_tier\": \"scratch\""), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir / "tight.h5"));
  const auto [code, rss] = run_measured(dir, {"apply", "h.h5", "p.h5", "-o", "tight.h5", "--chi", "48",
                                              "--seed", "4", "--host-memory", budget,
                                              "--scratch-dir", "scratch"});
  ASSERT_EQ(code, 0);
  // Within the budget (56 MB, of which 48 MiB is the process allowance) plus 8 MB of margin
  // for what the plan does not model (HDF5's caches, the transfer log).
#ifndef SRCC_SANITIZED  // ASan's shadow memory and quarantine make the resident size meaningless
  EXPECT_LE(rss, 56'000'000L + 8'000'000L) << "unconstrained run: " << free_rss;
  EXPECT_LT(rss, free_rss);
#endif
  // The same product to rounding (batched GEMMs may round differently, and directions beyond
  // the exact rank are arbitrary); the spills are in the log; the scratch directory is empty.
  r = run_cli(dir, "distance tight.h5 free.h5 --json");
  ASSERT_EQ(r.code, 0);
  const auto pos = r.out.find("\"relative_distance\": ");
  ASSERT_NE(pos, std::string::npos);
  EXPECT_LT(std::stod(r.out.substr(pos + 21)), 1e-12) << r.out;
  const auto rows = read_transfers(dir / "tight.h5");
  int spills = 0, reads = 0;
  for (const auto& row : rows) {
    if (row.what != "environment") continue;
    spills += row.mechanism == "file write";
    reads += row.mechanism == "file read";
  }
  EXPECT_GT(spills, 0);
  EXPECT_GE(reads, spills);
  EXPECT_TRUE(std::filesystem::is_empty(dir / "scratch"));
}

TEST(CliBudget, ImpossibleBudgetFailsBeforeAnyWork) {
  TempDir dir;
  make_inputs(dir);
  expect_clean_failure(run_cli(dir, "apply h.h5 psi.h5 -o out.h5 --chi 8 --host-memory 1MB"), 5,
                       "--host-memory allows", dir);
  EXPECT_EQ(run_cli(dir, "apply h.h5 psi.h5 -o out.h5 --chi 8 --host-memory 12parsecs").code, 2);
  EXPECT_EQ(run_cli(dir, "apply h.h5 psi.h5 -o out.h5 --chi 8 --scratch-dir /no/such/dir").code, 2);
}

// A tolerance run without --chi is planned for the most directions the product can have at a
// cut: its fused bond, or the physical dimensions on either side where those are fewer (12 spins:
// 2⁶ at the middle, not H⁴·ψ's fused bond of 5⁴·16). Where even that does not fit the budget
// (40 spins), the message says to give --chi, with which the same budget suffices.
TEST(CliBudget, ATolerancePlanTooWideForTheBudgetAsksForChi) {
  TempDir dir;
  for (const char* n : {"12", "40"}) {
    ASSERT_EQ(run_cli(dir, std::string("generate xxz --sites ") + n + " -o h" + n + ".h5 -q").code, 0);
    ASSERT_EQ(run_cli(dir, std::string("generate random-mps --sites ") + n + " --bond 16 --seed 3 -o psi" + n + ".h5 -q").code, 0);
  }
  const auto plan = run_cli(dir, "apply h12.h5 h12.h5 h12.h5 h12.h5 psi12.h5 -o out.h5 --tol 1e-6 --dry-run --json");
  ASSERT_EQ(plan.code, 0) << plan.err;
  EXPECT_NE(plan.out.find("\"sketch_columns\": 64,"), std::string::npos) << plan.out;
  const std::string deep = "apply h40.h5 h40.h5 h40.h5 h40.h5 psi40.h5 -o out.h5 --tol 1e-6 --host-memory 300MB";
  const auto r = run_cli(dir, deep);
  expect_clean_failure(r, 5, "--tol without --chi is planned for a sketch as wide as the largest bond the product can have", dir);
  EXPECT_NE(r.err.find("(10000 columns): give --chi as a cap"), std::string::npos) << r.err;
  EXPECT_EQ(run_cli(dir, deep + " --chi 16 --dry-run").code, 0);
  EXPECT_EQ(run_cli(dir, "apply h12.h5 psi12.h5 -o out.h5 --chi 8 --host-memory 1MB").err.find("give --chi"),
            std::string::npos);
}

TEST(CliBudget, DryRunReadsNoTensorData) {
  TempDir dir;
  auto p = random_train<cdouble>(TrainKind::kMps, 6, 3, 2, 3);
  p[2].data[0] = cdouble(NAN, 0);  // a real run would stop here; a dry run never looks
  write_raw_train(dir / "bad.h5", stored_train(p, true, "lrp", true, "/psi"));
  const auto r = run_cli(dir, "compress bad.h5 -o out.h5 --chi 4 --dry-run");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("predicted peak host tensor memory"), std::string::npos) << r.out;
  EXPECT_FALSE(std::filesystem::exists(dir / "out.h5"));
}

// The peak resident size is this process's own: a small run started by a parent holding
// 400 MB (a Python driver with its arrays) reports its few tens of MB, not the parent's peak,
// which getrusage's ru_maxrss would carry over the exec.
TEST(CliBudget, PeakMemoryIsTheRunsOwnUnderAFatParent) {
  TempDir dir;
  make_inputs(dir);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::vector<char> fat(std::size_t{400} << 20);
    std::memset(fat.data(), 1, fat.size());  // resident, not just reserved
    if (chdir(dir.path().c_str()) != 0 || !freopen("run.json", "w", stdout)) _exit(99);
    execl(binary().c_str(), "src-compress", "apply", "h.h5", "psi.h5", "-o", "out.h5", "--chi", "4", "--seed", "1",
          "--json", "-q", static_cast<char*>(nullptr));
    _exit(98);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  const double peak = json_number(slurp(dir / "run.json"), "peak_rss_bytes");
  EXPECT_GT(peak, 1e6);
  expect_resident_below(static_cast<long>(peak), 150e6, "a small run under a 400 MB parent");
}

// The plan predicts the sweep's work: close to the flops the sweep then executes (the GEMMs it
// counts), with a time at the GEMM rate measured here; a run predicted to outlast --max-time is
// warned about before it starts.
TEST(CliBudget, ThePlanPredictsTheWorkAndWarnsBeforeARunTooLongForMaxTime) {
  TempDir dir;
  ASSERT_EQ(run_cli(dir, "generate random-mpo -o h.h5 --sites 30 --bond 12 --dtype complex128 --seed 1 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "generate random-mps -o psi.h5 --sites 30 --bond 32 --dtype complex128 --seed 2 -q").code, 0);
  auto r = run_cli(dir, "apply h.h5 psi.h5 -o out.h5 --chi 48 --dry-run --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const double predicted = json_number(r.out, "predicted_gflop");
  EXPECT_GT(json_number(r.out, "gemm_gflops"), 0.1);
  EXPECT_GT(json_number(r.out, "predicted_seconds_max"), json_number(r.out, "predicted_seconds_min"));
  r = run_cli(dir, "apply h.h5 psi.h5 -o out.h5 --chi 48 --seed 1 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const double executed = json_number(r.out, "gflop");
  EXPECT_NEAR(predicted, executed, 0.1 * executed) << "predicted " << predicted << " GFLOP, executed " << executed;
  EXPECT_GT(predicted, 1.0) << "a case worth checking against --max-time";
  r = run_cli(dir, "apply h.h5 psi.h5 -o late.h5 --chi 48 --seed 1 --max-time 0.001");
  EXPECT_NE(r.err.find("beyond --max-time"), std::string::npos) << r.err;
  r = run_cli(dir, "apply h.h5 psi.h5 -o dry.h5 --chi 48 --dry-run");
  EXPECT_NE(r.out.find("predicted work "), std::string::npos) << r.out;
  // An evolution is warned about from its steps to come; --max-time then stops it with its
  // checkpoint (exit 130).
  ASSERT_EQ(run_cli(dir, "generate ising -o ising.h5 --sites 30 -q").code, 0);
  r = run_cli(dir, "evolve ising.h5 psi.h5 -o ev.h5 --chi 48 --taylor 2 --dt 0.01 --steps 100000 --max-time 0.5s");
  EXPECT_EQ(r.code, 130) << r.err;
  EXPECT_NE(r.err.find("steps at the first one's bonds"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("beyond --max-time"), std::string::npos) << r.err;
}

// Every number after "key": in `json` added up (a sum's plans: one per term).
double sum_of(const std::string& json, const std::string& key) {
  double total = 0;
  for (std::size_t at = json.find("\"" + key + "\":"); at != std::string::npos; at = json.find("\"" + key + "\":", at + 1))
    total += std::stod(json.substr(json.find(':', at) + 1));
  return total;
}

// The dry run's flops are the method's: src, sdc and sdcr predicted apart and each as executed;
// a sum of products and a --taylor step of evolve as the sum of their terms'.
TEST(CliBudget, EveryMethodSumAndTaylorStepIsPredictedAsExecuted) {
  TempDir dir;
  ASSERT_EQ(run_cli(dir, "generate random-mpo -o h.h5 --sites 12 --bond 6 --seed 1 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "generate random-mps -o psi.h5 --sites 12 --bond 20 --seed 2 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "generate ising -o ising.h5 --sites 12 -q").code, 0);
  const std::vector<std::pair<std::string, std::string>> runs = {
      {"src", "apply h.h5 psi.h5 --chi 24"},
      {"sdc", "apply h.h5 psi.h5 --chi 24 --method sdc"},
      {"sdcr", "apply h.h5 psi.h5 --chi 24 --method sdcr --fit-sweeps 1"},
      {"sum", "apply --term 0.5 h.h5 psi.h5 --term -1 ising.h5 psi.h5 --chi 24 --method sdc"},
      {"taylor", "evolve ising.h5 psi.h5 --chi 24 --taylor 2 --dt 0.1 --steps 1"},
  };
  std::vector<double> predicted;
  for (const auto& [name, args] : runs) {
    auto r = run_cli(dir, args + " -o " + name + ".h5 --seed 3 --dry-run --json");
    ASSERT_EQ(r.code, 0) << name << ": " << r.err;
    predicted.push_back(sum_of(r.out, "predicted_gflop"));
    r = run_cli(dir, args + " -o " + name + ".h5 --seed 3 --json");
    ASSERT_EQ(r.code, 0) << name << ": " << r.err;
    const double executed = json_number(r.out, name == "taylor" ? "sweep_flops" : "gflop") / (name == "taylor" ? 1e9 : 1);
    EXPECT_NEAR(predicted.back(), executed, 0.15 * executed) << name << ": predicted " << predicted.back() << " GFLOP";
  }
  EXPECT_NE(predicted[0], predicted[1]);
  EXPECT_NE(predicted[1], predicted[2]);
}

}  // namespace
}  // namespace srcc::test
