// An evolution's output at checkpoints (lib/srcc/session/checkpoints.cpp): held states written at
// the next checkpoint and kept by the later ones, the record's saved states and run id, a
// checkpoint due by steps or by held memory, and states copied only from this evolution's own
// version of the file.
#include "srcc/session/checkpoints.hpp"

#include <gtest/gtest.h>

#include "../support/h5_fixture.hpp"
#include "../support/h5_read.hpp"
#include "srcc/core/error.hpp"
#include "srcc/io/h5/h5_names.hpp"
#include "srcc/io/result_reader.hpp"
#include "srcc/train/generate.hpp"

namespace srcc::test {
namespace {

RunRecord record() {
  RunRecord r;
  r.sites.resize(4);
  r.evolve = RunRecord::Evolution{.steps = 10};
  return r;
}

std::vector<TableColumn> rows(std::size_t steps) {
  TableColumn step{"step", true, {}};
  for (std::size_t k = 1; k <= steps; ++k) step.values.push_back(static_cast<double>(k));
  return {step};
}

TEST(Checkpoints, HeldStatesAreWrittenOnceAndKept) {
  TempDir dir;
  const std::string out = (dir / "ev.h5").string();
  const auto s1 = random_train<double>(TrainKind::kMps, 4, 2, 2, 1), s2 = random_train<double>(TrainKind::kMps, 4, 3, 2, 2);
  Checkpoints<double> cp(out, false);
  EXPECT_TRUE(cp.due(3, 3));
  EXPECT_FALSE(cp.due(2, 3));
  cp.limit_held(1);
  cp.hold(1, s1, 0.0);
  EXPECT_TRUE(cp.due(0, 100)) << "held states bring a checkpoint forward";
  FoldedLog history;
  cp.write(rows(1), "[]", s1, 0.0, record(), history, false, 1);
  EXPECT_TRUE(cp.written());
  EXPECT_EQ(cp.saved_steps(), 1u);
  cp.hold(2, s2, 0.5);
  cp.write(rows(2), "[]", s2, 0.0, record(), history, true, 2);
  const EvolveRecord rec = read_evolve_record(out);
  EXPECT_EQ(rec.states, (std::vector<long long>{1, 2})) << "state 1 copied from the version replaced";
  EXPECT_EQ(rec.log.evolve->saved_states.value_or(""), "1 2");
  EXPECT_FALSE(rec.log.evolve->run_id.empty());
  const auto back = read_cores(out, std::string(h5names::kStates) + "/1");
  ASSERT_EQ(back.size(), s1.size());
  for (std::size_t j = 0; j < s1.size(); ++j) EXPECT_EQ(back[j].data[0].real(), s1[j].data[0]) << j;
  EXPECT_DOUBLE_EQ(read_double_attr(out, std::string(h5names::kStates) + "/2", h5names::kAttrLogScale), 0.5);

  // A run whose file was since written by another (the run id it names is not the one this run
  // resumed) takes none of its states and writes nothing: two evolutions never mix theirs.
  Checkpoints<double> other(out, true);
  other.resume(2, "another-run", {1, 2});
  EXPECT_THROW(other.write(rows(3), "[]", s2, 0.0, record(), history, false, 3), OutputError);
  EXPECT_EQ(read_evolve_record(out).states, (std::vector<long long>{1, 2})) << "the file as it was";
  // The same file resumed by its own run keeps them.
  Checkpoints<double> own(out, true);
  const EvolveRecord before = read_evolve_record(out);
  own.resume(3, before.log.evolve->run_id, before.states);
  own.hold(4, s1, 0.0);
  own.write(rows(4), "[]", s1, 0.0, record(), history, false, 4);
  own.hold(5, s1, 0.0);
  own.write(rows(5), "[]", s1, 0.0, record(), history, false, 5);
  const EvolveRecord after = read_evolve_record(out);
  EXPECT_EQ(after.states, (std::vector<long long>{1, 2, 4, 5}));
  EXPECT_EQ(after.log.evolve->saved_states.value_or(""), "1 2 4 5");
}

}  // namespace
}  // namespace srcc::test
