// --method and --fit-sweeps from the command line: the method and each fit sweep recorded in
// /log, distances to the exact product read back with `distance`, bad values refused naming
// the flag.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "../support/cli_runner.hpp"
#include "../support/h5_read.hpp"

namespace srcc::test {
namespace {

// ‖a − b‖ / ‖b‖ from `distance --json`.
double relative_distance(TempDir& dir, const std::string& a, const std::string& b) {
  const auto r = run_cli(dir, "distance " + a + " " + b + " --json");
  EXPECT_EQ(r.code, 0) << r.err;
  const auto at = r.out.find("\"relative_distance\"");
  return at == std::string::npos ? -1 : std::stod(r.out.substr(r.out.find(':', at) + 1));
}

TEST(CliMethod, MethodsAndFitSweepsAreLoggedAndReachTheOptimum) {
  TempDir dir;
  ASSERT_EQ(run_cli(dir, "generate random-mpo -o in.h5:/mpo --sites 12 --bond 6 --seed 2 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "generate random-mps -o in.h5:/mps --sites 12 --bond 16 --seed 1 -q").code, 0);
  // The exact product (bond 96 holds it) and its optimal truncation to χ̄ = 12.
  ASSERT_EQ(run_cli(dir, "apply in.h5:/mpo in.h5:/mps -o exact.h5 --chi 96 --cutoff 0 --seed 1 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "truncate exact.h5 -o opt.h5 --chi 12 -q").code, 0);
  const double optimal = relative_distance(dir, "opt.h5", "exact.h5");
  ASSERT_GT(optimal, 0);
  for (const std::string m : {"src", "sdc", "sdcr"}) {
    const auto r = run_cli(dir, "apply in.h5:/mpo in.h5:/mps -o " + m + ".h5 --chi 12 --seed 5 --method " + m);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(read_string_attr(dir / (m + ".h5"), "/log", "method"), m);
    EXPECT_NE(r.out.find("method " + m), std::string::npos) << r.out;
    const double d = relative_distance(dir, m + ".h5", "exact.h5");
    EXPECT_GE(d, 0.999 * optimal) << m;
    EXPECT_LE(d, 20 * optimal) << m;
  }
  const auto fit = run_cli(dir, "apply in.h5:/mpo in.h5:/mps -o fit.h5 --chi 12 --seed 5 --fit-sweeps 6 --json");
  ASSERT_EQ(fit.code, 0) << fit.err;
  EXPECT_NE(fit.out.find("\"fit_sweeps\": 6"), std::string::npos) << fit.out;
  const std::string sweeps = read_string_attr(dir / "fit.h5", "/log", "fit_sweeps");
  EXPECT_EQ(std::count(sweeps.begin(), sweeps.end(), '{'), 6) << sweeps;
  EXPECT_LE(relative_distance(dir, "fit.h5", "exact.h5"), 1.05 * optimal);
}

TEST(CliMethod, BadValuesAreRefusedNamingTheFlag) {
  TempDir dir;
  ASSERT_EQ(run_cli(dir, "generate random-mps -o p.h5 --sites 6 --bond 4 --seed 1 -q").code, 0);
  for (const auto& [args, flag] : std::vector<std::pair<std::string, std::string>>{
           {"--method zipup --chi 2", "--method"},
           {"--method sdcr --tol 1e-3", "--method"},
           {"--fit-tol 2 --chi 2", "--fit-tol"},
           {"--fit-sweeps -1 --chi 2", "--fit-sweeps"}}) {
    const auto r = run_cli(dir, "compress p.h5 -o out.h5 " + args);
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_NE(r.err.find(flag), std::string::npos) << args << ": " << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "out.h5")) << args;
  }
}

}  // namespace
}  // namespace srcc::test
