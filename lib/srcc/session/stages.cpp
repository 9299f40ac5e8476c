#include "srcc/session/stages.hpp"

#include "srcc/backend/gemm_rate.hpp"
#include "srcc/core/duration.hpp"
#include "srcc/core/error.hpp"
#include "srcc/core/json.hpp"
#include "srcc/core/options.hpp"
#include "srcc/core/size.hpp"
#include "srcc/core/text.hpp"
#include "srcc/core/weight.hpp"
#include "srcc/memory/policy.hpp"
#include "srcc/movement/env_store.hpp"
#include "srcc/plan/flops.hpp"
#include "srcc/train/term_sum.hpp"

namespace srcc {

void note_working_dtype(const RunOptions& o, DType dt, Reporter& reporter) {
  if (!o.dtype && (dt == DType::kFloat32 || dt == DType::kComplex64))
    reporter.note("working in " + std::string(dtype_name(dt)) + " (single precision, rounding near 1e-7) because " +
                  "every input is; --dtype " + (dt == DType::kFloat32 ? "float64" : "complex128") +
                  " computes in double precision");
}

DType working_dtype(const RunOptions& o, const Stack& stack) {
  if (!o.dtype) return stack.dtype();
  if (!dtype_is_complex(*o.dtype))
    for (const auto& l : stack.layers)
      if (dtype_is_complex(l.dtype()))
        throw UsageError(opt::kDtype.name() + " " + std::string(dtype_name(*o.dtype)) + ": " +
                         l.where() + " is " + std::string(dtype_name(l.dtype())) +
                         " and its imaginary part would be lost; use --dtype auto or a "
                         "complex type");
  return *o.dtype;
}

// A sum's: promoted over the terms, complex where a weight is.
DType working_dtype(const RunOptions& o, const std::vector<const Stack*>& stacks) {
  DType dt = working_dtype(o, *stacks.front());
  for (const Stack* s : stacks) dt = promote(dt, working_dtype(o, *s));
  for (const auto& t : o.terms)
    if (t.weight.imag() != 0)
      dt = complex_for_weights(o, dt, "--term " + format_weight(t.weight) + " is complex; use --dtype auto or a complex type");
  return dt;
}

DType complex_for_weights(const RunOptions& o, DType dt, const std::string& why) {
  if (o.dtype && !dtype_is_complex(*o.dtype))
    throw UsageError(opt::kDtype.name() + " " + std::string(dtype_name(*o.dtype)) + ": " + why);
  return o.dtype ? *o.dtype : promote(dt, DType::kComplex64);
}

// The budgets, the backends and the plan, in that order: the budgets are given or detected
// (memory/policy.hpp); each backend is made for its budget, and a GPU backend knows its device
// budget (--gpu-memory, or the device's free memory measured); the plan needs every budget.
// With `make` unset (a dry run) no backend is made unless a device budget must be measured.
// Several GPUs: one backend each, the first being the primary (see run_sweep).
// A sum's terms each get a plan for an equal share of the budgets (each keeps its own
// environments).
std::pair<std::vector<Plan>, std::vector<std::unique_ptr<Backend>>> plans_and_backend(
    const RunOptions& o, const std::vector<const Stack*>& stacks, DType dt, bool make) {
  Budgets budgets = resolve_budgets(o.exec.host_memory, o.exec.gpu_memory, o.exec.scratch_dir);
  std::vector<std::unique_ptr<Backend>> backends;
  if (make || (o.exec.device.gpu && budgets.gpu_bytes == 0))
    backends = make_backends(o.exec.device, o.exec.threads, memory::host_pool_limit(budgets.host_bytes),
                             o.exec.gpu_memory);
  if (o.exec.device.gpu) {
    budgets.gpu_bytes = backends.empty() ? budgets.gpu_bytes : backends.front()->memory_budget();
    budgets.pinned_bytes = memory::kStagingBytesPerDevice * o.exec.device.ids.size();
  }
  std::vector<Plan> plans;
  for (std::size_t k = 0; k < stacks.size(); ++k) {
    plans.push_back(plan_term(stacks, k, o.sweep, dt, o.exec.threads, budgets, o.exec.device.gpu));
    plans.back().device = o.exec.device.text();
  }
  return {std::move(plans), std::move(backends)};
}

Plan plan_term(const std::vector<const Stack*>& stacks, std::size_t term, const SweepOptions& sweep, DType dt,
               int threads, const Budgets& whole, bool on_device) {
  const std::size_t terms = stacks.size();
  if (terms == 1) return make_plan(*stacks.front(), sweep, dt, threads, whole, on_device);
  try {
    Plan plan = make_plan(*stacks[term], sweep, dt, threads, share_of(whole, terms), on_device);
    plan.predicted_flops = needed_flops(stacks, term, sweep, plan.sketch_columns, dt);  // at the sum's bonds
    return plan;
  } catch (const ResourceError& e) {
    // The budget the message names is the term's share, not the flag's value.
    throw ResourceError("term " + std::to_string(term + 1) + " of " + std::to_string(terms) + ", planned for 1/" +
                        std::to_string(terms) + " of the budgets: " + e.what());
  }
}

std::pair<Plan, std::vector<std::unique_ptr<Backend>>> plan_and_backend(const RunOptions& o,
                                                                        const Stack& stack,
                                                                        DType dt, bool make) {
  auto planned = plans_and_backend(o, {&stack}, dt, make);
  return {std::move(planned.first.front()), std::move(planned.second)};
}


// A --chi beyond the largest bond the product can have buys nothing (the sweep is exact from
// there on) but would size the plan for sketch columns that can never be used: it is capped,
// and oversampling, which then has nothing to improve, is dropped.
RunOptions fitted(const RunOptions& given, const Stack& stack, Reporter* reporter) {
  return fitted(given, std::vector<const Stack*>{&stack}, reporter);
}

RunOptions fitted(const RunOptions& given, const std::vector<const Stack*>& stacks, Reporter* reporter) {
  RunOptions o = given;
  const std::size_t most = sum_largest_bond(stacks);
  if (o.sweep.chi > most) {
    if (reporter)
      reporter->warning(opt::kChi.name() + " " + std::to_string(o.sweep.chi) +
                        " is above the largest bond this product can have (" +
                        std::to_string(most) + "); using " + std::to_string(most) +
                        (o.sweep.tolerance_mode() ? "" : ": the result is exact"));
    o.sweep.chi = most;
    if (!o.sweep.tolerance_mode()) o.sweep.oversample = 0;
  }
  return o;
}

std::vector<Plan> dry_run_plans(const RunOptions& given, const std::vector<const Stack*>& stacks, DType dt) {
  const RunOptions options = fitted(given, stacks, nullptr);
  std::vector<Plan> plans = plans_and_backend(options, stacks, dt, false).first;
  // The time the work takes here: a CPU backend made for a few milliseconds of GEMM.
  if (!options.exec.device.gpu && plans.front().predicted_flops > 0) {
    const auto cpu = make_backends(DeviceSpec{}, options.exec.threads, memory::host_pool_limit(plans.front().budgets.host_bytes), 0);
    const double rate = measure_gemm_rate(*cpu.front(), dt);
    for (auto& plan : plans) plan.gemm_rate = rate;
  }
  return plans;
}

// Before a long run: its predicted work and time, and a warning when even the fastest sweep the
// prediction allows outlasts --max-time or an hour. Only where the work is large enough to
// matter (the GEMM rate is measured for it, a few milliseconds).
void warn_if_long(const RunOptions& o, std::vector<Plan>& plans, Backend& backend, Reporter& reporter,
                  std::size_t steps) {
  // Flops worth a prediction (a second or more of sweep), and, under --max-time, the least worth
  // a few milliseconds of GEMM to check against it.
  constexpr double kWorthPredicting = 1e11, kWorthChecking = 1e9;
  double flops = 0;  // a sum's: its terms'; an evolution's: every step's at the first one's bonds
  for (const auto& p : plans) flops += p.predicted_flops;
  flops *= static_cast<double>(steps);
  const bool check = o.max_time_seconds > 0 && flops >= kWorthChecking;
  if (flops < kWorthPredicting && !check) return;
  const double rate = measure_gemm_rate(backend, plans.front().dtype);
  for (auto& p : plans) p.gemm_rate = rate;
  if (rate <= 0) return;
  const PredictedTime t = predicted_time(flops, rate);
  const std::string of = steps > 1 ? " of sweeps (" + std::to_string(steps) + " steps at the first one's bonds)" : " of sweep";
  const std::string what = format_flops(flops) + of + ", " + format_seconds(t.fastest) + " to " +
                           format_seconds(t.slowest) + " at this machine's GEMM rate (" +
                           format_flops(rate) + "/s, measured now)";
  if (o.max_time_seconds > 0 && t.fastest > o.max_time_seconds)
    reporter.warning("predicted " + what + ", beyond " + opt::kMaxTime.name() + " " +
                     format_seconds(o.max_time_seconds) + ": the run will most likely be stopped before it ends; " +
                     opt::kDryRun.name() + " shows the plan");
  else if (t.fastest > 3600)
    reporter.warning("predicted " + what + "; " + opt::kDryRun.name() + " shows the plan");
  else if (flops >= kWorthPredicting)
    reporter.note("predicted " + what);
}

void before_work(const std::vector<std::string>& notes, const Budgets& budgets, Reporter& reporter) {
  for (const auto& note : notes) reporter.warning(note);
  for (const auto& dir : remove_stale_scratch(budgets.scratch_dir))
    reporter.warning("removed " + dir + ": scratch directory of an earlier run whose process no longer exists");
}

GemmProfiling::GemmProfiling(Backend& backend, bool on, Reporter& reporter) {
  if (!on) return;
  if (backend.profile_gemms(&profile_))
    backend_ = &backend;
  else
    reporter.warning(opt::kProfileGemm.name() + ": " + backend.name() + " queues its GEMMs asynchronously; no profile");
}

GemmProfiling::~GemmProfiling() {
  if (backend_ != nullptr) backend_->profile_gemms(nullptr);
}

std::vector<GemmTiming> GemmProfiling::finish() {
  if (backend_ == nullptr) return {};
  backend_->profile_gemms(nullptr);
  backend_ = nullptr;
  return profile_.rows();
}

}  // namespace srcc
