#pragma once
// What the sweep takes and gives: the stack's tensor data, a term of a sum, and the result with
// its per-site figures (sweep.hpp runs it).
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "srcc/core/tensor.hpp"
#include "srcc/log/site_stats.hpp"
#include "srcc/plan/plan.hpp"
#include "srcc/train/site_source.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

// The stack's tensor data in the working type: sites[layer][site], internal (l, r, u, d).
template <class T> struct StackData {
  Stack stack;
  std::vector<std::vector<Tensor<T>>> sites;
};

// The product as a train: cores in (l, r, u, d) order; cores 1 … n-1 right-orthonormal,
// core 0 carries the norm. For an MPS result d = 1.
template <class T> struct SweepResult {
  TrainKind kind = TrainKind::kMps;
  std::vector<Tensor<T>> cores;
  // The product is e^{log_scale} times the train of `cores`: 0 unless its norm lies beyond the
  // working type (core 0 is then at unit norm; see apply_log_scale).
  double log_scale = 0;
  std::vector<SiteStats> sites;
  double flops = 0;  // real floating-point operations of the GEMMs (complex multiply-add = 8)
  // Global relative error estimate: the per-cut estimates combined in quadrature (NaN-free;
  // 0 where every cut is exact).
  double error_estimate = 0;
  std::int64_t capped_cuts = 0;  // tolerance mode: cuts whose sketch hit --chi before tol
  // False where the method gives no per-cut estimate (sdc, sdcr, after fit sweeps): the global
  // estimate is then NaN, never a 0 that would read as exact.
  bool estimated = true;
  // The fit sweeps run (--fit-sweeps), in order.
  struct FitSweep {
    double norm = 0;     // ‖φ_k‖ after the sweep
    double gain = 0;     // √|‖φ_k‖² − ‖φ_{k−1}‖²| / ‖φ_k‖: the error the sweep removed, relative
    double error_estimate = 0;  // the estimate left after it (src's less the gains; NaN without one)
    double seconds = 0;
  };
  std::vector<FitSweep> fit;

  // Once the cores and each site's error estimate are final: each site's index and bonds from
  // the cores, and the global estimate from the per-cut ones.
  // The sites' bonds from the cores (a result held only in blocks has set them itself).
  void finish_sites() {
    double err2 = 0;
    for (std::size_t j = 0; j < sites.size(); ++j) {
      auto& s = sites[j];
      s.site = static_cast<std::int64_t>(j);
      if (j < cores.size()) {
        s.bond_left = static_cast<std::int64_t>(cores[j].shape[kLegL]);
        s.bond_right = static_cast<std::int64_t>(cores[j].shape[kLegR]);
      }
      if (std::isfinite(s.error_estimate)) err2 += s.error_estimate * s.error_estimate;
    }
    error_estimate = estimated ? std::sqrt(err2) : std::numeric_limits<double>::quiet_NaN();
  }
};

// One term c·A·ψ of a sum: its stack, where its sites come from, its weight and its plan (may
// be null: everything in memory, unbatched).
template <class T> struct SweepTerm {
  const Stack* stack = nullptr;
  SiteSource<T>* source = nullptr;
  T weight = T(1);
  const Plan* plan = nullptr;
};

}  // namespace srcc
