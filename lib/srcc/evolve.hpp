#pragma once
// evolve(): a time evolution (or any repeated product) in one process: the step — one MPO or a
// stack, as apply takes them — applied N times to a state held in memory, compressed after each
// step with the accuracy controls of apply, observables measured after each step, the trajectory
// and chosen states written to one output file with checkpoints that a later run resumes from.
// docs/FORMAT.md, "The output of evolve", describes the file; docs/USAGE.md the flags.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "srcc/log/reporter.hpp"
#include "srcc/run.hpp"

namespace srcc {

struct EvolveOptions {
  RunOptions run;                     // trains: the step's MPOs (top first), then the state; the
                                      // output, accuracy (the seed is the base of each step's),
                                      // working type, threads, budgets, device
  std::size_t steps = 0;              // --steps N, >= 1
  bool normalize = false;             // --normalize: the state brought back to norm 1 after each step
  double dt = 0;                      // --dt: the time one step stands for (labels the time column;
                                      // 0: time = step number)
  std::vector<TrainRef> measure;      // --measure: MPOs whose ⟨O⟩ is measured after every step
  std::optional<TrainRef> overlap;    // --overlap: an MPS whose ⟨ref|ψ⟩ is measured too
  std::size_t measure_every = 1;      // --measure-every M: observables after steps M, 2M, … and the last
  std::size_t save_every = 0;         // --save-every M: /states/M, /states/2M, … (0: none)
  std::size_t checkpoint_every = 0;   // --checkpoint-every K steps (0: by time, as below)
  bool resume = false;                // --resume: continue the evolution the output holds
  bool seed_of_resumed = false;       // … drawing from its seed (no --seed given), not run.sweep.seed
  // --taylor K (0: off): the trains before the state are the Hamiltonian H, and each step is
  // Σ_{m≤K} c_m H^m ψ with c_m = (−i·dt)^m/m! (--imaginary-time: (−dt)^m/m!), compressed as one
  // sum of K+1 products in one sweep (run_sweep over SweepTerms).
  std::size_t taylor = 0;
  bool imaginary_time = false;
};

// The last term stacks H that many times: its environments hold s·D^K·χ numbers for H of bond D.
inline constexpr std::size_t kMaxTaylorOrder = 8;

// Without --checkpoint-every, the output is brought up to date every kCheckpointSeconds, so that
// a killed job loses little of its work, or less often where one checkpoint takes more than
// kCheckpointShare of that (a large file of saved states: each checkpoint rewrites it).
inline constexpr double kCheckpointSeconds = 60;
inline constexpr double kCheckpointShare = 0.1;
// States saved by --save-every wait in memory for the next checkpoint, which comes early when
// they reach 1/kHeldStatesShare of the host budget.
inline constexpr std::uint64_t kHeldStatesShare = 8;

struct EvolveSummary {
  std::string output;
  std::size_t steps = 0, steps_done = 0, resumed_from = 0;
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

// The stacks of a --taylor step of `order` K from the step's stack (H's MPOs over the state):
// term m is H^m ψ, H's layers m times over the state.
std::vector<Stack> taylor_stacks(const Stack& step, std::size_t order);

// The plans of the first step, without reading tensor data (--dry-run): the product's, or a
// --taylor step's per term (each for its share of the budgets, its flops at the sum's bonds).
std::vector<Plan> plan_evolve(const EvolveOptions& options);

// Throws an srcc::Error on failure. A stop (SIGINT/SIGTERM, --max-time) between steps writes a
// checkpoint first, then throws InterruptedError: the output holds every finished step.
EvolveSummary evolve(const EvolveOptions& options, Reporter& reporter,
                     const std::function<void()>& check_interrupt = [] {});

}  // namespace srcc
