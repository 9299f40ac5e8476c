// A run's summary as --json prints it (lib/srcc/session/run_summary.cpp): its figures under
// their keys, the rate derived from flops and time, and no gemm_profile unless profiled.
#include "srcc/session/run_summary.hpp"

#include <gtest/gtest.h>

#include "../support/cli_runner.hpp"

namespace srcc::test {
namespace {

TEST(RunSummary, FiguresUnderTheirKeys) {
  RunSummary s;
  s.output = "out.h5";
  s.sites = 4;
  s.bonds = {2, 4, 2};
  s.max_bond = 4;
  s.flops = 3e9;
  s.sweep_seconds = 1.5;
  s.method = "sdc";
  s.terms = 2;
  s.log10_norm = -700;
  const std::string json = s.to_json();
  EXPECT_NE(json.find("\"bonds\": [2, 4, 2]"), std::string::npos) << json;
  EXPECT_NEAR(json_number(json, "gflop"), 3.0, 1e-12);
  EXPECT_NEAR(json_number(json, "gflops_per_second"), 2.0, 1e-12);
  EXPECT_NEAR(json_number(json, "log10_norm"), -700, 0);
  EXPECT_NE(json.find("\"method\": \"sdc\""), std::string::npos) << json;
  EXPECT_EQ(json.find("gemm_profile"), std::string::npos);
}

}  // namespace
}  // namespace srcc::test
