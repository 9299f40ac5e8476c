// The stages every entry point shares (lib/srcc/session/stages.cpp): the working type and its
// refusals, χ̄ capped at what a product can hold (oversampling then dropped), and a sum's plans,
// each for its share of the budgets and named in a refusal.
#include "srcc/session/stages.hpp"

#include <gtest/gtest.h>

#include "srcc/core/error.hpp"

namespace srcc {
namespace {

TrainInfo train(TrainKind kind, std::size_t n, std::size_t bond, DType dt, const std::string& group) {
  TrainInfo t;
  t.file = "memory";
  t.group = group;
  t.kind = kind;
  for (std::size_t j = 0; j < n; ++j) {
    t.dims.push_back({j == 0 ? 1 : bond, j + 1 == n ? 1 : bond, 2, kind == TrainKind::kMps ? 1u : 2u});
    t.dtypes.push_back(dt);
  }
  return t;
}

TEST(Stages, TheWorkingTypeIsPromotedAndARealOneNeverDropsAnImaginaryPart) {
  Stack s{{train(TrainKind::kMpo, 6, 3, DType::kFloat32, "/H"), train(TrainKind::kMps, 6, 4, DType::kComplex64, "/psi")}};
  RunOptions o;
  EXPECT_EQ(working_dtype(o, s), DType::kComplex64);
  o.dtype = DType::kComplex128;
  EXPECT_EQ(working_dtype(o, s), DType::kComplex128);
  o.dtype = DType::kFloat64;
  EXPECT_THROW(working_dtype(o, s), UsageError);
  // A sum with a complex weight is complex.
  Stack real{{train(TrainKind::kMps, 6, 4, DType::kFloat64, "/psi")}};
  o.dtype.reset();
  o.terms = {{{0, 1}, {}}};
  EXPECT_EQ(working_dtype(o, std::vector<const Stack*>{&real}), DType::kComplex128);
}

TEST(Stages, ChiIsCappedAtTheLargestBondTheProductCanHave) {
  Stack s{{train(TrainKind::kMpo, 6, 2, DType::kFloat64, "/H"), train(TrainKind::kMps, 6, 3, DType::kFloat64, "/psi")}};
  RunOptions o;
  o.sweep.chi = 100;
  o.sweep.oversample = 2;
  const RunOptions f = fitted(o, s, nullptr);
  EXPECT_EQ(f.sweep.chi, 6u) << "2·3";
  EXPECT_EQ(f.sweep.oversample, 0) << "exact: nothing for oversampling to improve";
  o.sweep.chi = 4;
  EXPECT_EQ(fitted(o, s, nullptr).sweep.chi, 4u);
}

TEST(Stages, ASumsTermsArePlannedForTheirShareAndNamedWhenRefused) {
  const Stack a{{train(TrainKind::kMpo, 8, 4, DType::kFloat64, "/H"), train(TrainKind::kMps, 8, 16, DType::kFloat64, "/psi")}};
  const Stack b{{train(TrainKind::kMps, 8, 16, DType::kFloat64, "/phi")}};
  SweepOptions sweep;
  sweep.chi = 16;
  Budgets whole;
  whole.host_bytes = std::uint64_t{1} << 34;
  whole.scratch_dir = "/tmp";
  whole.scratch_bytes = std::uint64_t{1} << 34;
  const Plan p0 = plan_term({&a, &b}, 0, sweep, DType::kFloat64, 1, whole, false);
  EXPECT_EQ(p0.budgets.host_bytes, share_of(whole, 2).host_bytes);
  EXPECT_GT(p0.predicted_flops, 0);
  whole.host_bytes = 1024;
  whole.scratch_bytes = 0;
  try {
    (void)plan_term({&a, &b}, 1, sweep, DType::kFloat64, 1, whole, false);
    ADD_FAILURE() << "planned within 1 KiB";
  } catch (const ResourceError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("term 2 of 2", 0), 0u) << e.what();
  }
}

}  // namespace
}  // namespace srcc
