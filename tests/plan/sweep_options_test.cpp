// Tests of the accuracy options (lib/srcc/plan/sweep_options.cpp): the sketch size formula and
// every range check, each naming its flag.
#include "srcc/plan/sweep_options.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>

#include "srcc/core/error.hpp"

namespace srcc {
namespace {

SweepOptions chi(std::size_t c) {
  SweepOptions o;
  o.chi = c;
  return o;
}

TEST(SweepOptions, SketchColumnsFollowTheDocumentedFormula) {
  EXPECT_EQ(chi(40).sketch_columns(), 40u);
  auto o = chi(40);
  o.oversample = 1.5;
  EXPECT_EQ(o.sketch_columns(), 60u);  // ⌈1.5·40⌉
  o.chi = 8;
  EXPECT_EQ(o.sketch_columns(), 18u);  // χ̄ + 10 wins
  o.chi = 40;
  o.oversample = 3.7;
  EXPECT_EQ(o.sketch_columns(), 148u);
  EXPECT_EQ(chi(0).sketch_columns(), 0u) << "no cap in tolerance mode without --chi";
}

void expect_usage(const SweepOptions& o, const std::string& flag) {
  try {
    validate(o);
    ADD_FAILURE() << "accepted; expected an error naming " << flag;
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(flag + ":", 0), 0u) << e.what();
  }
}

TEST(SweepOptions, EachBadValueNamesItsFlag) {
  EXPECT_NO_THROW(validate(chi(4)));
  struct Case {
    std::size_t chi;
    std::function<void(SweepOptions&)> set;
    const char* flag;
  };
  const Case cases[] = {
      {0, [](SweepOptions&) {}, "--chi"},
      {4, [](SweepOptions& o) { o.cutoff = 1.0; }, "--cutoff"},
      {4, [](SweepOptions& o) { o.tol = std::numeric_limits<double>::quiet_NaN(); }, "--tol"},
      {4, [](SweepOptions& o) { o.oversample = 0.5; }, "--oversample"},
      {0, [](SweepOptions& o) { o.oversample = 2; }, "--chi"},
      {4, [](SweepOptions& o) { o.block_start = 0; }, "--block-start"},
      {4, [](SweepOptions& o) { o.block_step = 0; }, "--block-step"},
      {kMaxChi + 1, [](SweepOptions&) {}, "--chi"},
  };
  for (const auto& c : cases) {
    SweepOptions o = chi(c.chi);
    c.set(o);
    expect_usage(o, c.flag);
  }
  // Tolerance mode needs no --chi; a deterministic truncation takes --cutoff alone.
  SweepOptions o = chi(0);
  o.tol = 1e-6;
  EXPECT_NO_THROW(validate(o));
  o = chi(0);
  o.cutoff = 1e-3;
  expect_usage(o, "--chi");  // a sweep needs --chi, a --cutoff is no size
  o.method = Method::kSvd;
  EXPECT_NO_THROW(validate(o));
  o.cutoff = 0;
  expect_usage(o, "--chi");
}

}  // namespace
}  // namespace srcc
