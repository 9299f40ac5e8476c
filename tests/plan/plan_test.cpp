// Tests of the planner (lib/srcc/plan/plan.cpp): tiers, batches, peaks and infeasible budgets.
#include "srcc/plan/plan.hpp"

#include <gtest/gtest.h>

#include <map>

#include "srcc/core/error.hpp"
#include "srcc/memory/policy.hpp"

namespace srcc {
namespace {

TrainInfo train(TrainKind kind, std::size_t n, std::size_t bond, std::size_t phys) {
  TrainInfo t;
  t.file = "x.h5";
  t.group = kind == TrainKind::kMps ? "/psi" : "/H";
  t.kind = kind;
  for (std::size_t j = 0; j < n; ++j) {
    t.dims.push_back({j == 0 ? 1 : bond, j + 1 == n ? 1 : bond, phys,
                      kind == TrainKind::kMps ? 1 : phys});
    t.dtypes.push_back(DType::kComplex128);
  }
  return t;
}

Budgets budgets(std::uint64_t host, std::uint64_t scratch = 1ull << 40) {
  Budgets b;
  b.host_bytes = host;
  b.scratch_dir = "/tmp";
  b.scratch_bytes = scratch;
  return b;
}

SweepOptions chi(std::size_t c) {
  SweepOptions o;
  o.chi = c;
  return o;
}

const Stack& product(std::size_t n = 30) {
  static std::map<std::size_t, Stack> cache;
  auto it = cache.find(n);
  if (it == cache.end())
    it = cache.emplace(n, Stack{{train(TrainKind::kMpo, n, 8, 2), train(TrainKind::kMps, n, 16, 2)}}).first;
  return it->second;
}

TEST(Plan, GenerousBudgetKeepsEverythingInMemoryUnbatched) {
  const Plan p = make_plan(product(), chi(32), DType::kComplex128, 1, budgets(8ull << 30));
  EXPECT_EQ(p.memory_from, 1u);
  EXPECT_EQ(p.scratch_bytes, 0u);
  for (std::size_t j = 1; j < 30; ++j) {
    EXPECT_EQ(p.site_plans[j].env_tier, Tier::kMemory);
    EXPECT_EQ(p.site_plans[j].env_bytes, 32u * 8 * 16 * 16);  // s · D · χ · 16 bytes
    EXPECT_EQ(p.site_plans[j].right_batch, 32u);
    if (j + 1 < 30) {
      EXPECT_EQ(p.site_plans[j].left_batch, 32u);
    }
  }
  EXPECT_EQ(p.environment_bytes, 29u * 32 * 8 * 16 * 16);
  EXPECT_GE(p.peak_bytes, p.environment_bytes);
}

TEST(Plan, TightBudgetSpillsTheOldestFirstAndStaysWithinIt) {
  // 120 sites: the environments (not one step's intermediates) dominate the peak.
  const Plan loose = make_plan(product(120), chi(32), DType::kComplex128, 1, budgets(8ull << 30));
  const std::uint64_t host = memory::kProcessOverheadBytes + loose.peak_bytes / 4;
  const Plan p = make_plan(product(120), chi(32), DType::kComplex128, 1, budgets(host));
  EXPECT_GT(p.memory_from, 1u);
  EXPECT_GT(p.scratch_bytes, 0u);
  EXPECT_LE(p.peak_bytes + memory::kProcessOverheadBytes, host);
  // Newest first: the environments kept in memory are exactly those at the right end.
  for (std::size_t j = 1; j < 120; ++j) {
    EXPECT_EQ(p.site_plans[j].env_tier, j >= p.memory_from ? Tier::kMemory : Tier::kScratch);
    EXPECT_LE(p.site_plans[j].left_peak + memory::kProcessOverheadBytes, host);
    EXPECT_LE(p.site_plans[j].right_peak + memory::kProcessOverheadBytes, host);
  }
}

TEST(Plan, SmallestFeasibleBudgetBatchesTheSketchColumns) {
  // Six sites: the output bonds (at most 2^3 · 2^2 …) stay below χ̄ = 64, so the left sweep's
  // 64-column steps, not the right sweep's blocks, set the smallest budget.
  const Stack wide{{train(TrainKind::kMpo, 6, 16, 2), train(TrainKind::kMps, 6, 32, 2)}};
  // Bisect for the smallest budget the planner accepts.
  std::uint64_t lo = memory::kProcessOverheadBytes, hi = 8ull << 30;
  while (hi - lo > 4096) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    try {
      make_plan(wide, chi(64), DType::kComplex128, 1, budgets(mid));
      hi = mid;
    } catch (const ResourceError&) {
      lo = mid;
    }
  }
  const std::uint64_t host = hi;
  const Plan p = make_plan(wide, chi(64), DType::kComplex128, 1, budgets(host));
  std::size_t smallest = 64;
  for (const auto& sp : p.site_plans)
    if (sp.left_batch > 0) smallest = std::min(smallest, sp.left_batch);
  EXPECT_LT(smallest, 64u);
  EXPECT_LE(p.peak_bytes + memory::kProcessOverheadBytes, host);
}

TEST(Plan, InfeasibleBudgetNamesSiteStepAndBytes) {
  try {
    make_plan(product(), chi(32), DType::kComplex128, 1, budgets(memory::kProcessOverheadBytes + 1000));
    ADD_FAILURE() << "no error";
  } catch (const ResourceError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("site "), std::string::npos) << m;
    EXPECT_NE(m.find("sweep: needs"), std::string::npos) << m;
    EXPECT_NE(m.find("--host-memory allows"), std::string::npos) << m;
  }
}

TEST(Plan, ScratchTooSmallIsAnError) {
  const Plan loose = make_plan(product(120), chi(32), DType::kComplex128, 1, budgets(8ull << 30));
  const std::uint64_t host = memory::kProcessOverheadBytes + loose.peak_bytes / 4;
  try {
    make_plan(product(120), chi(32), DType::kComplex128, 1, budgets(host, 1000));
    ADD_FAILURE() << "no error";
  } catch (const ResourceError& e) {
    EXPECT_NE(std::string(e.what()).find("scratch directory /tmp"), std::string::npos) << e.what();
  }
}

TEST(Plan, OneSiteAndTwoSiteProblems) {
  const Stack one{{train(TrainKind::kMps, 1, 1, 2)}};
  const Plan p1 = make_plan(one, chi(4), DType::kFloat64, 1, budgets(1ull << 30));
  EXPECT_EQ(p1.sites, 1u);
  EXPECT_EQ(p1.environment_bytes, 0u);
  const Stack two{{train(TrainKind::kMpo, 2, 4, 2), train(TrainKind::kMps, 2, 4, 2)}};
  const Plan p2 = make_plan(two, chi(4), DType::kFloat64, 1, budgets(1ull << 30));
  EXPECT_TRUE(p2.exact_two_site);
  EXPECT_EQ(p2.environment_bytes, 0u);
  EXPECT_EQ(p2.scratch_bytes, 0u);
}

TEST(Plan, StacksUseTheFusedBond) {
  const Stack three{{train(TrainKind::kMpo, 10, 3, 2), train(TrainKind::kMpo, 10, 4, 2),
                     train(TrainKind::kMps, 10, 5, 2)}};
  const Plan p = make_plan(three, chi(20), DType::kFloat32, 2, budgets(1ull << 30));
  for (std::size_t j = 1; j < 10; ++j) EXPECT_EQ(p.site_plans[j].env_bytes, 20u * 3 * 4 * 5 * 4);
  EXPECT_EQ(p.depth, 3u);
  EXPECT_NE(p.to_json().find("\"env_tier\": \"memory\""), std::string::npos);
  EXPECT_NE(p.to_text().find("environments"), std::string::npos);
}

TEST(Plan, ToleranceModePlansForTheLargestSketch) {
  SweepOptions o;
  o.tol = 1e-6;
  const Plan p = make_plan(product(), o, DType::kComplex128, 1, budgets(8ull << 30));
  EXPECT_EQ(p.sketch_columns, 8u * 16);  // the fused bond: where a sketch becomes exact
}

}  // namespace
}  // namespace srcc
