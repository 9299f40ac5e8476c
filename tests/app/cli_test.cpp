// Tests that run the built `src-compress` binary (app/): help and exit codes, --json, --force,
// config files, atomic output, signals, the transfer log in the written file, the auxiliary
// subcommands and --device without a GPU.
#include <gtest/gtest.h>

#include <fstream>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <map>
#include <thread>

#include "../support/cli_runner.hpp"
#include "../support/dense.hpp"
#include "../support/h5_read.hpp"
#include "srcc/backend/device.hpp"
#include "srcc/train/generate.hpp"

namespace srcc::test {
namespace {
TEST(Cli, HelpListsSubcommandsAndExitCodes) {
  TempDir dir;
  const auto r = run_cli(dir, "--help");
  EXPECT_EQ(r.code, 0);
  for (const char* s : {"apply", "compress", "inspect", "generate", "Exit codes", "130 interrupted"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s;
  EXPECT_EQ(run_cli(dir, "apply --help").code, 0);
}

TEST(Cli, UsageErrorsExitWithTwo) {
  TempDir dir;
  make_inputs(dir);
  EXPECT_EQ(run_cli(dir, "--no-such-flag").code, 2);
  EXPECT_EQ(run_cli(dir, "apply h.h5 psi.h5 -o out.h5").code, 2);  // no --chi
  auto r = run_cli(dir, "apply h.h5 psi.h5 -o out.h5 --chi 4 --cutoff 1.5");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--cutoff"), std::string::npos);
  r = run_cli(dir, "apply h.h5 psi.h5 -o out.h5 --chi 4 --dtype float16");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("valid: float32, float64, complex64, complex128"), std::string::npos);
  r = run_cli(dir, "apply h.h5 psi.h5 -o out.h5 --chi 4 --dtype float64");  // complex input
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("imaginary part would be lost"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir / "out.h5"));
}

TEST(Cli, InputErrorsExitWithThreeAndNameTheCulprit) {
  TempDir dir;
  make_inputs(dir);
  auto r = run_cli(dir, "apply h.h5 missing.h5 -o out.h5 --chi 4");
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.err.find("missing.h5: no such file"), std::string::npos);
  r = run_cli(dir, "apply h.h5 psi.h5:/nope -o out.h5 --chi 4");
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.err.find("psi.h5:/nope: no such group"), std::string::npos);
  r = run_cli(dir, "compress psi.h5 -o out.h5 --chi 4 --json");
  EXPECT_EQ(r.code, 0) << r.err;
}

TEST(Cli, ExistingOutputNeedsForce) {
  TempDir dir;
  make_inputs(dir);
  ASSERT_EQ(run_cli(dir, "apply h.h5 psi.h5 -o out.h5 --chi 6 --seed 1").code, 0);
  const auto before = slurp(dir / "out.h5");
  auto r = run_cli(dir, "apply h.h5 psi.h5 -o out.h5 --chi 6 --seed 2");
  EXPECT_EQ(r.code, 4);
  EXPECT_NE(r.err.find("out.h5: file exists (use --force"), std::string::npos);
  EXPECT_EQ(slurp(dir / "out.h5"), before);
  EXPECT_EQ(run_cli(dir, "apply h.h5 psi.h5 -o out.h5 --chi 6 --seed 2 --force").code, 0);
  EXPECT_NE(slurp(dir / "out.h5"), before);
  EXPECT_EQ(run_cli(dir, "apply h.h5 psi.h5 -o no/such/dir/out.h5 --chi 6").code, 4);
  EXPECT_EQ(temp_files(dir), 0);
}

TEST(Cli, JsonSummaryOnStdoutLogsOnStderr) {
  TempDir dir;
  make_inputs(dir);
  const auto r = run_cli(dir, "apply h.h5 psi.h5:/psi -o out.h5 --chi 12 --seed 5 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.front(), '{');
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1);
  for (const char* key : {"\"sites\": 8", "\"max_bond\": 12", "\"seed\": 5", "\"result\": \"MPS\"",
                          "\"bytes_by_mechanism\"", "\"file read\"", "\"gflops_per_second\""})
    EXPECT_NE(r.out.find(key), std::string::npos) << key << " in " << r.out;
  EXPECT_NE(r.err.find("right sweep"), std::string::npos);
}

// --profile-gemm: a table on stderr, or in --json a list whose flops add up to the run's
// executed total; without the flag neither.
TEST(Cli, ProfileGemmAccountsForEveryFlopOfTheSweep) {
  TempDir dir;
  make_inputs(dir);
  auto r = run_cli(dir, "apply h.h5 psi.h5 -o out.h5 --chi 6 --seed 5 --json --profile-gemm");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto number_after = [](const std::string& text, std::size_t from, const std::string& key) {
    const std::size_t pos = text.find("\"" + key + "\": ", from);
    return pos == std::string::npos ? -1.0 : std::stod(text.substr(pos + key.size() + 4));
  };
  const std::size_t list = r.out.find("\"gemm_profile\": [");
  ASSERT_NE(list, std::string::npos) << r.out;
  double profiled = 0;
  for (std::size_t at = r.out.find("\"gflop\": ", list); at != std::string::npos;
       at = r.out.find("\"gflop\": ", at + 1))
    profiled += number_after(r.out, at, "gflop");
  const double total = number_after(r.out, 0, "gflop");
  ASSERT_GT(total, 0);
  EXPECT_NEAR(profiled, total, 1e-9 * total);
  r = run_cli(dir, "apply h.h5 psi.h5 -o out.h5 --chi 6 --seed 5 --force --profile-gemm");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("GEMM profile"), std::string::npos) << r.err;
  r = run_cli(dir, "apply h.h5 psi.h5 -o out.h5 --chi 6 --seed 5 --force --json");
  EXPECT_EQ(r.out.find("gemm_profile"), std::string::npos) << r.out;
}

// A single-precision working type that came from the inputs is said once; asked for, it is not.
TEST(Cli, SinglePrecisionFromTheInputsIsNoted) {
  TempDir dir;
  ASSERT_EQ(run_cli(dir, "generate random-mps -o s.h5 --sites 6 --bond 4 --dtype float32 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "generate random-mpo -o h.h5 --sites 6 --bond 2 --dtype float32 -q").code, 0);
  auto r = run_cli(dir, "apply h.h5 s.h5 -o a.h5 --chi 4 --seed 1");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("working in float32 (single precision, rounding near 1e-7) because every input is; "
                       "--dtype float64 computes in double precision"),
            std::string::npos)
      << r.err;
  r = run_cli(dir, "apply h.h5 s.h5 -o b.h5 --chi 4 --seed 1 --dtype float32");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err.find("single precision"), std::string::npos) << r.err;
}

// Each subcommand's help lists every flag it takes; a common flag given to a subcommand that
// has no use for it is named in a warning; -q leaves a run's summary out, not a query's answer.
TEST(Cli, SubcommandHelpListsItsFlagsAndUnusedFlagsAreNamed) {
  TempDir dir;
  auto r = run_cli(dir, "apply --help");
  for (const char* flag : {"--chi", "--cutoff", "--oversample", "--tol", "--seed", "--dtype", "--host-memory", "--device",
                           "--max-time", "--json", "--quiet"})
    EXPECT_NE(r.out.find(flag), std::string::npos) << flag << " missing from apply --help";
  r = run_cli(dir, "distance --help");
  EXPECT_NE(r.out.find("--host-memory"), std::string::npos);
  EXPECT_EQ(r.out.find("--chi"), std::string::npos) << "distance takes no --chi";
  make_inputs(dir);
  ASSERT_EQ(run_cli(dir, "apply h.h5 psi.h5 -o out.h5 --chi 4 --seed 1 -q").code, 0);
  r = run_cli(dir, "distance out.h5 out.h5 --chi 4 --seed 3");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("--chi has no effect on distance"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--seed has no effect on distance"), std::string::npos) << r.err;
  r = run_cli(dir, "apply h.h5 psi.h5 -o q.h5 --chi 4 --seed 1 -q");
  EXPECT_EQ(r.code, 0);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;
  r = run_cli(dir, "distance out.h5 q.h5 -q");
  EXPECT_NE(r.out.find("‖A − B‖/‖B‖ = "), std::string::npos) << r.out;
}

// A rank-deficient product (H² of the Ising chain at --chi 9: rank 5 in the bulk) keeps its
// numerical rank by default, equal to the dense H·H; an explicit --cutoff 0 keeps the bond the
// sketch had, with directions of rounding noise.
TEST(Cli, NumericallyZeroDirectionsAreDroppedUnlessCutoffIsZero) {
  TempDir dir;
  ASSERT_EQ(run_cli(dir, "generate ising -o h.h5 --sites 8 --J 1 --h 0.5 -q").code, 0);
  auto r = run_cli(dir, "apply h.h5 h.h5 -o h2.h5 --chi 9 --seed 1 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"bonds\": [3, 5, 5, 5, 5, 5, 3]"), std::string::npos) << r.out;
  r = run_cli(dir, "apply h.h5 h.h5 -o noise.h5 --chi 9 --seed 1 --cutoff 0 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"bonds\": [4, 9, 9, 9, 9, 9, 4]"), std::string::npos) << r.out;
  const auto h = dense_train(read_cores(dir / "h.h5", "/H"));
  const auto want = dense_product({h, h}).v, got = dense_train(read_cores(dir / "h2.h5", "/result")).v;
  EXPECT_LT(relative_error(got, want), 1e-13);
  // In single precision too, to its rounding.
  ASSERT_EQ(run_cli(dir, "generate ising -o hf.h5 --sites 8 --J 1 --h 0.5 --dtype float32 -q").code, 0);
  r = run_cli(dir, "apply hf.h5 hf.h5 -o h2f.h5 --chi 9 --seed 1 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"bonds\": [3, 5, 5, 5, 5, 5, 3]"), std::string::npos) << r.out;
  EXPECT_LT(relative_error(dense_train(read_cores(dir / "h2f.h5", "/result")).v, want), 1e-5);
}

TEST(Cli, ConfigFileSetsFlags) {
  TempDir dir;
  make_inputs(dir);
  const auto r = run_cli(dir, "--config '" + source_dir() + "/configs/quick.conf' apply h.h5 psi.h5 -o out.h5 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"seed\": 2026"), std::string::npos) << r.out;
}

TEST(Cli, EveryBundledConfigFileIsAccepted) {
  TempDir dir;
  make_inputs(dir);
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(source_dir() + "/configs")) {
    if (entry.path().extension() != ".conf") continue;
    const auto r = run_cli(dir, "--config '" + entry.path().string() +
                                    "' apply h.h5 psi.h5 -o out.h5 --chi 8 --task-id 1 --dry-run --json");
    EXPECT_EQ(r.code, 0) << entry.path() << ": " << r.err;
    EXPECT_NE(r.out.find("\"site_plans\""), std::string::npos) << entry.path();
    ++checked;
  }
  EXPECT_GE(checked, 5);
}

TEST(Cli, FailureLeavesNoPartialOutput) {
  TempDir dir;
  auto p = random_train<cdouble>(TrainKind::kMps, 6, 3, 2, 3);
  p[5].data[1] = cdouble(INFINITY, 0);
  write_raw_train(dir / "bad.h5", stored_train(p, true, "lrp", true, "/psi"));
  expect_clean_failure(run_cli(dir, "compress bad.h5 -o out.h5 --chi 4"), 3,
                       "bad.h5:/psi/5: non-finite value", dir);
}

TEST(Cli, SigtermStopsCleanly) {
  TempDir dir;
  make_large_inputs(dir);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    if (chdir(dir.path().c_str()) != 0) _exit(99);
    freopen("/dev/null", "w", stderr);
    execl(binary().c_str(), "src-compress", "apply", "big_h.h5", "big_psi.h5", "-o", "out.h5", "--chi",
          "256", "--threads", "1", static_cast<char*>(nullptr));
    _exit(98);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  kill(pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the run finished before the signal: make it larger";
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  EXPECT_FALSE(std::filesystem::exists(dir / "out.h5"));
  EXPECT_EQ(temp_files(dir), 0);
}


TEST(Cli, TransferLogHasARowForEveryMove) {
  TempDir dir;
  make_inputs(dir);  // h: complex128 "lrud"; psi: complex128 "lpr" (needs permutations)
  ASSERT_EQ(run_cli(dir, "apply h.h5 psi.h5 -o out.h5 --chi 12 --seed 3").code, 0);
  const auto rows = read_transfers(dir / "out.h5");
  std::map<std::string, int> count;
  std::map<std::string, long long> bytes;
  std::map<std::pair<std::string, long long>, long long> read_bytes;  // (what, site) → bytes
  for (const auto& r : rows) {
    ++count[r.what + "/" + r.mechanism];
    bytes[r.mechanism] += r.bytes;
    if (r.mechanism == "file read") read_bytes[{r.what, r.site}] = r.bytes;
  }
  // Sites are read lazily, once per sweep (the read-ahead saves the second read of the last
  // site): every input site appears, each read moves exactly that dataset.
  const long long h_site = 16LL * 3 * 3 * 4, h_edge = 16LL * 3 * 4;
  const long long p_site = 16LL * 4 * 4 * 2, p_edge = 16LL * 4 * 2;
  for (long long j = 0; j < 8; ++j) {
    const bool edge = j == 0 || j == 7;
    const auto h_key = std::make_pair(std::string("mpo site"), j);
    const auto p_key = std::make_pair(std::string("mps site"), j);
    EXPECT_EQ(read_bytes[h_key], edge ? h_edge : h_site) << "site " << j;
    EXPECT_EQ(read_bytes[p_key], edge ? p_edge : p_site) << "site " << j;
  }
  EXPECT_GE(count["mpo site/file read"], 8);
  EXPECT_LE(count["mpo site/file read"], 16);
  // Every read is followed by what happened to the data: used in place, or converted. (Reads
  // ahead run on another thread, so other rows may come in between.)
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].mechanism != "file read") continue;
    std::size_t k = i + 1;
    while (k < rows.size() && !(rows[k].what == rows[i].what && rows[k].site == rows[i].site)) ++k;
    ASSERT_LT(k, rows.size()) << "no conversion row after read " << i;
    EXPECT_TRUE(rows[k].mechanism == "stays in place" || rows[k].mechanism == "host copy")
        << rows[k].mechanism;
    // ψ is stored (l, p, r): only its last site, (l, p), is a reshape of (l, r, p).
    if (rows[i].what == "mps site") {
      EXPECT_EQ(rows[k].mechanism, rows[i].site == 7 ? "stays in place" : "host copy");
    } else {
      EXPECT_EQ(rows[k].mechanism, "stays in place");
    }
  }
  EXPECT_EQ(count["result site/file write"], 8);
  EXPECT_GT(bytes["file write"], 0);
}

TEST(Cli, TruncateAndDistanceGiveTheOptimalReference) {
  TempDir dir;
  make_inputs(dir);
  ASSERT_EQ(run_cli(dir, "apply h.h5 psi.h5 -o exact.h5 --chi 12 --seed 1 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "truncate exact.h5 -o t4.h5 --chi 4 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "apply h.h5 psi.h5 -o s4.h5 --chi 4 --oversample --seed 1 -q").code, 0);
  const auto parse = [](const std::string& json) {
    const auto pos = json.find("\"relative_distance\": ");
    return pos == std::string::npos ? -1.0 : std::stod(json.substr(pos + 21));
  };
  auto r = run_cli(dir, "distance t4.h5 exact.h5 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const double optimal = parse(r.out);
  const double oversampled = parse(run_cli(dir, "distance s4.h5 exact.h5 --json").out);
  EXPECT_GT(optimal, 1e-6);
  EXPECT_GE(oversampled, optimal * (1 - 1e-9));
  EXPECT_LT(oversampled, 2 * optimal);
  EXPECT_LT(parse(run_cli(dir, "distance exact.h5 exact.h5 --json").out), 1e-13);
  // The truncation's own error report is the true distance.
  r = run_cli(dir, "truncate exact.h5 -o t4b.h5 --chi 4 --json");
  const auto pos = r.out.find("\"error_estimate\": ");
  ASSERT_NE(pos, std::string::npos);
  EXPECT_NEAR(std::stod(r.out.substr(pos + 18)), optimal, 1e-9);
  r = run_cli(dir, "distance t4.h5 h.h5");  // an MPS against an MPO: legs differ
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.err.find("physical legs differ"), std::string::npos) << r.err;
}

TEST(Cli, GenerateAndInspect) {
  TempDir dir;
  ASSERT_EQ(run_cli(dir, "generate ising -o h.h5 --sites 6").code, 0);
  ASSERT_EQ(run_cli(dir, "generate random-mps -o p.h5:/state --sites 6 --bond 5 --dtype complex64 --seed 4").code, 0);
  auto r = run_cli(dir, "inspect p.h5 --json");
  ASSERT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("\"group\": \"/state\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"bonds\": [5, 5, 5, 5, 5]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"dtype\": \"complex64\""), std::string::npos) << r.out;
  r = run_cli(dir, "inspect h.h5");
  EXPECT_NE(r.out.find("/H  MPO  length 6"), std::string::npos) << r.out;
  EXPECT_EQ(run_cli(dir, "generate ising -o h.h5 --sites 6").code, 4);
  EXPECT_EQ(run_cli(dir, "generate ising -o h2.h5 --sites 1").code, 2);
}

// `-o FILE.h5:/group` adds to the file: an operator and a state in one file, two commands,
// then a product read from it; the same group again needs --force and replaces that group only.
// inspect FILE:/group shows that train; a result's /log says how it was made; a train whose
// bonds do not chain (here: legs stored in another order, no layout attribute) is warned about.
TEST(Cli, InspectShowsOneTrainTheProvenanceAndBondsThatDoNotChain) {
  TempDir dir;
  make_inputs(dir);
  ASSERT_EQ(run_cli(dir, "apply h.h5 psi.h5 -o out.h5 --chi 4 --seed 7 --oversample -q").code, 0);
  auto r = run_cli(dir, "inspect out.h5");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("/log  apply by src-compress"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("mode oversampled, chi 4, cutoff 0, tol 0, oversample 1.5, seed 7"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("command: "), std::string::npos) << r.out;
  ASSERT_EQ(run_cli(dir, "generate ising -o two.h5:/H --sites 8 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "generate random-mps -o two.h5:/psi --sites 8 --bond 2 -q").code, 0);
  r = run_cli(dir, "inspect two.h5:/psi");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("/psi  MPS"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("/H"), std::string::npos) << r.out;
  EXPECT_EQ(run_cli(dir, "inspect two.h5:/nope").code, 3);
  auto t = stored_train(random_train<cdouble>(TrainKind::kMpo, 6, 3, 2, 5), false, "ludr", false, "/W");
  t.layout.reset();
  write_raw_train(dir / "w.h5", t);
  r = run_cli(dir, "inspect w.h5 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"warning\": \"w.h5:/W/"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("give it one (e.g. layout = \\\"ludr\\\")"), std::string::npos) << r.out;
}

TEST(Cli, GenerateAddsGroupsToOneFile) {
  TempDir dir;
  ASSERT_EQ(run_cli(dir, "generate ising -o in.h5:/H --sites 6").code, 0);
  ASSERT_EQ(run_cli(dir, "generate random-mps -o in.h5:/psi --sites 6 --bond 3 --seed 1").code, 0);
  auto r = run_cli(dir, "inspect in.h5");
  EXPECT_NE(r.out.find("/H  MPO  length 6"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("/psi  MPS  length 6"), std::string::npos) << r.out;
  ASSERT_EQ(run_cli(dir, "-q apply in.h5:/H in.h5:/psi -o out.h5 --chi 9 --seed 1").code, 0);

  const std::string before = slurp(dir / "in.h5");
  r = run_cli(dir, "generate random-mps -o in.h5:/psi --sites 6 --bond 2 --seed 1");
  EXPECT_EQ(r.code, 4);
  EXPECT_NE(r.err.find("in.h5:/psi exists (use --force"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(dir / "in.h5"), before);
  ASSERT_EQ(run_cli(dir, "generate random-mps -o in.h5:/psi --sites 6 --bond 2 --seed 1 --force").code, 0);
  r = run_cli(dir, "inspect in.h5");
  EXPECT_NE(r.out.find("/H  MPO  length 6"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("bonds [2, 2, 2, 2, 2]"), std::string::npos) << r.out;
  EXPECT_EQ(temp_files(dir), 0);
  { std::ofstream(dir / "notes.h5") << "text"; }
  r = run_cli(dir, "generate ising -o notes.h5:/H --sites 4");  // an output it cannot add to
  EXPECT_EQ(r.code, 4);
  EXPECT_NE(r.err.find("notes.h5: HDF5 cannot open it for writing"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(dir / "notes.h5"), "text");
}


TEST(CliDevice, GpuWithoutADeviceIsABackendError) {
  std::string why;
  if (cuda_device_count(why) > 0) GTEST_SKIP() << "a GPU is present";
  TempDir dir;
  make_inputs(dir);
  expect_clean_failure(run_cli(dir, "apply h.h5 psi.h5 -o out.h5 --chi 4 --device gpu"), 6,
                       "--device cpu", dir);
  EXPECT_EQ(run_cli(dir, "apply h.h5 psi.h5 -o out.h5 --chi 4 --device tpu").code, 2);
  // A plan for a GPU run can be made without the GPU when its budget is given.
  const Result r = run_cli(dir, "apply h.h5 psi.h5 -o out.h5 --chi 4 --device gpu:0 --gpu-memory 8GiB --dry-run");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("on gpu:0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("device 8.00 GiB"), std::string::npos) << r.out;
  EXPECT_EQ(run_cli(dir, "apply h.h5 psi.h5 -o out.h5 --chi 4 --device gpu:0 --dry-run").code, 6);
  // The measurements compute where the products do: without a device, the same error.
  expect_clean_failure(run_cli(dir, "distance psi.h5 psi.h5 --device gpu"), 6, "--device cpu", dir);
  expect_clean_failure(run_cli(dir, "expect psi.h5 h.h5 --device gpu"), 6, "--device cpu", dir);
}

// expect and distance take the execution flags as apply does (no "has no effect" warning), and
// give the same numbers with one thread or two, under a host budget, on the CPU named.
TEST(CliMeasure, ExpectAndDistanceTakeThreadsBudgetsAndDevice) {
  TempDir dir;
  make_inputs(dir);
  ASSERT_EQ(run_cli(dir, "apply h.h5 psi.h5 -o res.h5 --chi 4 --seed 1 -q").code, 0);
  std::vector<double> distances, values;
  for (const std::string flags : {"--threads 1", "--threads 2 --host-memory 1GiB --device cpu --scratch-dir ."}) {
    Result r = run_cli(dir, "distance res.h5 psi.h5 --json " + flags);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err.find("has no effect"), std::string::npos) << r.err;
    distances.push_back(json_number(r.out, "relative_distance"));
    r = run_cli(dir, "expect psi.h5 h.h5 --variance --json " + flags);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err.find("has no effect"), std::string::npos) << r.err;
    values.push_back(json_number(r.out, "variance"));
  }
  EXPECT_GT(distances[0], 0);
  EXPECT_NEAR(distances[0], distances[1], 1e-12 * distances[0]);
  EXPECT_NEAR(values[0], values[1], 1e-12 * std::abs(values[0]));
  // A budget too small for two sites of each train is refused before reading them.
  expect_clean_failure(run_cli(dir, "distance res.h5 psi.h5 --host-memory 1KiB"), 5, "--host-memory", dir);
}

// With a GPU: the CLI run on the device equals the CPU run, its device moves are logged with
// the device's own times and names, and the summary holds the device memory peak.
TEST(CliDevice, GpuRunMatchesTheCpuAndLogsTimedDeviceMoves) {
  std::string why;
  if (cuda_device_count(why) == 0) GTEST_SKIP() << "no GPU: " << why;
  TempDir dir;
  make_inputs(dir);
  ASSERT_EQ(run_cli(dir, "apply h.h5 psi.h5 -o cpu.h5 --chi 6 --seed 3").code, 0);
  const Result r = run_cli(dir, "apply h.h5 psi.h5 -o gpu.h5 --chi 6 --seed 3 --device gpu --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"device_peak_bytes\""), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\"device_peak_bytes\": 0"), std::string::npos) << r.out;
  const Result d = run_cli(dir, "distance gpu.h5 cpu.h5 --json");
  ASSERT_EQ(d.code, 0) << d.err;
  const auto at = d.out.find("\"relative_distance\"");
  ASSERT_NE(at, std::string::npos) << d.out;
  EXPECT_LT(std::stod(d.out.substr(d.out.find(':', at) + 1)), 1e-10) << d.out;
  int up = 0, down = 0;
  for (const auto& row : read_transfers(dir / "gpu.h5")) {
    if (row.mechanism != "device move") continue;
    EXPECT_GE(row.seconds, 0.0);
    EXPECT_LT(row.seconds, 60.0);
    if (row.source == "host" && row.target == "cuda:0") ++up;
    if (row.source == "cuda:0" && row.target == "host") ++down;
  }
  EXPECT_GT(up, 0);
  EXPECT_GT(down, 0);
}

}  // namespace
}  // namespace srcc::test
