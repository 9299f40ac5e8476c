#pragma once
// run(): the one place that chains the stages of a product or compression:
//   read trains → validate → plan → sweep → write result + log (atomically).
#include <functional>
#include <string>
#include <vector>

#include "srcc/log/reporter.hpp"
#include "srcc/plan/plan.hpp"
#include "srcc/session/rank_share.hpp"
#include "srcc/session/run_options.hpp"
#include "srcc/session/run_summary.hpp"

namespace srcc {


// The files the run reads (its trains'), for the check that the output is none of them.
std::vector<std::string> input_files(const RunOptions& options);

// Reads the stack's metadata and returns the plan, without reading tensor data.
Plan plan_run(const RunOptions& options);
// The same for each term of a sum (one plan for a product): the terms share the budgets in
// equal parts.
std::vector<Plan> plan_terms(const RunOptions& options);
// The dry run's view of `ranks` MPI ranks (rank_share.hpp), from the run's `plans` (plan_terms):
// each rank's terms or columns, their memory and flops, and the bytes the ranks exchange (or why
// the run is rank 0's alone).
RankPlan rank_plan(const RunOptions& options, const std::vector<Plan>& plans, int ranks);
// What a dry run says of the charges: that the run computes on them (its plan being the dense
// run's, a bound on memory and flops), or why charged inputs are computed dense; "" otherwise.
std::string symmetry_note(const RunOptions& options);
// Computes the product and writes it; throws an srcc::Error on failure, leaving no output
// under the final name. `check_interrupt` is called between sites and throws to stop.
RunSummary run(const RunOptions& options, Reporter& reporter,
               const std::function<void()>& check_interrupt = [] {});

}  // namespace srcc
