// Tests of comparing trains (lib/srcc/measure/overlap.cpp, compare.cpp) against dense vectors.
#include "srcc/measure/overlap.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "../support/dense.hpp"
#include "../support/h5_fixture.hpp"
#include "../support/stacks.hpp"
#include "srcc/core/error.hpp"
#include "srcc/core/text.hpp"
#include "srcc/measure/compare.hpp"

namespace srcc::test {
namespace {

template <class T> class Overlap : public ::testing::Test {};
using ScalarTypes = ::testing::Types<double, cdouble>;
TYPED_TEST_SUITE(Overlap, ScalarTypes);

TYPED_TEST(Overlap, InnerProductAndDistanceMatchDenseVectors) {
  using T = TypeParam;
  CpuOps<T> ops;
  auto& [backend, K, gemm, mover] = ops;
  const auto a = random_train<T>(TrainKind::kMpo, 5, 3, 2, 1);
  auto b = random_train<T>(TrainKind::kMpo, 5, 2, 2, 2);
  const auto va = dense_vector(a), vb = dense_vector(b);
  cdouble dot = 0;
  for (std::size_t i = 0; i < va.size(); ++i) dot += std::conj(va[i]) * vb[i];
  const cdouble got = inner_product(a, b, K);
  EXPECT_LT(std::abs(got - dot), 1e-14 * std::abs(dot) + 1e-300);
  double diff = 0;
  for (std::size_t i = 0; i < va.size(); ++i) diff += std::norm(va[i] - vb[i]);
  EXPECT_NEAR(distance(a, b, mover, gemm), std::sqrt(diff), 1e-13 * std::sqrt(diff));
  // Accurate for tiny differences, where ‖a‖² + ‖b‖² − 2 Re⟨a|b⟩ would lose half the digits.
  auto c = a;
  c[2].data[0] += T(1e-12);
  double tiny = 0;
  const auto vc = dense_vector(c);
  for (std::size_t i = 0; i < va.size(); ++i) tiny += std::norm(va[i] - vc[i]);
  EXPECT_NEAR(distance(a, c, mover, gemm), std::sqrt(tiny), 1e-3 * std::sqrt(tiny));
}

// A train of norm about 1e-600 (200 sites, each scaled by 1e-3) and the same train with one core
// scaled by 1 + ε: ‖a − b‖/‖b‖ = ε/(1 + ε) and the cosine is 1, though neither norm is a double.
TEST(Overlap, LongTrainsBeyondTheRangeOfADouble) {
  CpuOps<double> ops;
  auto a = random_train<double>(TrainKind::kMps, 200, 3, 2, 7);
  const auto small = random_train<double>(TrainKind::kMps, 200, 3, 2, 7);
  for (auto& c : a)
    for (auto& v : c.data) v *= 1e-3;
  auto b = a;
  const double eps = 1e-6;
  for (auto& v : b[100].data) v *= 1 + eps;
  const double log_na = 0.5 * inner_product_scaled(a, a, ops.K).log_abs();
  const double log_small = 0.5 * inner_product_scaled(small, small, ops.K).log_abs();
  EXPECT_TRUE(std::isfinite(log_na));
  EXPECT_NEAR(log_na, log_small + 200 * std::log(1e-3), 1e-9 * std::abs(log_na));
  EXPECT_EQ(inner_product(a, a, ops.K), cdouble(0)) << "as a plain double it underflows";
  const double log_nb = 0.5 * inner_product_scaled(b, b, ops.K).log_abs();
  const double rel = std::exp(log_distance(a, b, ops.mover, ops.gemm) - log_nb);
  EXPECT_NEAR(rel, eps / (1 + eps), 1e-6 * eps);
  const Scaled ab = inner_product_scaled(a, b, ops.K);
  EXPECT_NEAR(std::exp(ab.log_abs() - log_na - log_nb), 1.0, 1e-12);
}

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
  const auto cpu = make_cpu_backend(1);
  const Comparison c = compare(TrainRef{(dir / "t.h5").string(), "/a"},
                               TrainRef{(dir / "t.h5").string(), "/b"}, 0, *cpu);
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
    (void)compare({f, "/five"}, {f, "/six"}, 0, *make_cpu_backend(1));
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("has 5 sites but"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)compare({f, "/five"}, {f, "/qutrits"}, 0, *make_cpu_backend(1)), InputError);
}

}  // namespace
}  // namespace srcc::test
