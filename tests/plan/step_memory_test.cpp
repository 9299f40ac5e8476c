// The plan's memory model against what the sweep really holds: a backend that counts every
// buffer the sweep allocates or adopts gives the peak of tensor memory, which must stay within
// the plan's prediction and not fall far below it (a model that grew stale either way fails).
#include <gtest/gtest.h>

#include <cstdio>

#include "srcc/plan/plan.hpp"
#include "../support/counting_backend.hpp"
#include "../support/fake_device.hpp"
#include "../support/stacks.hpp"

namespace srcc {
namespace {

using test::CLayer;

struct Case {
  const char* name;
  std::vector<CLayer> layers;
  SweepOptions options;
  // The least share of the prediction the sweep must reach. A tolerance run is planned for the
  // widest sketch any cut may grow to, at every cut: a tight tolerance reaches about half of
  // that (the cuts near the ends are capped lower), a loose one far less.
  double lowest = 0.5;
};

SweepOptions fixed(std::size_t chi, double oversample = 0) {
  SweepOptions o;
  o.chi = chi;
  o.oversample = oversample;
  o.seed = 3;
  return o;
}
SweepOptions method(Method m, std::size_t chi, std::size_t fit_sweeps = 0) {
  SweepOptions o = fixed(chi);
  o.method = m;
  o.fit_sweeps = fit_sweeps;
  return o;
}
SweepOptions tolerance(double tol) {
  SweepOptions o;
  o.tol = tol;
  o.seed = 3;
  return o;
}

std::vector<Case> cases() {
  using test::real_cores;
  const auto mpo = [](std::size_t bond, std::uint64_t seed) {
    return CLayer{TrainKind::kMpo, real_cores(TrainKind::kMpo, 12, bond, 2, seed)};
  };
  const auto mps = [](std::size_t bond, std::uint64_t seed) {
    return CLayer{TrainKind::kMps, real_cores(TrainKind::kMps, 12, bond, 2, seed)};
  };
  return {
      {"MPO·MPS", {mpo(6, 1), mps(12, 2)}, fixed(24)},
      {"MPO·MPO", {mpo(5, 3), mpo(5, 4)}, fixed(16)},
      {"depth 3", {mpo(3, 5), mpo(4, 6), mps(8, 7)}, fixed(20)},
      {"--oversample", {mpo(6, 1), mps(12, 2)}, fixed(16, 2.0)},
      // The dense left step holds M_j and its reduction whole: bond 64 puts it above the rest.
      // sdc decides these cuts on M's Gram matrix; the plan bounds the path that factors a copy
      // of M instead (a cut whose tail lies near rounding).
      {"--method sdc", {mpo(8, 1), mps(64, 2)}, method(Method::kSdc, 32), 0.4},
      {"--method sdcr", {mpo(8, 1), mps(64, 2)}, method(Method::kSdcr, 32)},
      {"fit sweeps", {mpo(8, 1), mps(64, 2)}, method(Method::kSrc, 32, 2)},
      {"sdc, MPO·MPO", {mpo(6, 3), mpo(12, 4)}, method(Method::kSdc, 24)},
      {"--tol, loose", {mpo(6, 1), mps(12, 2)}, tolerance(1e-3), 0.0},
      {"--tol, tight", {mpo(6, 1), mps(12, 2)}, tolerance(1e-13), 0.4},
  };
}

// The sweep's peak of tensor memory on `device` (wrapped to count), and the plan for it.
template <class T>
std::pair<std::size_t, Plan> measured(const Case& c, std::unique_ptr<Backend> device, bool on_device) {
  const StackData<T> data = test::make_stack<T>(c.layers);
  Budgets b;
  b.host_bytes = b.gpu_bytes = 8ull << 30;
  b.scratch_dir = "/tmp";
  b.scratch_bytes = 1ull << 40;
  const Plan plan = make_plan(data.stack, c.options, dtype_of<T>, 1, b, on_device);
  auto tally = std::make_shared<test::MemoryTally>();
  test::CountingBackend counting(std::move(device), tally);
  TransferLog log;
  SilentReporter reporter;
  run_sweep(data, c.options, counting, log, reporter, [] {}, &plan);
  EXPECT_EQ(tally->live.load(), 0) << c.name << ": buffers outlived the sweep";
  return {static_cast<std::size_t>(tally->peak.load()), plan};
}

void check(const char* where, const Case& c, std::size_t peak, const Plan& plan) {
  std::printf("%s %-14s measured %8zu B, predicted %8zu B (%.2f)\n", where, c.name, peak, plan.peak_bytes,
              static_cast<double>(peak) / static_cast<double>(plan.peak_bytes));
  EXPECT_LE(peak, plan.peak_bytes) << where << " " << c.name << ": the plan predicts less than the sweep holds";
  EXPECT_GE(static_cast<double>(peak), c.lowest * static_cast<double>(plan.peak_bytes))
      << where << " " << c.name << ": the plan predicts more than twice what the sweep holds";
}

TEST(StepMemory, ThePlansPeakBoundsWhatTheSweepHoldsOnTheCpu) {
  for (const auto& c : cases()) {
    const auto [peak, plan] = measured<cdouble>(c, make_cpu_backend(1), false);
    check("cpu", c, peak, plan);
  }
}

TEST(StepMemory, ThePlansPeakBoundsWhatTheSweepHoldsOnADevice) {
  for (const auto& c : cases()) {
    const auto [peak, plan] = measured<cdouble>(c, std::make_unique<test::FakeDevice>(8ull << 30), true);
    check("device", c, peak, plan);
  }
}

}  // namespace
}  // namespace srcc
