// When a run keeps its inputs' charges: on the CPU and on one GPU; over several GPUs (whose
// split of the sketch is dense) it computes dense and says why in its note, as it does for an
// input without charges.
#include <gtest/gtest.h>

#include "srcc/session/symmetric_run.hpp"
#include "srcc/train/charged_examples.hpp"

namespace srcc {
namespace {

TEST(SymmetryChoice, KeepsChargesOnTheCpuAndOneGpuNotOverSeveral) {
  const std::size_t n = 6;
  const std::vector<std::vector<LayerCharges>> product{
      {{spin_half_charges(n, TrainKind::kMpo), "h.h5:/H"}, {spin_half_charges(n, TrainKind::kMps), "psi.h5:/psi"}}};
  RunOptions o;
  const SymmetryChoice cpu = choose_symmetry(o, product);
  EXPECT_TRUE(cpu.keep);
  EXPECT_EQ(cpu.name, "U(1)");
  o.exec.device.gpu = true;
  o.exec.device.ids = {0};
  const SymmetryChoice one = choose_symmetry(o, product);
  EXPECT_TRUE(one.keep) << one.note;
  o.exec.device.ids = {0, 1};
  const SymmetryChoice two = choose_symmetry(o, product);
  EXPECT_FALSE(two.keep);
  EXPECT_NE(two.note.find("several GPUs"), std::string::npos) << two.note;
  EXPECT_NE(two.note.find("the run is dense"), std::string::npos) << two.note;
  const std::vector<std::vector<LayerCharges>> mixed{{{std::nullopt, "h.h5:/H"}, {spin_half_charges(n, TrainKind::kMps), "psi.h5:/psi"}}};
  o.exec.device.ids = {0};
  const SymmetryChoice plain = choose_symmetry(o, mixed);
  EXPECT_FALSE(plain.keep);
  EXPECT_NE(plain.note.find("h.h5:/H carries no charges"), std::string::npos) << plain.note;
}

}  // namespace
}  // namespace srcc
