#include "srcc/session/run_summary.hpp"

#include "srcc/core/json.hpp"

namespace srcc {

namespace {
std::vector<double> gflop_of(const std::vector<double>& flops) {
  std::vector<double> out;
  for (double f : flops) out.push_back(f / 1e9);
  return out;
}
}  // namespace

std::string RunSummary::to_json() const {
  JsonObject by_mech;
  for (const auto& [k, v] : bytes_by_mechanism) by_mech.add(k, v);
  JsonObject o;
  o.add("output", output)
      .add("result", std::string(train_kind_name(kind)))
      .add("sites", sites)
      .add_raw("bonds", json_array(bonds))
      .add("max_bond", max_bond)
      .add("norm", norm)
      .add("log10_norm", log10_norm)
      .add("error_estimate", error_estimate)
      .add("capped_cuts", capped_cuts)
      .add("method", method)
      .add("fit_sweeps", static_cast<std::uint64_t>(fit_sweeps))
      .add_raw("fit", fit_json.empty() ? "[]" : fit_json)
      .add("terms", static_cast<std::uint64_t>(terms))
      .add("symmetry", symmetry.empty() ? std::string("dense") : symmetry)
      .add("max_sectors", static_cast<std::uint64_t>(max_sectors))
      .add("output_format", output_format)
      .add("dropped_weight", dropped_weight)
      .add("truncated_weight", truncated_weight)
      .add("dtype", std::string(dtype_name(dtype)))
      .add("seed", seed)
      .add("threads", threads)
      .add("threads_source", threads_source)
      .add("sweep_seconds", sweep_seconds)
      .add("write_seconds", write_seconds)
      .add("wall_seconds", wall_seconds)
      .add("gflop", flops / 1e9)
      .add("gflops_per_second", sweep_seconds > 0 ? flops / 1e9 / sweep_seconds : 0.0)
      .add("peak_rss_bytes", peak_rss_bytes)
      .add("device_peak_bytes", device_peak_bytes)
      .add("ranks", ranks)
      .add_raw("rank_gflop", json_array(gflop_of(rank_flops)))
      .add_raw("rank_peak_rss_bytes", json_array(rank_peak_rss_bytes))
      .add_raw("bytes_by_mechanism", by_mech.str());
  if (!gemm_profile.empty()) o.add_raw("gemm_profile", GemmProfile::json(gemm_profile));
  return o.str();
}

}  // namespace srcc
