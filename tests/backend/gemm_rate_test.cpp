// The GEMM rate a plan's time prediction uses (lib/srcc/backend/gemm_rate.cpp): a positive,
// finite rate for every element type, a complex multiply-add counted as four real ones.
#include "srcc/backend/gemm_rate.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "srcc/backend/cpu/cpu_backend.hpp"

namespace srcc {
namespace {

TEST(GemmRate, PositiveAndFiniteForEveryType) {
  auto cpu = make_cpu_backend(1);
  for (DType dt : {DType::kFloat32, DType::kFloat64, DType::kComplex64, DType::kComplex128}) {
    const double rate = measure_gemm_rate(*cpu, dt);
    EXPECT_GT(rate, 1e8) << dtype_name(dt) << ": any machine since the 1990s does 0.1 GFLOP/s";
    EXPECT_TRUE(std::isfinite(rate)) << dtype_name(dt);
  }
}

}  // namespace
}  // namespace srcc
