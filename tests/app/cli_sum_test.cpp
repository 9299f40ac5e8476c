// apply --term: sums of weighted products from the command line and from a config file, checked
// with `distance` against references whose value is known exactly (a sum that cancels to one
// product, complex weights adding to 1), the optimal truncation of the exact sum, its record in
// /log, and bad terms refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "../support/cli_runner.hpp"
#include "../support/h5_read.hpp"

namespace srcc::test {
namespace {

void make_terms(TempDir& dir) {
  ASSERT_EQ(run_cli(dir, "generate random-mpo -o in.h5:/a --sites 10 --bond 3 --seed 1 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "generate random-mpo -o in.h5:/b --sites 10 --bond 2 --seed 2 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "generate random-mps -o in.h5:/p --sites 10 --bond 4 --seed 3 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "generate random-mps -o in.h5:/q --sites 10 --bond 5 --seed 4 -q").code, 0);
  // The exact product A·p (its bond 12 holds it).
  ASSERT_EQ(run_cli(dir, "apply in.h5:/a in.h5:/p -o ap.h5 --chi 12 --seed 1 -q").code, 0);
}

TEST(CliSum, WeightsAddAsNumbers) {
  TempDir dir;
  make_terms(dir);
  // A p + B A q − B A q = A p: the cancelling terms must go exactly.
  auto r = run_cli(dir, "apply --term 1 in.h5:/a in.h5:/p --term 0.5 in.h5:/b in.h5:/a in.h5:/q "
                        "--term -0.5 in.h5:/b in.h5:/a in.h5:/q -o cancel.h5 --chi 40 --seed 2");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("sum of 3 terms"), std::string::npos) << r.out;
  EXPECT_LT(relative_distance(dir, "cancel.h5", "ap.h5"), 1e-12);
  // 0.5i p + (0.5 + 0.5i) p + (0.5 − i) p = p, worked in complex arithmetic.
  r = run_cli(dir, "apply --term 0.5i in.h5:/p --term '(0.5,0.5)' in.h5:/p --term 0.5-1j in.h5:/p "
                   "-o complex.h5 --chi 12 --seed 3 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"dtype\": \"complex128\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"terms\": 3"), std::string::npos) << r.out;
  EXPECT_LT(relative_distance(dir, "complex.h5", "in.h5:/p"), 1e-12);
  // /log names every term with its weight.
  const std::string terms = read_string_attr(dir / "complex.h5", "/log", "terms");
  EXPECT_EQ(std::count(terms.begin(), terms.end(), '{'), 3) << terms;
  EXPECT_NE(terms.find("\"weight\": [0.5, 0.5]"), std::string::npos) << terms;
  EXPECT_NE(terms.find("in.h5:/p"), std::string::npos) << terms;
}

TEST(CliSum, CompressedSumIsNearItsOptimumAndReadsFromAConfigFile) {
  TempDir dir;
  make_terms(dir);
  const std::string sum = "--term 0.7 in.h5:/a in.h5:/p --term -1.2 in.h5:/b in.h5:/a in.h5:/q --term 2 in.h5:/q";
  // Bonds 12 + 30 + 5 (at most 32 in the middle) hold the sum exactly.
  ASSERT_EQ(run_cli(dir, "apply " + sum + " -o exact.h5 --chi 47 --seed 1 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "truncate exact.h5 -o opt.h5 --chi 10 -q").code, 0);
  const double optimal = relative_distance(dir, "opt.h5", "exact.h5");
  ASSERT_GT(optimal, 1e-8);
  auto r = run_cli(dir, "apply " + sum + " -o over.h5 --chi 10 --oversample --seed 5 -q");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_LE(relative_distance(dir, "over.h5", "exact.h5"), 1.1 * optimal);
  // sdc and sdcr reduce the terms' left steps together.
  for (const std::string m : {"sdc", "sdcr"}) {
    r = run_cli(dir, "apply " + sum + " -o " + m + ".h5 --chi 10 --method " + m + " --seed 5 -q");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_LE(relative_distance(dir, m + ".h5", "exact.h5"), 3 * optimal) << m;
    EXPECT_EQ(read_string_attr(dir / (m + ".h5"), "/log", "method"), m);
  }
  // The same terms from a config file, one line each: the same result.
  std::ofstream(dir / "sum.ini") << "chi = 10\noversample = 2\nseed = 5\n[apply]\n"
                                 << "term = \"0.7 in.h5:/a in.h5:/p\"\n"
                                 << "term = \"-1.2 in.h5:/b in.h5:/a in.h5:/q\"\n"
                                 << "term = \"2 in.h5:/q\"\n";
  r = run_cli(dir, "--config sum.ini apply -o config.h5 -q");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_LT(relative_distance(dir, "config.h5", "over.h5"), 1e-14);
  EXPECT_EQ(std::count_if(r.err.begin(), r.err.end(), [](char c) { return c == '\n'; }), 0) << r.err;
}

TEST(CliSum, BadTermsAreRefusedWithNothingWritten) {
  TempDir dir;
  make_terms(dir);
  ASSERT_EQ(run_cli(dir, "generate random-mps -o short.h5 --sites 8 --bond 2 --seed 1 -q").code, 0);
  for (const auto& [args, code, message] : std::vector<std::tuple<std::string, int, std::string>>{
           {"--term abc in.h5:/p", 2, "--term abc"},
           {"--term 0.5", 2, "no trains"},
           {"--term 1 in.h5:/p --term 1 short.h5", 3, "term 2"},
           {"--term 1 in.h5:/p --term 1 in.h5:/a", 3, "term 2"},
           {"in.h5:/a in.h5:/p --term 1 in.h5:/q", 2, "not both"},
           {"--term 1i in.h5:/p --dtype float64", 2, "--term 1i"},
           // Each term is planned for its share: the message names the term and the share.
           {"--term 1 in.h5:/a in.h5:/p --term 1 in.h5:/q --host-memory 20MB", 5, "term 1 of 2, planned for 1/2 of the budgets"}}) {
    const auto r = run_cli(dir, "apply " + args + " -o out.h5 --chi 4 --seed 1");
    expect_clean_failure(r, code, message, dir);
  }
}

// --dry-run --ranks N plans a job for N MPI ranks from a plain process (a login shell): which
// rank sweeps which terms (term k on rank (k−1) mod N) or which of one product's sketch columns
// (contiguous shares, the first ranks one more), in text and in --json; runs that rank 0
// computes alone say why; --ranks without --dry-run is refused. tests/mpi/ranks_test.sh checks
// that the plan is the one a dry run under mpirun prints.
TEST(CliSum, ADryRunPlansMpiRanksFromAPlainProcess) {
  TempDir dir;
  make_terms(dir);
  const std::string sum = "apply --term 1 in.h5:/a in.h5:/p --term 2 in.h5:/p --term 1 in.h5:/b in.h5:/q "
                          "--term 3 in.h5:/q --term 1 in.h5:/a in.h5:/q -o dry.h5 --chi 20 --dry-run -q";
  auto r = run_cli(dir, sum + " --ranks 3");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* line : {"over 3 ranks (term k on rank (k-1) mod 3)", "rank 0: term(s) 1, 4,", "rank 1: term(s) 2, 5,",
                           "rank 2: term(s) 3,", "exchanged: about"})
    EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;
  r = run_cli(dir, sum + " --ranks 8");
  EXPECT_NE(r.out.find("ranks 5-7 have no term and wait"), std::string::npos) << r.out;
  r = run_cli(dir, sum + " --ranks 3 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"rank_plan\": {\"ranks\": 3, \"loads\": [{\"rank\": 0, \"terms\": [1, 4]"), std::string::npos) << r.out;
  EXPECT_GT(json_number(r.out, "exchanged_bytes"), 0.0) << r.out;

  const std::string product = "apply in.h5:/a in.h5:/p -o dry.h5 --chi 10 --dry-run -q";
  r = run_cli(dir, product + " --ranks 3");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* line : {"rank 0: columns 0-3,", "rank 1: columns 4-6,", "rank 2: columns 7-9,"})
    EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;
  r = run_cli(dir, product + " --ranks 3 --json");
  EXPECT_NE(r.out.find("{\"rank\": 2, \"first_column\": 7, \"columns\": 3"), std::string::npos) << r.out;
  r = run_cli(dir, product + " --ranks 3 --method sdc");
  EXPECT_NE(r.out.find("over 3 ranks: sdc's left sweep reduces all of a product's rows at once"), std::string::npos) << r.out;
  // A sum by sdc or sdcr deals its terms as src does; the ranks also meet at each cut of the left
  // sweep, so more bytes are exchanged.
  const double src_bytes = json_number(run_cli(dir, sum + " --ranks 3 --json").out, "exchanged_bytes");
  for (const char* method : {"sdc", "sdcr"}) {
    r = run_cli(dir, sum + " --ranks 3 --method " + method);
    EXPECT_NE(r.out.find("rank 2: term(s) 3,"), std::string::npos) << method << "\n" << r.out;
    r = run_cli(dir, sum + " --ranks 3 --json --method " + method);
    EXPECT_GT(json_number(r.out, "exchanged_bytes"), src_bytes) << method << "\n" << r.out;
  }
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "dry.h5"));

  r = run_cli(dir, "apply in.h5:/a in.h5:/p -o out.h5 --chi 20 --ranks 3");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--ranks plans a run: give it with --dry-run"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "out.h5"));
}

}  // namespace
}  // namespace srcc::test
