// Tests of the output file (lib/srcc/io/result_writer.cpp, output_file.cpp) and of reading it
// back (result_reader.cpp): what lands under the final name, when, and what is refused.
#include "srcc/io/result_writer.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "../support/h5_fixture.hpp"
#include "srcc/core/error.hpp"
#include "srcc/io/result_reader.hpp"
#include "srcc/io/train_reader.hpp"
#include "srcc/train/generate.hpp"
#include "srcc/train/site_loader.hpp"

namespace srcc::test {
namespace {

namespace fs = std::filesystem;

std::vector<Tensor<double>> train(std::size_t n, std::size_t bond, std::uint64_t seed) {
  return random_train<double>(TrainKind::kMps, n, bond, 2, seed);
}

std::vector<Tensor<double>> read_back(const fs::path& file, const std::string& group) {
  TrainReader r(TrainRef{file.string(), group});
  TransferLog log;
  std::vector<Tensor<double>> out;
  for (std::size_t j = 0; j < r.info().length(); ++j)
    out.push_back(to_internal<double>(r.read_site(j, log), r.info(), j, log));
  return out;
}

std::string bytes_of(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::size_t entries(const fs::path& dir) {
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

// A run's output: /result equal to the cores written, /log read back field by field, the
// transfer rows summed by mechanism, complete = 1.
TEST(ResultWriter, RunOutputReadsBackCompleteWithItsRecord) {
  TempDir dir;
  const auto out = dir / "out.h5";
  const auto cores = train(5, 3, 1);
  TransferLog log;
  {
    ResultWriter w(out.string(), false);
    w.write_train("/result", TrainKind::kMps, cores, log, "result site");
    RunRecord r;
    r.command_line = "src-compress apply a.h5 b.h5 -o out.h5";
    r.threads = 3;
    r.threads_source = "test";
    r.seed = 42;
    r.wall_seconds = 1.5;
    r.error_estimate = 2e-3;
    r.sites.resize(5);
    w.write_log(r, log);
    EXPECT_FALSE(fs::exists(out)) << "nothing under the final name before commit";
    w.commit();
  }
  ASSERT_TRUE(is_complete_result(out.string()));
  const ResultRecord rec = read_result_record(out.string());
  EXPECT_TRUE(rec.complete);
  EXPECT_EQ(rec.kind, "MPS");
  EXPECT_EQ(rec.sites, 5u);
  std::vector<std::int64_t> bonds;
  for (std::size_t j = 0; j + 1 < cores.size(); ++j)
    bonds.push_back(static_cast<std::int64_t>(cores[j].shape[kLegR]));
  EXPECT_EQ(rec.bonds, bonds);
  EXPECT_EQ(rec.log.seed, 42u);
  EXPECT_EQ(rec.log.threads, 3);
  EXPECT_DOUBLE_EQ(rec.log.error_estimate, 2e-3);
  EXPECT_EQ(rec.log.command_line, "src-compress apply a.h5 b.h5 -o out.h5");
  std::int64_t written = 0;
  for (const auto& c : cores) written += static_cast<std::int64_t>(c.bytes());
  EXPECT_EQ(rec.bytes_by_mechanism.at(mechanism::kFileWrite), written);
  const auto back = read_back(out, "/result");
  ASSERT_EQ(back.size(), cores.size());
  for (std::size_t j = 0; j < cores.size(); ++j) EXPECT_EQ(back[j].data, cores[j].data) << j;
  EXPECT_EQ(entries(dir.path()), 1u) << "no temporary file left beside the output";
}

TEST(ResultWriter, WithoutCommitNothingIsLeft) {
  TempDir dir;
  {
    ResultWriter w((dir / "out.h5").string(), false);
    TransferLog log;
    w.write_train("/result", TrainKind::kMps, train(4, 2, 1), log, "result site");
  }
  EXPECT_EQ(entries(dir.path()), 0u);
}

TEST(ResultWriter, ExistingFileNeedsForceAndIsKeptUntilCommit) {
  TempDir dir;
  const auto out = dir / "out.h5";
  { std::ofstream(out) << "precious"; }
  EXPECT_THROW(ResultWriter(out.string(), false), OutputError);
  {
    ResultWriter w(out.string(), true);
    TransferLog log;
    w.write_train("/psi", TrainKind::kMps, train(4, 2, 1), log, "x");
    EXPECT_EQ(bytes_of(out), "precious") << "replaced only by commit";
  }
  EXPECT_EQ(bytes_of(out), "precious") << "an abandoned write leaves the old file";
  {
    ResultWriter w(out.string(), true);
    TransferLog log;
    w.write_train("/psi", TrainKind::kMps, train(4, 2, 1), log, "x");
    w.commit();
  }
  EXPECT_EQ(read_back(out, "/psi").size(), 4u);
  EXPECT_THROW(ResultWriter((dir / "no-such-dir" / "out.h5").string(), true), OutputError);
}

// FILE.h5:/group: the trains already there stay bit for bit, the new one is added; the same
// group again is refused without force and replaced with it.
TEST(ResultWriter, AddsAGroupToAnExistingFile) {
  TempDir dir;
  const auto file = dir / "in.h5";
  RawTrain h;  // written by the independent test writer, as another program would
  h.group = "/H";
  h.type = "MPO";
  h.sites = stored_train(random_train<cdouble>(TrainKind::kMpo, 4, 2, 2, 7), false, "lrud", true, "/H").sites;
  write_raw_train(file, h);
  const auto h_before = read_back(file, "/H");
  auto add = [&](const std::string& group, std::uint64_t seed, bool force) {
    ResultWriter w(file.string(), force, ResultWriter::Mode::kAddGroup, group);
    TransferLog log;
    w.write_train(group, TrainKind::kMps, train(4, 3, seed), log, "generated site");
    w.commit();
  };
  add("/states/psi", 1, false);
  EXPECT_EQ(read_back(file, "/H")[2].data, h_before[2].data);
  EXPECT_EQ(read_back(file, "/states/psi")[1].data, train(4, 3, 1)[1].data);

  const std::string before = bytes_of(file);
  EXPECT_THROW(add("/states/psi", 2, false), OutputError);
  EXPECT_EQ(bytes_of(file), before) << "a refused add changes nothing";
  add("/states/psi", 2, true);
  EXPECT_EQ(read_back(file, "/states/psi")[1].data, train(4, 3, 2)[1].data);
  EXPECT_EQ(read_back(file, "/H")[0].data, h_before[0].data);
  EXPECT_EQ(entries(dir.path()), 1u);

  add("/psi", 3, false);  // to a file that does not exist yet: created
  const auto fresh = dir / "fresh.h5";
  {
    ResultWriter w(fresh.string(), false, ResultWriter::Mode::kAddGroup, "/psi");
    TransferLog log;
    w.write_train("/psi", TrainKind::kMps, train(4, 3, 3), log, "generated site");
    w.commit();
  }
  EXPECT_EQ(read_back(fresh, "/psi")[3].data, train(4, 3, 3)[3].data);
}

TEST(ResultWriter, AddingToAFileThatIsNotHdf5IsRefusedAndLeavesIt) {
  TempDir dir;
  const auto file = dir / "notes.h5";
  { std::ofstream(file) << "not hdf5"; }
  EXPECT_THROW(ResultWriter(file.string(), false, ResultWriter::Mode::kAddGroup, "/psi"), OutputError);
  EXPECT_EQ(bytes_of(file), "not hdf5");
  EXPECT_EQ(entries(dir.path()), 1u);
}

}  // namespace
}  // namespace srcc::test
