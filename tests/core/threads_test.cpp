// Tests of thread resolution (lib/srcc/core/threads.cpp): flag, SLURM, OpenMP, affinity.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <string>

#include "srcc/core/error.hpp"
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

}  // namespace
}  // namespace srcc
