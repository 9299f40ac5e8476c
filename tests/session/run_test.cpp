// run() in process, without the binary (lib/srcc/session/run.cpp): trains written to files by the
// library, the product, a sum and truncate computed as the CLI computes them and checked against
// the dense contraction of what was written; the plans of a dry run; the record in /log.
#include "srcc/session/run.hpp"

#include <gtest/gtest.h>

#include "../support/dense.hpp"
#include "../support/h5_fixture.hpp"
#include "../support/h5_read.hpp"
#include "srcc/core/error.hpp"
#include "srcc/io/result_reader.hpp"
#include "srcc/session/write_example.hpp"

namespace srcc::test {
namespace {

// An example train written to `file` (its default group), and its cores read back.
std::vector<Tensor<cdouble>> example(const TempDir& dir, const std::string& file, ExampleOptions e) {
  const TrainRef ref = write_example({.example = e, .output = {(dir / file).string(), ""}});
  return read_cores(ref.file, ref.group);
}

RunOptions options(const TempDir& dir, const std::string& output, std::size_t chi) {
  RunOptions o;
  o.output = (dir / output).string();
  o.sweep.chi = chi;
  o.sweep.seed = 7;
  o.exec.threads = 1;
  return o;
}

TEST(Run, AProductAtFullRankIsTheDenseProductAndRecordsItself) {
  TempDir dir;
  const auto h = example(dir, "h.h5", {.example = Example::kRandomMpo, .sites = 6, .bond = 3, .seed = 1});
  const auto psi = example(dir, "psi.h5", {.example = Example::kRandomMps, .sites = 6, .bond = 4, .seed = 2});
  RunOptions o = options(dir, "out.h5", 12);  // 3·4: every cut's full rank
  o.trains = {{(dir / "h.h5").string(), ""}, {(dir / "psi.h5").string(), ""}};
  for (Method m : {Method::kSrc, Method::kSdc, Method::kSdcr}) {
    o.sweep.method = m;
    o.force = true;
    SilentReporter reporter;
    const RunSummary s = run(o, reporter);
    const DenseTrain ref = dense_product({dense_train(h), dense_train(psi)});
    EXPECT_LT(relative_error(dense_vector(read_cores(o.output, "/result")), ref.v), 1e-12) << method_name(m);
    EXPECT_EQ(s.method, method_name(m));
    const ResultRecord rec = read_result_record(o.output);
    EXPECT_EQ(rec.log.command, "apply");
    EXPECT_EQ(rec.log.method, method_name(m));
    EXPECT_EQ(rec.log.seed, 7u);
    EXPECT_TRUE(rec.complete);
    // The flops the plan predicted are the ones the sweep counted (full rank: exactly).
    const std::vector<Plan> plans = plan_terms(o);
    ASSERT_EQ(plans.size(), 1u);
    EXPECT_NEAR(plans.front().predicted_flops, s.flops, 1e-9 * s.flops) << method_name(m);
  }
}

TEST(Run, ASumAndATruncation) {
  TempDir dir;
  const auto h = example(dir, "h.h5", {.example = Example::kRandomMpo, .sites = 5, .bond = 2, .seed = 3});
  const auto psi = example(dir, "psi.h5", {.example = Example::kRandomMps, .sites = 5, .bond = 3, .seed = 4});
  RunOptions o = options(dir, "sum.h5", 9);  // 2·3 + 3: the sum's full rank
  o.terms = {{0.5, {{(dir / "h.h5").string(), ""}, {(dir / "psi.h5").string(), ""}}},
             {-2.0, {{(dir / "psi.h5").string(), ""}}}};
  SilentReporter reporter;
  const RunSummary s = run(o, reporter);
  EXPECT_EQ(s.terms, 2u);
  const DenseTrain hpsi = dense_product({dense_train(h), dense_train(psi)}), p = dense_train(psi);
  std::vector<cd> want(hpsi.v.size());
  for (std::size_t i = 0; i < want.size(); ++i) want[i] = 0.5 * hpsi.v[i] - 2.0 * p.v[i];
  EXPECT_LT(relative_error(dense_vector(read_cores(o.output, "/result")), want), 1e-12);
  EXPECT_EQ(plan_terms(o).size(), 2u) << "a plan per term";
  EXPECT_THROW(plan_run(o), UsageError) << "a sum has no single plan";

  // truncate: the optimal rank-2 truncation's error, deterministically.
  RunOptions t = options(dir, "trunc.h5", 2);
  t.command = "truncate";
  t.sweep.method = Method::kSvd;
  t.trains = {{(dir / "psi.h5").string(), ""}};
  (void)run(t, reporter);
  const double err = relative_error(dense_vector(read_cores(t.output, "/result")), p.v);
  EXPECT_NEAR(err, svd_sweep_error(p, 2), 1e-10);
  EXPECT_EQ(read_result_record(t.output).log.command, "truncate");
  t.terms = o.terms;
  t.trains.clear();
  t.force = true;
  EXPECT_THROW(run(t, reporter), UsageError) << "svd takes one train, not a sum";
}

TEST(Run, BadOptionsFailBeforeAnythingIsWritten) {
  TempDir dir;
  (void)example(dir, "psi.h5", {.example = Example::kRandomMps, .sites = 4, .bond = 2, .seed = 5});
  RunOptions o = options(dir, "out.h5", 0);  // no --chi
  o.trains = {{(dir / "psi.h5").string(), ""}};
  SilentReporter reporter;
  EXPECT_THROW(run(o, reporter), UsageError);
  o.sweep.chi = 2;
  o.output = (dir / "psi.h5").string();
  EXPECT_THROW(run(o, reporter), OutputError) << "the output is an input";
  EXPECT_FALSE(std::filesystem::exists(dir / "out.h5"));
}

}  // namespace
}  // namespace srcc::test
