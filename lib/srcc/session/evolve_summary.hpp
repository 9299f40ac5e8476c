#pragma once
// What an evolution did: its steps, the last state's norm and bond, the error budget, the work,
// time and memory (--json prints it; /log keeps it).
#include <cstdint>
#include <string>
#include <vector>

#include "srcc/backend/gemm_profile.hpp"

namespace srcc {

struct EvolveSummary {
  std::string output;
  std::size_t steps = 0, steps_done = 0, resumed_from = 0;
  std::string symmetry;  // the charges the steps computed on ("U(1)"…); "" = dense
  double norm = 0;                 // of the last state, before any normalisation (inf/0 beyond a double)
  double log10_norm = 0;           // its base-10 logarithm
  bool normalized = false;         // --normalize: the last state was then scaled to norm 1
  double error_budget = 0;         // the steps' estimated errors summed (relative)
  std::int64_t max_bond = 0;       // of the last state
  double wall_seconds = 0, sweep_seconds = 0, measure_seconds = 0, checkpoint_seconds = 0;
  double sweep_flops = 0, measure_flops = 0;  // real flops of their GEMMs (complex multiply-add: 8)
  std::size_t checkpoints = 0;
  std::int64_t peak_rss_bytes = 0;
  std::vector<GemmTiming> gemm_profile;  // with RunOptions::profile_gemm: every step's GEMMs
  std::string to_json() const;
};

}  // namespace srcc
