#pragma once
// What a sweep will compute, from the shapes alone: the multiply-adds of docs/PERFORMANCE.md's
// table ("The flops the algorithm needs"), in real flops, and the time they take at a GEMM rate.
// An estimate for planning (--dry-run, the warning before a run predicted to outlast --max-time
// or an hour): several MPOs above the state are counted as one MPO of their fused bond (an
// upper bound), factorisations are not counted.
#include <cstddef>

#include "srcc/core/dtype.hpp"
#include "srcc/plan/sweep_options.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

// Real flops of the SRC sweep over `stack` with `sketch_columns` columns at every cut (a
// complex multiply-add is 8 flops, a real one 2).
double needed_flops(const Stack& stack, std::size_t sketch_columns, std::size_t chi, DType dtype);

// Seconds the sweep takes at `gemm_rate` flops/s (measure_gemm_rate's order-384 GEMM): a range,
// since the sweep runs at 25-100% of that rate (small bonds at the low end; large ones near
// the top, docs/PERFORMANCE.md).
struct PredictedTime {
  double fastest = 0, slowest = 0;
};
inline constexpr double kSweepRateBest = 1.0, kSweepRateWorst = 0.25;
PredictedTime predicted_time(double flops, double gemm_rate);

}  // namespace srcc
