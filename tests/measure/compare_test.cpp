// The distance command's work on two files (lib/srcc/measure/compare.cpp) against dense
// vectors: numbers beyond a double, trains in different types and layouts, and trains that
// cannot be compared.
#include "srcc/measure/compare.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "../support/dense.hpp"
#include "../support/h5_fixture.hpp"
#include "../support/stacks.hpp"
#include "srcc/core/error.hpp"
#include "srcc/core/text.hpp"
#include "srcc/measure/overlap.hpp"

namespace srcc::test {
namespace {

TEST(Compare, NumbersBeyondADoublePrintInFull) {
  EXPECT_EQ(format_log10(-777.5288360055746), "2.959130e-778");
  EXPECT_EQ(format_log10(2.0), "1.000000e+02");
  EXPECT_EQ(format_log10(-std::numeric_limits<double>::infinity()), "0");
  EXPECT_EQ(format_log10(std::log10(9.99999999)), "1.000000e+01");
}

// Two files, one float32 MPS stored "lpr" and one complex128 MPS stored "lrp": compared in the
// promoted type, the numbers equal those of the dense vectors.
TEST(Compare, TwoFilesInDifferentTypesAndLayouts) {
  TempDir dir;
  const auto a = random_train<cdouble>(TrainKind::kMps, 6, 3, 2, 1);
  auto b = random_train<cdouble>(TrainKind::kMps, 6, 2, 2, 2);
  for (auto& c : b)  // real values, stored as float32 below: exactly representable after the cast
    for (auto& v : c.data) v = cdouble(static_cast<float>(v.real()), 0.0);
  RawTrain ra = stored_train(a, true, "lrp", true, "/a");
  ra.dtype = DType::kComplex128;
  RawTrain rb = stored_train(b, true, "lpr", true, "/b");
  rb.dtype = DType::kFloat32;
  write_raw_train(dir / "t.h5", ra);
  write_raw_train(dir / "t.h5", rb);
  const Comparison c = compare(TrainRef{(dir / "t.h5").string(), "/a"},
                               TrainRef{(dir / "t.h5").string(), "/b"}, 0, [] { return make_cpu_backend(1); });
  const auto va = dense_vector(a), vb = dense_vector(b);
  cdouble dot = 0;
  double diff = 0;
  for (std::size_t i = 0; i < va.size(); ++i) {
    dot += std::conj(va[i]) * vb[i];
    diff += std::norm(va[i] - vb[i]);
  }
  EXPECT_NEAR(c.norm_a, norm(va), 1e-12 * norm(va));
  EXPECT_NEAR(c.norm_b, norm(vb), 1e-12 * norm(vb));
  EXPECT_LT(std::abs(c.overlap - dot), 1e-12 * std::abs(dot));
  EXPECT_NEAR(c.relative_distance, std::sqrt(diff) / norm(vb), 1e-12);
}

TEST(Compare, DifferentLengthsOrLegsAreInputErrors) {
  TempDir dir;
  write_raw_train(dir / "t.h5", stored_train(random_train<cdouble>(TrainKind::kMps, 5, 2, 2, 1), true, "lrp", true, "/five"));
  write_raw_train(dir / "t.h5", stored_train(random_train<cdouble>(TrainKind::kMps, 6, 2, 2, 1), true, "lrp", true, "/six"));
  write_raw_train(dir / "t.h5", stored_train(random_train<cdouble>(TrainKind::kMps, 5, 2, 3, 1), true, "lrp", true, "/qutrits"));
  const std::string f = (dir / "t.h5").string();
  try {
    (void)compare({f, "/five"}, {f, "/six"}, 0, [] { return make_cpu_backend(1); });
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("has 5 sites but"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)compare({f, "/five"}, {f, "/qutrits"}, 0, [] { return make_cpu_backend(1); }), InputError);
}

}  // namespace
}  // namespace srcc::test
