// Batch-job behaviour through the binary: --skip-existing, --seed-base, --max-time, collect.
#include <gtest/gtest.h>

#include "../support/cli_runner.hpp"
#include "srcc/train/generate.hpp"

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
  // Bond at each cut: min(χ̄, 2^j, 2^(n−j), fused bond 3·4 = 12), the largest each cut can have.
  EXPECT_NE(csv.find("\"a.h5\",1,MPS,8,6,2 4 6 6 6 4 2,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\"b.h5\",1,MPS,8,12,2 4 8 12 8 4 2,"), std::string::npos) << csv;
  EXPECT_EQ(run_cli(dir, "collect h.h5").code, 3);  // an input, not an output
}

}  // namespace
}  // namespace srcc::test
