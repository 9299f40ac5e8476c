#pragma once
// What a sweep will compute, from the shapes alone: the multiply-adds of its GEMMs, in real
// flops, and the time they take at a GEMM rate. An estimate for planning (--dry-run, the
// warning before a run predicted to outlast --max-time or an hour), within a few percent of
// what a fixed-size run counts (tests/plan/flops_test.cpp): several MPOs above the state are
// counted as one MPO of their fused bond, ranks as their bounds (a rank-deficient product does
// less), and factorisations (QR, SVD) are not GEMMs and not counted.
#include <cstddef>
#include <vector>

#include "srcc/core/dtype.hpp"
#include "srcc/plan/sweep_options.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

// Real flops (a complex multiply-add is 8, a real one 2) of the method of `sweep` over `stack`
// with `sketch_columns` columns (s; tolerance mode: its cap) at every cut: the left sweep (src's
// sketch, or the dense step and the method's reduction), the right sweep, the truncation sweep
// of an oversampled or --tol run, and every fit sweep --fit-sweeps allows; for truncate (svd),
// its canonicalisation and truncation.
double needed_flops(const Stack& stack, const SweepOptions& sweep, std::size_t sketch_columns, DType dtype);
// Term k's part of a sum of `terms` (one sweep): its own products at the sum's bonds, with the
// environments' ranks and sdc's joint reduction of the terms.
double needed_flops(const std::vector<const Stack*>& terms, std::size_t k, const SweepOptions& sweep,
                    std::size_t sketch_columns, DType dtype);

// Seconds the sweep takes at `gemm_rate` flops/s (measure_gemm_rate's order-384 GEMM): a range,
// since the sweep runs at 25-100% of that rate (small bonds at the low end; large ones near
// the top, docs/PERFORMANCE.md).
struct PredictedTime {
  double fastest = 0, slowest = 0;
};
inline constexpr double kSweepRateBest = 1.0, kSweepRateWorst = 0.25;
PredictedTime predicted_time(double flops, double gemm_rate);

}  // namespace srcc
