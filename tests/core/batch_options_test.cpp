// Tests of the batch-job helpers: thread resolution (core/threads.cpp), durations
// (core/duration.cpp) and per-task seeds (core/rng.cpp).
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "srcc/core/duration.hpp"
#include "srcc/core/error.hpp"
#include "srcc/core/rng.hpp"
#include "srcc/core/threads.hpp"

namespace srcc {
namespace {

ThreadChoice resolve(int flag, std::map<std::string, std::string> env, int cores) {
  return resolve_threads(
      flag, [&](const char* name) { return env.count(name) ? env.at(name).c_str() : nullptr; },
      cores);
}

TEST(Threads, FlagThenSlurmThenOmpThenAffinity) {
  EXPECT_EQ(resolve(3, {{"SLURM_CPUS_PER_TASK", "2"}}, 8).threads, 3);
  EXPECT_EQ(resolve(3, {}, 8).source, "--threads");
  auto c = resolve(0, {{"SLURM_CPUS_PER_TASK", "4"}, {"OMP_NUM_THREADS", "2"}}, 8);
  EXPECT_EQ(c.threads, 4);
  EXPECT_EQ(c.source, "SLURM_CPUS_PER_TASK");
  c = resolve(0, {{"OMP_NUM_THREADS", "2,1"}}, 8);
  EXPECT_EQ(c.threads, 2);
  EXPECT_EQ(c.source, "OMP_NUM_THREADS");
  c = resolve(0, {}, 6);
  EXPECT_EQ(c.threads, 6);
  EXPECT_EQ(c.source, "affinity mask");
}

TEST(Threads, NeverMoreThanTheCoresAllotted) {
  const auto c = resolve(0, {{"SLURM_CPUS_PER_TASK", "16"}}, 4);
  EXPECT_EQ(c.threads, 4);
  EXPECT_NE(c.source.find("capped"), std::string::npos);
  EXPECT_EQ(resolve(64, {}, 2).threads, 2);
  EXPECT_GE(affinity_cores(), 1);
}

TEST(Threads, BadEnvironmentValuesAreUsageErrors) {
  EXPECT_THROW(resolve(0, {{"SLURM_CPUS_PER_TASK", "lots"}}, 4), UsageError);
  EXPECT_THROW(resolve(0, {{"OMP_NUM_THREADS", "0"}}, 4), UsageError);
}

TEST(Duration, SecondsUnitsAndSlurmForms) {
  EXPECT_DOUBLE_EQ(parse_duration("90", "--max-time"), 90);
  EXPECT_DOUBLE_EQ(parse_duration("90s", "--max-time"), 90);
  EXPECT_DOUBLE_EQ(parse_duration("15m", "--max-time"), 900);
  EXPECT_DOUBLE_EQ(parse_duration("1h30m", "--max-time"), 5400);
  EXPECT_DOUBLE_EQ(parse_duration("2d", "--max-time"), 172800);
  EXPECT_DOUBLE_EQ(parse_duration("01:30:00", "--max-time"), 5400);
  EXPECT_DOUBLE_EQ(parse_duration("10:00", "--max-time"), 600);
  EXPECT_DOUBLE_EQ(parse_duration("1-12:00:00", "--max-time"), 129600);
  for (const char* bad : {"", "soon", "1h30", "1:2:3:4", "-5s", "1x"}) {
    try {
      parse_duration(bad, "--max-time");
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("--max-time"), std::string::npos);
    }
  }
}

TEST(Seeds, TasksDifferAndRerunsRepeat) {
  std::set<std::uint64_t> seen;
  for (std::uint64_t task = 0; task < 1000; ++task) seen.insert(Rng::derive_seed(42, task));
  EXPECT_EQ(seen.size(), 1000u);
  EXPECT_EQ(Rng::derive_seed(42, 7), Rng::derive_seed(42, 7));
  EXPECT_NE(Rng::derive_seed(42, 7), Rng::derive_seed(43, 7));
}

}  // namespace
}  // namespace srcc
