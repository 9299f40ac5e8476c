// What an evolution records besides its states (lib/srcc/session/evolve_record.cpp): the
// fingerprint's text both ways, a resumed run refused naming what differs, the fixed columns,
// and a consistent checkpoint's state told from a changed one.
#include "srcc/session/evolve_record.hpp"

#include <gtest/gtest.h>

#include "srcc/core/error.hpp"

namespace srcc {
namespace {

TEST(EvolveRecord, FingerprintsRoundTripAndARunOfAnotherEvolutionIsRefused) {
  const Fingerprint fp = {{"state", "psi.h5:/psi MPS float64 bonds 2 2 content 01"}, {"chi", "16"}, {"dt", "0.05"}};
  EXPECT_EQ(fingerprint_from_text(to_text(fp)), fp);
  EvolveRecord rec;
  rec.log.evolve = RunRecord::Evolution{.steps_done = 0, .fingerprint = to_text({{"state", fp[0].second}, {"chi", "32"}, {"dt", "0.05"}})};
  std::vector<TableColumn> rows;
  try {
    (void)resume_trajectory(rec, fp, rows, "out.h5");
    ADD_FAILURE() << "resumed another evolution";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("its chi is '32', this run's '16'"), std::string::npos) << e.what();
  }
}

TEST(EvolveRecord, FixedColumnsAndTheResumedStatesCheck) {
  EvolveOptions eo;
  const auto columns = trajectory_columns(eo);
  ASSERT_GT(columns.size(), kLog10NormColumn);
  EXPECT_EQ(columns[kNormColumn].name, "norm");
  EXPECT_EQ(columns[kBudgetColumn].name, "error_budget");
  EXPECT_EQ(columns[kMaxBondColumn].name, "max_bond");
  EXPECT_EQ(columns[kLog10NormColumn].name, "log10_norm");
  TrainInfo input, saved;
  input.dims = saved.dims = {{1, 4, 2, 1}, {4, 1, 2, 1}};
  std::vector<TableColumn> rows(columns.size());
  rows[kLog10NormColumn].values = {-0.5};
  rows[kMaxBondColumn].values = {4};
  EXPECT_NO_THROW(check_resumed_state(input, saved, -0.5, rows, 1, false, "out.h5"));
  EXPECT_NO_THROW(check_resumed_state(input, saved, 0.0, rows, 1, true, "out.h5")) << "--normalize: norm 1";
  EXPECT_THROW(check_resumed_state(input, saved, -0.4, rows, 1, false, "out.h5"), InputError) << "another norm";
  saved.dims = {{1, 3, 2, 1}, {3, 1, 2, 1}};
  EXPECT_THROW(check_resumed_state(input, saved, -0.5, rows, 1, false, "out.h5"), InputError) << "another bond";
}

TEST(EvolveRecord, TheStepLine) {
  const std::string line = step_line({.step = 3, .steps = 10, .time = 0.15, .log10_norm = 0, .error = 1e-6,
                                      .budget = 2e-6, .seconds = 0.5, .max_bond = 16});
  EXPECT_EQ(line, "step 3/10  t 0.15  norm 1  bond 16  error 1.00e-06 (budget 2.00e-06)  0.500 s");
}

}  // namespace
}  // namespace srcc
