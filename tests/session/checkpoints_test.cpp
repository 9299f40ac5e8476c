// An evolution's output at checkpoints (lib/srcc/session/checkpoints.cpp): held states written at
// the next checkpoint and kept by the later ones, the record's saved states and run id, a
// checkpoint due by steps or by held memory, states copied only from this evolution's own
// version of the file, and states held in their blocks written as their dense cores.
#include "srcc/session/checkpoints.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <tuple>

#include "../support/h5_fixture.hpp"
#include "../support/h5_read.hpp"
#include "../symmetric/charged_support.hpp"
#include "srcc/core/error.hpp"
#include "srcc/io/h5/h5_names.hpp"
#include "srcc/io/result_reader.hpp"
#include "srcc/io/train_reader.hpp"
#include "srcc/train/generate.hpp"

namespace srcc::test {
namespace {

RunRecord record() {
  RunRecord r;
  r.sites.resize(4);
  r.evolve = RunRecord::Evolution{.steps = 10};
  return r;
}

template <class T> EvolutionState<T> dense_state(std::vector<Tensor<T>> cores) {
  EvolutionState<T> s;
  s.dense = std::move(cores);
  return s;
}

std::vector<TableColumn> rows(std::size_t steps) {
  TableColumn step{"step", true, {}};
  for (std::size_t k = 1; k <= steps; ++k) step.values.push_back(static_cast<double>(k));
  return {step};
}

TEST(Checkpoints, HeldStatesAreWrittenOnceAndKept) {
  TempDir dir;
  const std::string out = (dir / "ev.h5").string();
  const auto c1 = random_train<double>(TrainKind::kMps, 4, 2, 2, 1);
  const auto s1 = dense_state(c1), s2 = dense_state(random_train<double>(TrainKind::kMps, 4, 3, 2, 2));
  test::charged::OneThread<double> ctx;
  auto& K = ctx.K();
  Checkpoints<double> cp(out, false);
  EXPECT_TRUE(cp.due(3, 3));
  EXPECT_FALSE(cp.due(2, 3));
  cp.limit_held(1);
  cp.hold(1, s1, 0.0);
  EXPECT_TRUE(cp.due(0, 100)) << "held states bring a checkpoint forward";
  FoldedLog history;
  cp.write(rows(1), "[]", s1, 0.0, K, record(), history, false, 1);
  EXPECT_TRUE(cp.written());
  EXPECT_EQ(cp.saved_steps(), 1u);
  cp.hold(2, s2, 0.5);
  cp.write(rows(2), "[]", s2, 0.0, K, record(), history, true, 2);
  const EvolveRecord rec = read_evolve_record(out);
  EXPECT_EQ(rec.states, (std::vector<long long>{1, 2})) << "state 1 copied from the version replaced";
  EXPECT_EQ(rec.log.evolve->saved_states.value_or(""), "1 2");
  EXPECT_FALSE(rec.log.evolve->run_id.empty());
  const auto back = read_cores(out, std::string(h5names::kStates) + "/1");
  ASSERT_EQ(back.size(), c1.size());
  for (std::size_t j = 0; j < c1.size(); ++j) EXPECT_EQ(back[j].data[0].real(), c1[j].data[0]) << j;
  EXPECT_DOUBLE_EQ(read_double_attr(out, std::string(h5names::kStates) + "/2", h5names::kAttrLogScale), 0.5);

  // A run whose file was since written by another (the run id it names is not the one this run
  // resumed) takes none of its states and writes nothing: two evolutions never mix theirs.
  Checkpoints<double> other(out, true);
  other.resume(2, "another-run", {1, 2});
  EXPECT_THROW(other.write(rows(3), "[]", s2, 0.0, K, record(), history, false, 3), OutputError);
  EXPECT_EQ(read_evolve_record(out).states, (std::vector<long long>{1, 2})) << "the file as it was";
  // The same file resumed by its own run keeps them.
  Checkpoints<double> own(out, true);
  const EvolveRecord before = read_evolve_record(out);
  own.resume(3, before.log.evolve->run_id, before.states);
  own.hold(4, s1, 0.0);
  own.write(rows(4), "[]", s1, 0.0, K, record(), history, false, 4);
  own.hold(5, s1, 0.0);
  own.write(rows(5), "[]", s1, 0.0, K, record(), history, false, 5);
  const EvolveRecord after = read_evolve_record(out);
  EXPECT_EQ(after.states, (std::vector<long long>{1, 2, 4, 5}));
  EXPECT_EQ(after.log.evolve->saved_states.value_or(""), "1 2 4 5");
}

// A charged evolution holds its states in their blocks (a third or less of the dense cores here)
// and writes each, and /result, as the dense cores they stand for, with their charges.
TEST(Checkpoints, StatesInBlocksAreWrittenAsTheirDenseCores) {
  using namespace test::charged;
  TempDir dir;
  const std::string out = (dir / "ev.h5").string();
  OneThread<cdouble> ctx;
  auto& K = ctx.K();
  const std::size_t n = 7;
  const std::vector<Tensor<cdouble>> psi = random_charged<cdouble>(n, 12, 1, 5), phi = random_charged<cdouble>(n, 12, 1, 6);
  const PhysicalCharges pc = charges(n, TrainKind::kMps, Rule::kU1);
  EvolutionState<cdouble> a = dense_state(psi), b = dense_state(phi);
  a.split(K, pc, "psi");
  b.split(K, pc, "phi");
  std::size_t dense_bytes = 0;
  for (const auto& c : psi) dense_bytes += c.bytes();
  ASSERT_LT(3 * a.bytes(), dense_bytes) << "the test's states must be sparse in their blocks";
  Checkpoints<cdouble> cp(out, false);
  cp.set_charges(pc);
  cp.limit_held(a.bytes() + 1);
  cp.hold(1, a, 0.0);
  EXPECT_FALSE(cp.due(0, 100)) << "held memory counts the blocks, not the dense cores";
  cp.hold(2, b, -3.0);
  EXPECT_TRUE(cp.due(0, 100));
  FoldedLog history;
  cp.write(rows(2), "[]", b, -3.0, K, record(), history, false, 2);
  // A reader spreads a log scale over the sites: e^{−3/n} each.
  const double spread = std::exp(-3.0 / static_cast<double>(n));
  for (const auto& [group, cores, factor] : {std::tuple{std::string(h5names::kStates) + "/1", psi, 1.0},
                                             std::tuple{std::string(h5names::kStates) + "/2", phi, spread},
                                             std::tuple{std::string(h5names::kResult), phi, spread}}) {
    SCOPED_TRACE(group);
    const auto back = read_cores(out, group);
    ASSERT_EQ(back.size(), n);
    for (std::size_t j = 0; j < n; ++j) {
      ASSERT_EQ(back[j].shape, cores[j].shape) << j;
      for (std::size_t i = 0; i < back[j].size(); ++i)
        ASSERT_NEAR(std::abs(back[j].data[i] - factor * cores[j].data[i]), 0.0, 1e-15) << j << " " << i;
    }
  }
  EXPECT_DOUBLE_EQ(read_double_attr(out, h5names::kResult, h5names::kAttrLogScale), -3.0);
  const auto saved = train_charges(TrainReader(TrainRef{out, std::string(h5names::kStates) + "/1"}).info());
  ASSERT_TRUE(saved.has_value()) << "a saved state is a charged input of later runs";
  EXPECT_EQ(saved->up, pc.up);
}

}  // namespace
}  // namespace srcc::test
