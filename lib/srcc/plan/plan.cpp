#include "srcc/plan/plan.hpp"

#include <algorithm>
#include <cstdio>

#include "srcc/core/json.hpp"

namespace srcc {

Plan make_plan(const Stack& stack, const SweepOptions& sweep, DType dtype, int threads) {
  Plan p;
  p.sites = stack.length();
  p.depth = stack.depth();
  p.result_kind = stack.result_kind();
  p.dtype = dtype;
  p.sweep = sweep;
  p.sketch_columns = sweep.sketch_columns();  // tolerance mode: the cap (0 = none)
  p.exact_two_site = p.sites == 2;
  p.threads = threads;
  const std::size_t esize = dtype_size(dtype), s = p.sketch_columns;
  for (const auto& layer : stack.layers)
    for (const auto& d : layer.dims) p.input_bytes += d[0] * d[1] * d[2] * d[3] * esize;
  for (std::size_t j = 0; j < p.sites; ++j) {
    const std::size_t nl = stack.fused_left(j), nr = stack.fused_right(j);
    const std::size_t u = stack.up_dim(j), dd = stack.down_dim(j);
    // Tolerance mode without a cap may grow a sketch up to the fused bond.
    const std::size_t sj = s > 0 ? s : nr;
    if (!p.exact_two_site && j + 1 < p.sites) p.environment_bytes += sj * nr * esize;
    // Left sweep: the Khatri–Rao block and, per layer, its image (bonds replaced left to right).
    std::size_t left = s * u * nl * dd, lead = s, trail = nl * dd;
    for (const auto& layer : stack.layers) {
      const auto& d = layer.dims[j];
      trail /= d[kLegL];
      lead *= d[kLegR];
      left = std::max(left, lead * d[kLegD] * trail);
    }
    // Right sweep: Z'[(b, u, d), L] with b at most χ̄ (and at most what the right side holds).
    const std::size_t bond = sweep.chi > 0 ? sweep.chi : nr;
    const std::size_t right = bond * u * dd * nl;
    p.largest_block_bytes = std::max({p.largest_block_bytes, left * esize, right * esize});
  }
  // Inputs, environments, and the input and output of the largest step plus the sketch.
  p.peak_bytes = p.input_bytes + p.environment_bytes + 3 * p.largest_block_bytes;
  return p;
}

std::string Plan::to_json() const {
  JsonObject o;
  o.add("sites", sites)
      .add("depth", depth)
      .add("result", std::string(train_kind_name(result_kind)))
      .add("dtype", std::string(dtype_name(dtype)))
      .add("chi", sweep.chi)
      .add("cutoff", sweep.cutoff)
      .add("oversample", sweep.oversample)
      .add("tol", sweep.tol)
      .add("block_start", sweep.block_start)
      .add("block_step", sweep.block_step)
      .add("seed", sweep.seed)
      .add("sketch_columns", sketch_columns)
      .add("exact_two_site", exact_two_site)
      .add("device", device)
      .add("threads", threads)
      .add("input_bytes", input_bytes)
      .add("environment_bytes", environment_bytes)
      .add("largest_block_bytes", largest_block_bytes)
      .add("peak_bytes", peak_bytes);
  return o.str();
}

std::string Plan::to_text() const {
  char buf[1024];
  std::snprintf(buf, sizeof buf,
                "plan: %zu sites, %zu trains → %s, %s on %s (%d BLAS threads)\n"
                "  chi %zu, cutoff %g, oversample %g, tol %g, sketch columns %zu%s, seed %llu\n"
                "  memory: inputs %.3g MB, environments %.3g MB, largest step %.3g MB, "
                "predicted peak %.3g MB\n",
                sites, depth, std::string(train_kind_name(result_kind)).c_str(),
                std::string(dtype_name(dtype)).c_str(), device.c_str(), threads, sweep.chi,
                sweep.cutoff, sweep.oversample, sweep.tol, sketch_columns, exact_two_site ? " (exact two-site path)" : "",
                static_cast<unsigned long long>(sweep.seed), input_bytes / 1e6,
                environment_bytes / 1e6, largest_block_bytes / 1e6, peak_bytes / 1e6);
  return buf;
}

}  // namespace srcc
