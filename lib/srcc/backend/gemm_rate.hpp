#pragma once
// The rate of a large GEMM on a backend, measured now: what a plan's predicted time is scaled
// by (plan/flops.hpp), since a machine's speed is not known in advance (this development
// machine's ZGEMM ranges from 17 to 200 GFLOP/s between hours).
#include "srcc/backend/backend.hpp"
#include "srcc/core/dtype.hpp"

namespace srcc {

// Flops per second of a square GEMM of order 384 in `dtype` (best of three after a warm-up; a
// few ms on a CPU), or 0 where the backend queues its GEMMs on a device (no prediction there).
double measure_gemm_rate(Backend& backend, DType dtype);

}  // namespace srcc
