#include "srcc/plan/flops.hpp"

#include <algorithm>

namespace srcc {

double needed_flops(const Stack& stack, std::size_t sketch_columns, std::size_t chi, DType dtype) {
  if (stack.layers.empty()) return 0;
  const TrainInfo& state = stack.layers.back();
  const std::vector<std::size_t> bounds = stack.bond_bounds();
  const std::size_t n = stack.length();
  const double s = static_cast<double>(sketch_columns);
  double macs = 0;
  for (std::size_t j = 0; j < n; ++j) {
    // The operators fused into one MPO (bonds D, output leg d_o), the state's bonds χ and legs:
    // d_c contracted with the operators, d_b its own down leg (1 for an MPS).
    double dl = 1, dr = 1;
    for (std::size_t i = 0; i + 1 < stack.depth(); ++i) {
      dl *= static_cast<double>(stack.layers[i].dims[j][kLegL]);
      dr *= static_cast<double>(stack.layers[i].dims[j][kLegR]);
    }
    const double d_o = static_cast<double>(stack.up_dim(j));
    const double d_c = static_cast<double>(state.dims[j][kLegU]);
    const double d_b = static_cast<double>(state.dims[j][kLegD]);
    const double xl = static_cast<double>(state.dims[j][kLegL]), xr = static_cast<double>(state.dims[j][kLegR]);
    // The result's bonds at the cuts left (r) and right (b) of site j.
    const double r = j == 0 ? 1 : static_cast<double>(std::min(chi, bounds[j]));
    const double b = j + 1 == n ? 1 : static_cast<double>(std::min(chi, bounds[j + 1]));
    const double left = s * (d_o * d_c * dl * dr + d_c * d_b * dl * xl * xr + d_o * d_b * dl * dr * xr);
    const double right = b * (d_c * d_b * dr * xr * xl + d_o * d_c * d_b * dl * dr * xl) +
                         s * b * d_o * d_b * dl * xl + r * b * d_o * d_b * dl * xl;
    macs += (j + 1 < n ? left : 0) + right;
  }
  return macs * (dtype_is_complex(dtype) ? 8.0 : 2.0);
}

PredictedTime predicted_time(double flops, double gemm_rate) {
  if (!(gemm_rate > 0)) return {};
  return {flops / (kSweepRateBest * gemm_rate), flops / (kSweepRateWorst * gemm_rate)};
}

}  // namespace srcc
