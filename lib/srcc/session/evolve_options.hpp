#pragma once
// What an evolution is asked to do (evolve.hpp): the step and the state, how many steps, what is
// measured and saved, checkpoints and resuming, a --taylor step.
#include <cstdint>
#include <optional>
#include <vector>

#include "srcc/session/run_options.hpp"
#include "srcc/train/train.hpp"

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
  std::vector<std::string> measure_site_ops;  // --measure-site-op: ⟨O_i⟩ at every site
  bool measure_entropy = false;       // --measure-entropy: the von Neumann entropy at every bond
  std::string site;                   // --site: the site type of the named operators ("": by dimension)
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

}  // namespace srcc
