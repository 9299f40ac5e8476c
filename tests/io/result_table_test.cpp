// The run record written by ResultWriter and read back by read_result_record, field by field,
// and collect's table made from it (lib/srcc/io/result_table.cpp): one column list for the
// header, the rows and the JSON keys; outputs written before /log named the command and the
// method read as they were then.
#include "srcc/io/result_table.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "../support/h5_fixture.hpp"
#include "srcc/io/result_reader.hpp"
#include "srcc/io/result_writer.hpp"
#include "srcc/train/generate.hpp"

namespace srcc::test {
namespace {

namespace fs = std::filesystem;

// An output of `record` with a random MPS of 5 sites as /result.
ResultRecord written(const fs::path& out, const RunRecord& record) {
  TransferLog log;
  ResultWriter w(out.string(), false);
  w.write_train("/result", TrainKind::kMps, random_train<double>(TrainKind::kMps, 5, 3, 2, 1), log, "result site");
  w.write_log(record, log);
  w.commit();
  return read_result_record(out.string());
}

std::size_t fields(const std::string& line) { return static_cast<std::size_t>(std::count(line.begin(), line.end(), ',')) + 1; }

TEST(ResultTable, TheRecordRoundTripsIntoEveryColumn) {
  TempDir dir;
  RunRecord r;
  r.command = "compress";
  r.command_line = "src-compress compress psi.h5 -o out.h5 --method sdcr";
  r.method = "sdcr";
  r.seed = 7;
  r.threads = 2;
  r.error_estimate = 1e-4;
  r.plan_json = R"({"terms": [{"sites": 5, "chi": 12, "oversample": 1.5}, {"sites": 5, "chi": 12, "oversample": 1.5}]})";
  r.summary_json = R"({"norm": 2.5, "log10_norm": 0.39794000867203760, "fit_sweeps": 3, "peak_rss_bytes": 1234})";
  r.sites.resize(5);
  r.evolve = RunRecord::Evolution{.steps = 10, .steps_done = 4, .fingerprint = "a=b", .run_id = "x"};
  const ResultRecord rec = written(dir / "out.h5", r);
  EXPECT_EQ(rec.log.command, "evolve") << "an evolution's record names its command itself";
  EXPECT_EQ(rec.log.method, "sdcr");
  EXPECT_EQ(rec.terms, 2);
  EXPECT_EQ(rec.fit_sweeps, 3);
  EXPECT_EQ(rec.log.evolve->steps, 10);
  EXPECT_EQ(rec.log.evolve->steps_done, 4);
  EXPECT_EQ(rec.chi, 12);
  EXPECT_EQ(rec.mode, "oversampled");
  EXPECT_DOUBLE_EQ(rec.norm, 2.5);
  EXPECT_EQ(rec.peak_rss_bytes, 1234);

  r.evolve.reset();
  const ResultRecord plain = written(dir / "plain.h5", r);
  EXPECT_EQ(plain.log.command, "compress");
  EXPECT_FALSE(plain.log.evolve);

  // One column list: the header, every row and every JSON object have as many fields.
  const auto columns = result_table_columns();
  const std::string csv = result_table_csv({rec, plain});
  std::vector<std::string> lines;
  for (std::size_t at = 0, end; (end = csv.find('\n', at)) != std::string::npos; at = end + 1)
    lines.push_back(csv.substr(at, end - at));
  ASSERT_EQ(lines.size(), 3u);
  // The command line is the only cell with a comma-free text here, so fields are cells.
  for (const auto& line : lines) EXPECT_EQ(fields(line), columns.size()) << line;
  EXPECT_NE(lines[0].find("method,terms,fit_sweeps,steps,steps_done"), std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find(",sdcr,2,3,10,4"), std::string::npos) << lines[1];
  const std::string json = result_table_json({rec});
  for (const auto& c : columns) EXPECT_NE(json.find("\"" + c + "\": "), std::string::npos) << c;
}

TEST(ResultTable, OlderOutputsNamedTheirCommandOnlyInTheCommandLine) {
  TempDir dir;
  RunRecord r;
  r.command_line = "src-compress truncate psi.h5 -o out.h5 --chi 4";
  r.plan_json = R"({"sites": 5, "chi": 4})";
  r.sites.resize(5);
  const ResultRecord rec = written(dir / "old.h5", r);
  EXPECT_EQ(rec.log.command, "truncate");
  EXPECT_EQ(rec.log.method, "svd");
  EXPECT_EQ(rec.mode, "svd");
  EXPECT_EQ(rec.terms, 1);
  r.command_line = "src-compress apply h.h5 psi.h5 -o out.h5 --chi 4";
  EXPECT_EQ(written(dir / "old2.h5", r).log.method, "src") << "src was the only sweep before --method";
}

}  // namespace
}  // namespace srcc::test
