#include "srcc/session/evolve_summary.hpp"

#include "srcc/core/json.hpp"

namespace srcc {

std::string EvolveSummary::to_json() const {
  JsonObject o;
  o.add("output", output)
      .add("steps", steps)
      .add("steps_done", steps_done)
      .add("symmetry", symmetry.empty() ? std::string("dense") : symmetry)
      .add("resumed_from", resumed_from)
      .add("norm", norm)
      .add("log10_norm", log10_norm)
      .add("normalized", normalized)
      .add("error_budget", error_budget)
      .add("max_bond", max_bond)
      .add("wall_seconds", wall_seconds)
      .add("sweep_seconds", sweep_seconds)
      .add("measure_seconds", measure_seconds)
      .add("sweep_flops", sweep_flops)
      .add("measure_flops", measure_flops)
      .add("checkpoint_seconds", checkpoint_seconds)
      .add("checkpoints", checkpoints)
      .add("peak_rss_bytes", peak_rss_bytes);
  if (!gemm_profile.empty()) o.add_raw("gemm_profile", GemmProfile::json(gemm_profile));
  return o.str();
}

}  // namespace srcc
