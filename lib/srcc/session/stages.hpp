#pragma once
// The stages every entry point chains (run(), evolve(), their dry runs): the working type, the
// capping of χ̄ to what a product can hold, the budgets, backends and plans, and --profile-gemm.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "srcc/backend/backend.hpp"
#include "srcc/backend/gemm_profile.hpp"
#include "srcc/log/reporter.hpp"
#include "srcc/plan/plan.hpp"
#include "srcc/session/run_options.hpp"

namespace srcc {

// The working element type: --dtype, or the stack's promoted type. Throws UsageError when a real
// --dtype would drop an input's imaginary part.
DType working_dtype(const RunOptions& o, const Stack& stack);
// A sum's (RunOptions::terms): promoted over its terms, complex where a weight is.
DType working_dtype(const RunOptions& o, const std::vector<const Stack*>& stacks);
// `dt` made complex for complex weights; a real --dtype is refused with `why`.
DType complex_for_weights(const RunOptions& o, DType dt, const std::string& why);
// Notes a single-precision working type `dt` that came from the inputs (no --dtype): its
// rounding is near 1e-7, not 1e-16, which a user with float32 files may not expect.
void note_working_dtype(const RunOptions& o, DType dt, Reporter& reporter);

// `given` with --chi capped at the largest bond the stack's product can have (the sweep is exact
// from there on; oversampling then has nothing to improve and is dropped). With a reporter, a
// warning says so.
RunOptions fitted(const RunOptions& given, const Stack& stack, Reporter* reporter);
// The same for a sum: the largest bond its terms' products can add up to (sum_bond_bounds).
RunOptions fitted(const RunOptions& given, const std::vector<const Stack*>& stacks, Reporter* reporter);

// The budgets (given or detected), the backends (one per device, made when `make` is set or a
// device budget must be measured) and the plan for the stack, in that order.
std::pair<Plan, std::vector<std::unique_ptr<Backend>>> plan_and_backend(const RunOptions& o,
                                                                        const Stack& stack,
                                                                        DType dt, bool make);
// Term `term` of a sum of `terms`: its plan for an equal share of the `whole` budgets (the whole
// for a product); a ResourceError names the term and its share.
Plan plan_term(const std::vector<const Stack*>& stacks, std::size_t term, const SweepOptions& sweep, DType dt,
               int threads, const Budgets& whole, bool on_device);
// The same for a sum: a plan per term, each for an equal share of the budgets.
std::pair<std::vector<Plan>, std::vector<std::unique_ptr<Backend>>> plans_and_backend(
    const RunOptions& o, const std::vector<const Stack*>& stacks, DType dt, bool make);

// The plans a dry run shows for these stacks (a product's one, a sum's per term), with the GEMM
// rate measured for the predicted time on a CPU.
std::vector<Plan> dry_run_plans(const RunOptions& given, const std::vector<const Stack*>& stacks, DType dt);

// Before a long run (`plans` of one product or a sum's terms, on a CPU; an evolution's first step,
// done `steps` times): its predicted work and time at the GEMM rate measured now (recorded in the
// plans), and a warning when even the fastest run the prediction allows outlasts --max-time or
// an hour.
void warn_if_long(const RunOptions& o, std::vector<Plan>& plans, Backend& backend, Reporter& reporter,
                  std::size_t steps = 1);

// Just before the work: what could not be checked (`notes`) said as warnings, and the scratch
// directories of earlier runs on this machine whose process is gone removed (and named).
void before_work(const std::vector<std::string>& notes, const Budgets& budgets, Reporter& reporter);

// --profile-gemm over a run: the backend times every GEMM into the profile from construction on
// (with a warning where it cannot: a GPU queues its GEMMs), and stops however the run ends.
class GemmProfiling {
 public:
  GemmProfiling(Backend& backend, bool on, Reporter& reporter);
  ~GemmProfiling();
  GemmProfiling(const GemmProfiling&) = delete;
  GemmProfiling& operator=(const GemmProfiling&) = delete;
  // Stops the timing; the GEMMs by shape (empty when off).
  std::vector<GemmTiming> finish();

 private:
  Backend* backend_ = nullptr;  // null when off
  GemmProfile profile_;
};

}  // namespace srcc
