// evolve() in process, without the binary (lib/srcc/session/evolve.cpp, evolution.cpp,
// checkpoints.cpp, observables.cpp): steps of a step MPO against its dense powers, the observables
// against dense expectation values, the file's record, a resumed run equal to the uninterrupted
// one, and the dry run's plans of a --taylor step.
#include "srcc/session/evolve.hpp"

#include <gtest/gtest.h>

#include "../support/dense.hpp"
#include "../support/h5_fixture.hpp"
#include "../support/h5_read.hpp"
#include "srcc/core/error.hpp"
#include "srcc/io/result_reader.hpp"
#include "srcc/session/write_example.hpp"

namespace srcc::test {
namespace {

std::string written(const TempDir& dir, const std::string& file, const ExampleOptions& e) {
  (void)write_example({.example = e, .output = {(dir / file).string(), ""}});
  return (dir / file).string();
}

// ⟨ψ|O|ψ⟩/⟨ψ|ψ⟩ of a dense state (MPS: its interleaved vector is the plain one) and operator.
cd dense_expectation(const DenseTrain& op, const std::vector<cd>& psi) {
  const std::vector<cd> m = interleaved_to_matrix(op.v, op.ups, op.downs);
  return dense_sandwich(psi, m, psi) / inner(psi, psi);
}

struct Files {
  std::string step, state, ising, m;
};

Files inputs(const TempDir& dir) {
  const std::size_t n = 6;
  return {written(dir, "u.h5", {.example = Example::kIsingStep, .sites = n, .coupling = 1, .field = 0.7, .dt = 0.1}),
          written(dir, "psi.h5", {.example = Example::kRandomMps, .sites = n, .bond = 2, .seed = 3}),
          written(dir, "h.h5", {.example = Example::kIsing, .sites = n, .coupling = 1, .field = 0.7}),
          written(dir, "m.h5", {.example = Example::kMagnetization, .sites = n})};
}

EvolveOptions options(const Files& f, const std::string& output, std::size_t steps) {
  EvolveOptions e;
  e.run.trains = {{f.step, ""}, {f.state, ""}};
  e.run.output = output;
  e.run.sweep.chi = 8;  // 2^3: every cut's full rank at 6 sites
  e.run.sweep.seed = 11;
  e.run.exec.threads = 1;
  e.steps = steps;
  e.dt = 0.1;
  e.measure = {{f.ising, ""}, {f.m, ""}};
  e.checkpoint_every = 1;
  return e;
}

TEST(EvolveInProcess, StepsAreTheDenseStepAndTheObservablesItsExpectations) {
  TempDir dir;
  const Files f = inputs(dir);
  const EvolveOptions e = options(f, (dir / "ev.h5").string(), 3);
  SilentReporter reporter;
  const EvolveSummary s = evolve(e, reporter);
  EXPECT_EQ(s.steps_done, 3u);
  const DenseTrain u = dense_train(read_cores(f.step, "")), h = dense_train(read_cores(f.ising, ""));
  DenseTrain state = dense_train(read_cores(f.state, ""));
  for (int k = 0; k < 3; ++k) state = dense_product({u, state});
  const std::vector<cd>& psi = state.v;
  EXPECT_LT(relative_error(dense_vector(read_cores(e.run.output, "/result")), psi), 1e-12);
  const auto columns = read_columns(e.run.output, "trajectory");
  ASSERT_EQ(columns.at("h_re").size(), 3u);
  EXPECT_NEAR(columns.at("h_re").back(), dense_expectation(h, psi).real(), 1e-12);
  EXPECT_NEAR(columns.at("h_im").back(), 0, 1e-12);
  const ResultRecord rec = read_result_record(e.run.output);
  EXPECT_EQ(rec.log.command, "evolve");
  EXPECT_EQ(rec.log.evolve->steps_done, 3);
}

TEST(EvolveInProcess, AResumedRunEqualsTheUninterruptedOne) {
  TempDir dir;
  const Files f = inputs(dir);
  SilentReporter reporter;
  EvolveOptions whole = options(f, (dir / "whole.h5").string(), 4);
  whole.run.sweep.chi = 4;  // truncating: the seeds of the steps matter
  (void)evolve(whole, reporter);
  EvolveOptions part = whole;
  part.run.output = (dir / "part.h5").string();
  part.steps = 2;
  (void)evolve(part, reporter);
  part.steps = 4;
  part.resume = true;
  part.seed_of_resumed = true;
  part.run.sweep.seed = 999;  // not used: the resumed run draws from the file's seed
  const EvolveSummary s = evolve(part, reporter);
  EXPECT_EQ(s.resumed_from, 2u);
  const auto a = read_cores(whole.run.output, "/result"), b = read_cores(part.run.output, "/result");
  EXPECT_LT(relative_error(dense_vector(b), dense_vector(a)), 1e-13);
  EXPECT_EQ(read_columns(whole.run.output, "trajectory").at("m_re"), read_columns(part.run.output, "trajectory").at("m_re"));
}

TEST(EvolveInProcess, ATaylorStepIsPlannedPerTerm) {
  TempDir dir;
  const Files f = inputs(dir);
  EvolveOptions e = options(f, (dir / "t.h5").string(), 1);
  e.run.trains = {{f.ising, ""}, {f.state, ""}};
  e.taylor = 3;
  e.imaginary_time = true;
  const std::vector<Plan> plans = plan_evolve(e);
  ASSERT_EQ(plans.size(), 4u) << "H^0 ψ … H^3 ψ";
  for (std::size_t m = 0; m < plans.size(); ++m) EXPECT_EQ(plans[m].depth, m + 1) << m;
  EXPECT_FALSE(std::filesystem::exists(e.run.output)) << "a dry run writes nothing";
  e.dt = 0;
  EXPECT_THROW(plan_evolve(e), UsageError) << "--taylor needs --dt";
}

}  // namespace
}  // namespace srcc::test
