// Reading outputs back (lib/srcc/io/result_reader.cpp): incomplete and foreign files are not
// complete results, and an evolution's record is read only from an evolution's output.
#include "srcc/io/result_reader.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "../support/h5_fixture.hpp"
#include "srcc/core/error.hpp"
#include "srcc/io/result_writer.hpp"
#include "srcc/train/generate.hpp"

namespace srcc::test {
namespace {

TEST(ResultReader, IncompleteOrForeignFilesAreNotComplete) {
  TempDir dir;
  EXPECT_FALSE(is_complete_result((dir / "missing.h5").string()));
  { std::ofstream(dir / "text.h5") << "text"; }
  EXPECT_FALSE(is_complete_result((dir / "text.h5").string()));
  EXPECT_THROW(read_result_record((dir / "text.h5").string()), InputError);
  const auto no_log = dir / "trains.h5";
  {
    ResultWriter w(no_log.string(), false);
    TransferLog log;
    w.write_train("/result", TrainKind::kMps, random_train<double>(TrainKind::kMps, 4, 2, 2, 1), log, "x");
    w.commit();
  }
  EXPECT_FALSE(is_complete_result(no_log.string())) << "a /result without /log@complete";
}

TEST(ResultReader, AnEvolutionsRecordOnlyFromAnEvolution) {
  TempDir dir;
  const auto out = dir / "apply.h5";
  {
    ResultWriter w(out.string(), false);
    TransferLog log;
    w.write_train("/result", TrainKind::kMps, random_train<double>(TrainKind::kMps, 4, 2, 2, 1), log, "x");
    RunRecord r;
    r.command = "apply";
    r.sites.resize(4);
    w.write_log(r, log);
    w.commit();
  }
  try {
    (void)read_evolve_record(out.string());
    ADD_FAILURE() << "read an apply output as an evolution's";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("an output of src-compress apply"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace srcc::test
