// Tests that run the built `src-compress` binary (app/): exit codes, --json, --force, config
// files, atomic output, signals, and the transfer log in the written file.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "../support/h5_fixture.hpp"
#include "srcc/backend/device.hpp"
#include "srcc/train/generate.hpp"

namespace srcc::test {
namespace {

// Paths baked in by CMake; the environment may override them.
std::string binary() {
  const char* b = std::getenv("SRCC_BINARY");
  return b ? b : SRCC_BINARY;
}
std::string source_dir() {
  const char* s = std::getenv("SRCC_SOURCE_DIR");
  return s ? s : SRCC_SOURCE_DIR;
}

struct Result {
  int code;
  std::string out, err;
};

std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

Result run_cli(const TempDir& dir, const std::string& args) {
  const auto out = dir / "stdout.txt", err = dir / "stderr.txt";
  const std::string cmd = "cd '" + dir.path().string() + "' && '" + binary() + "' " + args +
                          " >'" + out.string() + "' 2>'" + err.string() + "'";
  const int status = std::system(cmd.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
}

// Files in `dir` whose names contain ".tmp-": leftovers of an unfinished write.
int temp_files(const TempDir& dir) {
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path()))
    if (e.path().filename().string().find(".tmp-") != std::string::npos) ++n;
  return n;
}

// A run that failed as it should: its exit code and message, and nothing left behind (no
// out.h5, no temporary file).
void expect_clean_failure(const Result& r, int code, const std::string& message,
                          const TempDir& dir) {
  EXPECT_EQ(r.code, code) << r.err;
  EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "out.h5"));
  EXPECT_EQ(temp_files(dir), 0);
}

// Inputs for a run that takes seconds on two cores (for signals and time limits).
void make_large_inputs(const TempDir& dir) {
  ASSERT_EQ(run_cli(dir, "generate random-mps -o big_psi.h5 --sites 400 --bond 96 --seed 1 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "generate random-mpo -o big_h.h5 --sites 400 --bond 8 --seed 2 -q").code, 0);
}

void make_inputs(const TempDir& dir, std::size_t n = 8) {
  const auto h = random_train<cdouble>(TrainKind::kMpo, n, 3, 2, 1);
  const auto p = random_train<cdouble>(TrainKind::kMps, n, 4, 2, 2);
  write_raw_train(dir / "h.h5", stored_train(h, false, "lrud", true, "/H"));
  write_raw_train(dir / "psi.h5", stored_train(p, true, "lpr", true, "/psi"));
}

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
  EXPECT_GE(checked, 4);
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
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130) << "the run finished before the signal: make it larger";
  EXPECT_FALSE(std::filesystem::exists(dir / "out.h5"));
  EXPECT_EQ(temp_files(dir), 0);
}

// Reads the named fields of /log/transfers.
struct Row {
  std::string what, mechanism;
  long long site, bytes;
};
std::vector<Row> read_transfers(const std::filesystem::path& file) {
  hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t d = H5Dopen2(f, "/log/transfers", H5P_DEFAULT);
  hid_t space = H5Dget_space(d);
  const auto n = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space));
  struct Raw {
    char* what;
    char* mechanism;
    long long site, bytes;
  };
  hid_t str = H5Tcopy(H5T_C_S1);
  H5Tset_size(str, H5T_VARIABLE);
  H5Tset_cset(str, H5T_CSET_UTF8);
  hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(Raw));
  H5Tinsert(t, "what", offsetof(Raw, what), str);
  H5Tinsert(t, "mechanism", offsetof(Raw, mechanism), str);
  H5Tinsert(t, "site", offsetof(Raw, site), H5T_NATIVE_LLONG);
  H5Tinsert(t, "bytes", offsetof(Raw, bytes), H5T_NATIVE_LLONG);
  std::vector<Raw> raw(n);
  H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, raw.data());
  std::vector<Row> rows;
  for (auto& r : raw) rows.push_back({r.what, r.mechanism, r.site, r.bytes});
  H5Dvlen_reclaim(t, space, H5P_DEFAULT, raw.data());
  H5Tclose(t);
  H5Tclose(str);
  H5Sclose(space);
  H5Dclose(d);
  H5Fclose(f);
  return rows;
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

}  // namespace
}  // namespace srcc::test

namespace srcc::test {
namespace {

// Runs the binary in a child and returns its exit code and peak resident size (getrusage).
std::pair<int, long> run_measured(const TempDir& dir, std::vector<std::string> args) {
  const pid_t pid = fork();
  if (pid == 0) {
    if (chdir(dir.path().c_str()) != 0) _exit(99);
    freopen("/dev/null", "w", stdout);
    freopen("/dev/null", "w", stderr);
    std::vector<char*> argv;
    const std::string bin = binary();
    argv.push_back(const_cast<char*>(bin.c_str()));
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(bin.c_str(), argv.data());
    _exit(98);
  }
  int status = 0;
  rusage ru{};
  wait4(pid, &status, 0, &ru);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, ru.ru_maxrss * 1024L};
}

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
  EXPECT_LE(rss, 56'000'000L + 8'000'000L) << "unconstrained run: " << free_rss;
  EXPECT_LT(rss, free_rss);
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

}  // namespace
}  // namespace srcc::test

namespace srcc::test {
namespace {

TEST(CliBatch, SkipExistingLeavesCompleteOutputsAndReplacesIncompleteOnes) {
  TempDir dir;
  make_inputs(dir);
  ASSERT_EQ(run_cli(dir, "apply h.h5 psi.h5 -o out.h5 --chi 6 --seed 1 -q").code, 0);
  const auto before = slurp(dir / "out.h5");
  auto r = run_cli(dir, "apply h.h5 psi.h5 -o out.h5 --chi 6 --seed 2 --skip-existing --json");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("\"skipped\": true"), std::string::npos) << r.out;
  EXPECT_EQ(slurp(dir / "out.h5"), before);
  // A file without the completeness mark (here: not an output at all) is redone.
  write_raw_train(dir / "half.h5", stored_train(random_train<cdouble>(TrainKind::kMps, 3, 2, 2, 1),
                                                true, "lrp", true, "/psi"));
  r = run_cli(dir, "apply h.h5 psi.h5 -o half.h5 --chi 6 --seed 2 --skip-existing --json");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.find("skipped"), std::string::npos);
  EXPECT_EQ(run_cli(dir, "collect half.h5").code, 0);
}

TEST(CliBatch, SeedBaseAndTaskIdDeriveTheSeed) {
  TempDir dir;
  make_inputs(dir);
  auto a = run_cli(dir, "apply h.h5 psi.h5 -o a.h5 --chi 6 --seed-base 7 --task-id 1 --json");
  auto b = run_cli(dir, "apply h.h5 psi.h5 -o b.h5 --chi 6 --seed-base 7 --task-id 2 --json");
  auto c = run_cli(dir, "apply h.h5 psi.h5 -o c.h5 --chi 6 --seed-base 7 --task-id 1 --json");
  const auto seed = [](const std::string& out) { return out.substr(out.find("\"seed\": "), 30); };
  EXPECT_NE(seed(a.out), seed(b.out));
  EXPECT_EQ(seed(a.out), seed(c.out));
  EXPECT_EQ(run_cli(dir, "apply h.h5 psi.h5 -o d.h5 --chi 6 --seed-base 7").code, 2);  // no task id
}

TEST(CliBatch, MaxTimeStopsCleanly) {
  TempDir dir;
  make_large_inputs(dir);
  expect_clean_failure(
      run_cli(dir, "apply big_h.h5 big_psi.h5 -o out.h5 --chi 256 --max-time 0.3s"), 130,
      "--max-time 0.3s reached", dir);
}

TEST(CliBatch, CollectTabulatesOutputs) {
  TempDir dir;
  make_inputs(dir);
  ASSERT_EQ(run_cli(dir, "apply h.h5 psi.h5 -o a.h5 --chi 6 --seed 1 -q --threads 1").code, 0);
  ASSERT_EQ(run_cli(dir, "apply h.h5 psi.h5 -o b.h5 --chi 12 --seed 1 -q --threads 1").code, 0);
  ASSERT_EQ(run_cli(dir, "collect a.h5 b.h5 -o table.csv").code, 0);
  const auto csv = slurp(dir / "table.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3);
  EXPECT_NE(csv.find("\"a.h5\",1,MPS,8,6,6 6 6 6 6 4 2,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\"b.h5\",1,MPS,8,12,12 12 12 12 8 4 2,"), std::string::npos) << csv;
  EXPECT_EQ(run_cli(dir, "collect h.h5").code, 3);  // an input, not an output
}

}  // namespace
}  // namespace srcc::test

namespace srcc::test {
namespace {

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
}

}  // namespace
}  // namespace srcc::test
