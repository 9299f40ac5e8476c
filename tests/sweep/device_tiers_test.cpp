// Device tiers (plan/plan.cpp, movement/env_store.cpp) on any machine: plans for a device budget,
// and sweeps through a stand-in device backend whose environments wait on the device, in host
// memory or on scratch disk — with the same result as the CPU and every move in the log.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <unistd.h>

#include "../support/fake_device.hpp"
#include "../support/stacks.hpp"
#include "srcc/core/error.hpp"
#include "srcc/memory/policy.hpp"

namespace srcc::test {
namespace {

const std::vector<CLayer>& product() {
  static const std::vector<CLayer> layers = {
      {TrainKind::kMpo, real_cores(TrainKind::kMpo, 40, 4, 2, 1)},
      {TrainKind::kMps, real_cores(TrainKind::kMps, 40, 8, 2, 2)}};
  return layers;
}

Budgets budgets(std::uint64_t host, std::uint64_t device) {
  Budgets b;
  b.host_bytes = host;
  b.gpu_bytes = device;
  b.scratch_dir = std::filesystem::temp_directory_path().string();
  b.scratch_bytes = 1ull << 40;
  return b;
}

SweepOptions options() {
  SweepOptions o;
  o.chi = 16;
  o.seed = 9;
  return o;
}

TEST(DeviceTiers, NewestOnTheDeviceThenHostThenScratch) {
  const auto data = make_stack<cdouble>(product());
  const Plan roomy = make_plan(data.stack, options(), DType::kComplex128, 1, budgets(8ull << 30, 8ull << 30), true);
  EXPECT_TRUE(roomy.on_device);
  EXPECT_EQ(roomy.memory_from, 1u);
  const std::size_t env = roomy.site_plans[20].env_bytes;
  // Device room for a handful of environments, host room for about ten more.
  const Plan p = make_plan(data.stack, options(), DType::kComplex128, 1,
                           budgets(memory::kProcessOverheadBytes + roomy.input_bytes + 10 * env,
                                   roomy.peak_bytes - roomy.environment_bytes + 6 * env),
                           true);
  EXPECT_GT(p.memory_from, 1u);
  EXPECT_GT(p.host_tier_bytes, 0u);
  EXPECT_GT(p.scratch_bytes, 0u);
  Tier last = Tier::kScratch;
  for (std::size_t j = 1; j < 40; ++j) {
    const Tier t = p.site_plans[j].env_tier;
    EXPECT_EQ(t, p.tier(j));
    EXPECT_GE(static_cast<int>(last), static_cast<int>(t)) << "tiers must not get colder with j";
    last = t;
    EXPECT_LE(p.site_plans[j].right_peak, p.budgets.gpu_bytes);
  }
  EXPECT_NE(p.to_text().find("in host memory"), std::string::npos);
}

TEST(DeviceTiers, TooSmallADeviceNamesTheFlag) {
  const auto data = make_stack<cdouble>(product());
  try {
    make_plan(data.stack, options(), DType::kComplex128, 1, budgets(8ull << 30, 1000), true);
    ADD_FAILURE() << "no error";
  } catch (const ResourceError& e) {
    EXPECT_NE(std::string(e.what()).find("--gpu-memory allows"), std::string::npos) << e.what();
  }
}

TEST(DeviceTiers, SweepThroughEveryTierMatchesTheCpu) {
  const auto data = make_stack<cdouble>(product());
  const auto cpu_result = sweep(data, options());
  const Plan roomy = make_plan(data.stack, options(), DType::kComplex128, 1, budgets(8ull << 30, 8ull << 30), true);
  const std::size_t env = roomy.site_plans[20].env_bytes;
  Plan plan = make_plan(data.stack, options(), DType::kComplex128, 1,
                        budgets(memory::kProcessOverheadBytes + roomy.input_bytes + 10 * env,
                                roomy.peak_bytes - roomy.environment_bytes + 6 * env),
                        true);
  FakeDevice device(plan.budgets.gpu_bytes);
  TransferLog log;
  SilentReporter reporter;
  MemorySiteSource<cdouble> source(data.sites);
  const auto result = run_sweep(data.stack, source, options(), device, log, reporter, [] {}, &plan);
  // 40 sites: compare as trains (‖a − b‖ by canonical form), not as dense vectors.
  CpuOps<cdouble> ops;
  EXPECT_LT(ops.relative_distance(result.cores, cpu_result.cores), 1e-12);
  std::map<std::string, int> moves;
  for (const auto& r : log.records())
    if (r.what == "environment") ++moves[r.mechanism + ":" + r.source.substr(0, 7) + ">" + r.target.substr(0, 7)];
  EXPECT_GT((moves["device move:fake:0>host"]), 0);   // down to host or on the way to disk
  EXPECT_GT((moves["device move:host>fake:0"]), 0);   // back up in row batches
  EXPECT_GT((moves["file write:host>scratch"]), 0);
  // Environments kept in host memory come back without touching the disk: more uploads than
  // file reads.
  EXPECT_GT((moves["device move:host>fake:0"]), (moves["file read:scratch>host"]));
  EXPECT_GT((moves["file read:scratch>host"]), 0);
}

// A spill fails on the background thread: the sweep stops with that error (not a hang, not a
// crash) and the scratch directory is gone.
TEST(DeviceTiers, AFailedSpillStopsTheSweepAndCleansUp) {
  const auto data = make_stack<cdouble>(product());
  const Plan roomy = make_plan(data.stack, options(), DType::kComplex128, 1, budgets(8ull << 30, 8ull << 30), true);
  const std::size_t env = roomy.site_plans[20].env_bytes;
  Budgets b = budgets(memory::kProcessOverheadBytes + roomy.input_bytes + 2 * env,
                      roomy.peak_bytes - roomy.environment_bytes + 6 * env);
  const auto parent = std::filesystem::temp_directory_path() /
                      ("srcc-spill-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(parent);
  b.scratch_dir = parent.string();
  const Plan plan = make_plan(data.stack, options(), DType::kComplex128, 1, b, true);
  ASSERT_GT(plan.scratch_bytes, 0u);
  FakeDevice device(plan.budgets.gpu_bytes, "fake:0", env / 2);  // environments fail to come down
  TransferLog log;
  SilentReporter reporter;
  MemorySiteSource<cdouble> source(data.sites);
  try {
    run_sweep(data.stack, source, options(), device, log, reporter, [] {}, &plan);
    ADD_FAILURE() << "no error";
  } catch (const BackendError& e) {
    EXPECT_NE(std::string(e.what()).find("fake device: download"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(std::filesystem::is_empty(parent)) << "scratch files left in " << parent;
  std::filesystem::remove_all(parent);
}

// Site forms go to the device ahead of the step that uses them; none is uploaded twice or
// skipped, and every other move (range factors, result cores) is logged as well.
TEST(DeviceMoves, EachSiteUploadedOncePerSweepAndEveryMoveLogged) {
  const auto data = make_stack<cdouble>(product());
  FakeDevice device(0);
  TransferLog log;
  SilentReporter reporter;
  MemorySiteSource<cdouble> source(data.sites);
  const auto result = run_sweep(data.stack, source, options(), device, log, reporter, [] {}, nullptr);
  const std::size_t n = 40, k = 2;
  std::vector<int> uploads(n, 0), results(n, 0);
  int factors = 0;
  for (const auto& r : log.records()) {
    if (r.mechanism != mechanism::kDeviceMove) continue;
    if (r.what == "mpo site" || r.what == "mps site") {
      EXPECT_EQ(r.target, "fake:0");
      ++uploads.at(static_cast<std::size_t>(r.site));
    }
    if (r.what == "result site") ++results.at(static_cast<std::size_t>(r.site));
    if (r.what == "range factor") ++factors;
  }
  for (std::size_t j = 0; j < n; ++j) {
    // Left sweep: sites 0 … n−2; right sweep: every site; each time all k layers.
    EXPECT_EQ(uploads[j], static_cast<int>(j + 1 < n ? 2 * k : k)) << "site " << j;
    EXPECT_EQ(results[j], 1) << "site " << j;
  }
  EXPECT_GT(factors, 0);
  EXPECT_EQ(result.cores.size(), n);
}

TEST(SeveralDevices, ColumnSlicesGiveTheOneDeviceResult) {
  const auto data = make_stack<cdouble>(product());
  CpuOps<cdouble> ops;
  SilentReporter reporter;
  FakeDevice d0(0, "fake:0"), d1(0, "fake:1"), d2(0, "fake:2");
  TransferLog one_log, three_log;
  MemorySiteSource<cdouble> s1(data.sites), s3(data.sites);
  for (bool oversample : {false, true}) {
    SweepOptions o = options();
    o.oversample = oversample ? 1.5 : 0.0;
    const auto one = run_sweep(data.stack, s1, o, d0, one_log, reporter, [] {}, nullptr);
    const auto three =
        run_sweep(data.stack, s3, o, d0, three_log, reporter, [] {}, nullptr, {&d1, &d2});
    EXPECT_LT(ops.relative_distance(three.cores, one.cores), 1e-12);
    EXPECT_NEAR(three.error_estimate, one.error_estimate, 1e-9 * one.error_estimate + 1e-15);
    EXPECT_NEAR(three.flops, one.flops, 0.1 * one.flops);  // same work, split
  }
  std::map<std::string, int> targets;
  for (const auto& r : three_log.records())
    if (r.mechanism == "device move") ++targets[r.target];
  EXPECT_GT(targets["fake:1"], 0);
  EXPECT_GT(targets["fake:2"], 0);
  // Tolerance mode: blocks of columns drawn as the right sweep needs them, each split over
  // the devices; the ranges, bonds and result match one device.
  for (double oversample : {0.0, 1.5}) {
    SweepOptions tol;
    tol.tol = 1e-4;
    tol.block_start = 5;
    tol.block_step = 3;
    tol.oversample = oversample;
    TransferLog l1, l3;
    const auto one = run_sweep(data.stack, s1, tol, d0, l1, reporter, [] {}, nullptr);
    const auto three = run_sweep(data.stack, s3, tol, d0, l3, reporter, [] {}, nullptr, {&d1, &d2});
    ASSERT_EQ(three.cores.size(), one.cores.size());
    std::int64_t widest = 0;
    for (const auto& st : one.sites) widest = std::max(widest, st.sketch_columns);
    EXPECT_GT(widest, 5 + 3) << "several blocks drawn";
    for (std::size_t j = 0; j < one.cores.size(); ++j) {
      EXPECT_EQ(three.cores[j].shape, one.cores[j].shape) << "site " << j;
      EXPECT_EQ(three.sites[j].sketch_columns, one.sites[j].sketch_columns) << "site " << j;
    }
    EXPECT_LT(ops.relative_distance(three.cores, one.cores), 1e-12);
  }
}

}  // namespace
}  // namespace srcc::test
