// A run's record written and read in one place (lib/srcc/io/run_record.cpp): every attribute
// read back as written, for a product's run and an evolution's, and the defaults an output
// written before an attribute existed reads with.
#include "srcc/io/run_record.hpp"

#include <gtest/gtest.h>

#include "../support/h5_fixture.hpp"
#include "srcc/io/result_reader.hpp"
#include "srcc/io/result_writer.hpp"
#include "srcc/train/generate.hpp"
#include "srcc/version.hpp"

namespace srcc::test {
namespace {

RunRecord written(const std::filesystem::path& out, const RunRecord& r) {
  TransferLog log;
  {
    ResultWriter w(out.string(), false);
    w.write_train("/result", TrainKind::kMps, random_train<double>(TrainKind::kMps, 3, 2, 2, 1), log, "result site");
    w.write_log(r, log);
    w.commit();
  }
  return read_result_record(out.string()).log;
}

// Everything but the sites table (written only) and the tool's version (this build's).
void expect_same(const RunRecord& a, const RunRecord& b) {
  EXPECT_EQ(b.tool_version, kVersion);
  EXPECT_EQ(a.command, b.command);
  EXPECT_EQ(a.command_line, b.command_line);
  EXPECT_EQ(a.plan_json, b.plan_json);
  EXPECT_EQ(a.devices, b.devices);
  EXPECT_EQ(a.blas, b.blas);
  EXPECT_EQ(a.threads, b.threads);
  EXPECT_EQ(a.threads_source, b.threads_source);
  EXPECT_EQ(a.seed, b.seed);
  EXPECT_EQ(a.method, b.method);
  EXPECT_EQ(a.fit_json, b.fit_json);
  EXPECT_EQ(a.terms_json, b.terms_json);
  EXPECT_EQ(a.start_utc, b.start_utc);
  EXPECT_EQ(a.end_utc, b.end_utc);
  EXPECT_EQ(a.wall_seconds, b.wall_seconds);
  EXPECT_EQ(a.error_estimate, b.error_estimate);
  EXPECT_EQ(a.summary_json, b.summary_json);
  EXPECT_EQ(a.notes, b.notes);
  EXPECT_EQ(a.output_format, b.output_format);
  EXPECT_EQ(a.dropped_weight, b.dropped_weight);
  ASSERT_EQ(a.evolve.has_value(), b.evolve.has_value());
  if (!a.evolve) return;
  EXPECT_EQ(a.evolve->steps, b.evolve->steps);
  EXPECT_EQ(a.evolve->steps_done, b.evolve->steps_done);
  EXPECT_EQ(a.evolve->fingerprint, b.evolve->fingerprint);
  EXPECT_EQ(a.evolve->dt, b.evolve->dt);
  EXPECT_EQ(a.evolve->normalize, b.evolve->normalize);
  EXPECT_EQ(a.evolve->run_id, b.evolve->run_id);
  EXPECT_EQ(a.evolve->saved_states, b.evolve->saved_states);
}

TEST(RunRecord, EveryAttributeReadsBackAsWritten) {
  TempDir dir;
  RunRecord r{.command = "apply",
              .command_line = "src-compress apply --term 0.5 h.h5 psi.h5 --term 1 psi.h5 -o out.h5 --chi 8",
              .plan_json = R"({"terms": [{"sites": 3}, {"sites": 3}]})",
              .devices = "cpu",
              .blas = "OpenBLAS",
              .threads = 2,
              .threads_source = "--threads",
              .seed = 18446744073709551615u,  // stored as the two's complement
              .method = "sdcr",
              .fit_json = R"([{"norm": 1}])",
              .terms_json = R"([{"weight": [0.5, 0]}])",
              .start_utc = "2026-12-04T22:00:00Z",
              .end_utc = "2026-12-04T22:00:01Z",
              .wall_seconds = 1.25,
              .error_estimate = 3e-5,
              .summary_json = R"({"norm": 1})",
              .notes = "a basis not named",
              .output_format = "srcc",
              .dropped_weight = 0};
  r.sites.resize(3);
  expect_same(r, written(dir / "apply.h5", r));
  r.output_format = "itensor";
  r.dropped_weight = 1e-9;
  r.evolve = RunRecord::Evolution{.steps = 20, .steps_done = 7, .fingerprint = "chi=8\n", .dt = 0.05,
                                  .normalize = true, .run_id = "tag-1-abc", .saved_states = "5"};
  r.command = "evolve";
  expect_same(r, written(dir / "evolve.h5", r));
  r.evolve->saved_states.reset();  // files written before the list was recorded
  expect_same(r, written(dir / "older.h5", r));
}

}  // namespace
}  // namespace srcc::test
