#pragma once
// evolve(): a time evolution (or any repeated product) in one process: the step — one MPO or a
// stack, as apply takes them — applied N times to a state held in memory, compressed after each
// step with the accuracy controls of apply, observables measured after each step, the trajectory
// and chosen states written to one output file with checkpoints that a later run resumes from.
// docs/FORMAT.md, "The output of evolve", describes the file; docs/USAGE.md the flags.
#include <functional>
#include <vector>

#include "srcc/log/reporter.hpp"
#include "srcc/plan/plan.hpp"
#include "srcc/session/evolve_options.hpp"
#include "srcc/session/evolve_summary.hpp"

namespace srcc {

// The plans of the first step, without reading tensor data (--dry-run): the product's, or a
// --taylor step's per term (each for its share of the budgets, its flops at the sum's bonds).
std::vector<Plan> plan_evolve(const EvolveOptions& options);
// What the dry run says of the charges (symmetric_run.hpp's plan_symmetry_note for the step).
std::string evolve_symmetry_note(const EvolveOptions& options);

// Throws an srcc::Error on failure. A stop (SIGINT/SIGTERM, --max-time) between steps writes a
// checkpoint first, then throws InterruptedError: the output holds every finished step.
EvolveSummary evolve(const EvolveOptions& options, Reporter& reporter,
                     const std::function<void()>& check_interrupt = [] {});

}  // namespace srcc
