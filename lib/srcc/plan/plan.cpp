#include "srcc/plan/plan.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include "srcc/core/duration.hpp"
#include "srcc/core/error.hpp"
#include "srcc/core/json.hpp"
#include "srcc/core/options.hpp"
#include "srcc/core/size.hpp"
#include "srcc/memory/policy.hpp"

#include "srcc/plan/flops.hpp"
#include "srcc/plan/step_memory.hpp"

namespace srcc {

std::string_view tier_name(Tier t) {
  return t == Tier::kMemory ? "memory" : t == Tier::kHost ? "host" : "scratch";
}

namespace {

// What the planner works from: the per-site sizes and the memory the steps may use.
struct Planning {
  const std::vector<StepShape>& shapes;
  std::size_t n, e, s;   // sites, bytes an element, sketch columns
  std::size_t budget;    // bytes the steps and the memory tier may use
  bool on_device;
  bool dense;            // the left sweep is (also) a dense one: sdc, sdcr, fit sweeps
  bool svd;              // … whose reduction is sdc's SVD
  // Site windows: the site being used (and its GEMM form) and the one read ahead.
  std::size_t window(std::size_t j) const {
    return 2 * shapes[j].sites + (j + 1 < n ? shapes[j + 1].sites : 0) + (j > 0 ? shapes[j - 1].sites : 0);
  }
};

// The step that needs the most beyond the budget.
struct Deficit {
  std::size_t site = 0, need = 0;
  const char* step = "";
  void note(std::size_t j, std::size_t bytes, const char* what, std::size_t budget, bool& ok) {
    if (bytes <= budget) return;
    ok = false;
    if (bytes > need) *this = {j, bytes, what};
  }
};

// Left sweep: C_j and C_{j+1}, the environments kept so far, one spill in flight, the site
// window, and as many sketch columns at a time as fit. Returns the environments left in memory.
std::size_t plan_left(const Planning& c, Plan& out, Deficit& worst, bool& ok) {
  std::size_t resident = 0;
  const std::size_t e = c.e;
  for (std::size_t j = 0; j < c.n; ++j) {
    auto& sp = out.site_plans[j];
    sp.env_bytes = j > 0 && !out.exact_two_site ? c.shapes[j].env * e : 0;
    sp.env_tier = j == 0 || j >= out.memory_from ? Tier::kMemory : Tier::kScratch;
    if (out.exact_two_site || j + 1 >= c.n) continue;
    // C_{j-1} may still be on its way to host memory or disk (one spill in flight).
    const bool spilling = j >= 2 && j - 1 < out.memory_from;
    const std::size_t in_flight = spilling ? c.shapes[j - 1].env * e : 0;
    const std::size_t fixed = resident + in_flight + c.shapes[j].env * e + c.shapes[j].env_next * e + c.window(j) * e;
    const std::size_t per = std::max<std::size_t>(c.shapes[j].left_col * e, 1);
    sp.left_batch = c.budget > fixed ? std::min(c.s, (c.budget - fixed) / per) : 0;
    sp.left_peak = fixed + std::max<std::size_t>(sp.left_batch, 1) * per;
    // A dense step holds M_j and its factorisation whole (its rows are coupled: no batches).
    if (c.dense) {
      const auto& sh = c.shapes[j];
      sp.left_peak = std::max(sp.left_peak, fixed + (sh.dense_left + (c.svd ? sh.dense_svd : sh.dense_range)) * e);
    }
    worst.note(j, sp.left_peak, "left sweep", c.budget, ok);
    if (sp.left_batch == 0) ok = false;
    if (j > 0 && sp.env_tier == Tier::kMemory) resident += sp.env_bytes;
  }
  return resident;
}

// Right sweep: the environments j' <= j still in memory, the step itself, and C_j from its tier
// in as many rows at a time as fit.
void plan_right(const Planning& c, Plan& out, std::size_t resident, Deficit& worst, bool& ok) {
  const std::size_t n = c.n, e = c.e;
  std::size_t held = resident;
  if (n > 1 && out.site_plans[n - 1].env_tier == Tier::kMemory) held += out.site_plans[n - 1].env_bytes;
  for (std::size_t j = n; j-- > 1;) {
    auto& sp = out.site_plans[j];
    if (out.exact_two_site) break;
    const std::size_t fixed = held + c.shapes[j].right * e + c.window(j) * e;
    if (sp.env_tier == Tier::kMemory) {
      sp.right_batch = c.s;
      sp.right_peak = fixed;
    } else {
      // On a device the next batch is uploaded while this one is used: two at a time.
      const std::size_t per = std::max<std::size_t>(c.shapes[j].env_row * e * (c.on_device ? 2 : 1), 1);
      sp.right_batch = c.budget > fixed ? std::min(c.s, (c.budget - fixed) / per) : 0;
      sp.right_peak = fixed + std::max<std::size_t>(sp.right_batch, 1) * per;
      if (sp.right_batch == 0) ok = false;
    }
    worst.note(j, sp.right_peak, "right sweep", c.budget, ok);
    if (sp.env_tier == Tier::kMemory) held -= std::min(held, sp.env_bytes);
  }
}

// The plan with the environments C_j, j >= memory_from, in memory (the others off it): false
// when a step does not fit, `worst` then naming the step that needs the most.
bool try_plan(const Planning& c, std::size_t memory_from, Plan& out, Deficit& worst) {
  worst = {};
  out.site_plans.assign(c.n, {});
  out.memory_from = memory_from;
  out.host_from = memory_from;
  out.peak_bytes = out.scratch_bytes = 0;
  bool ok = true;
  const std::size_t resident = plan_left(c, out, worst, ok);
  plan_right(c, out, resident, worst, ok);
  for (const auto& sp : out.site_plans) out.peak_bytes = std::max({out.peak_bytes, sp.left_peak, sp.right_peak});
  if (out.exact_two_site) out.peak_bytes = (c.shapes[0].sites + c.shapes[1].sites) * c.e * 4;
  return ok;
}

// Environments that left the memory tier: on a GPU run the newest of them wait in host memory as
// far as the host budget goes; the rest go to scratch disk, which must have the room.
void place_off_memory(const Planning& c, const Budgets& budgets, Plan& p) {
  std::size_t host_room = 0;
  if (c.on_device) {
    std::size_t window_max = 0;
    for (std::size_t j = 0; j < c.n; ++j) window_max = std::max(window_max, c.window(j) * c.e);
    const std::size_t fixed = memory::kProcessOverheadBytes + budgets.pinned_bytes + window_max;
    host_room = budgets.host_bytes > fixed ? budgets.host_bytes - fixed : 0;
  }
  p.host_from = p.memory_from;
  for (std::size_t j = p.memory_from; j-- > 1;) {
    const std::size_t bytes = p.site_plans[j].env_bytes;
    if (!c.on_device || p.host_tier_bytes + bytes > host_room) break;
    p.host_tier_bytes += bytes;
    p.host_from = j;
  }
  for (std::size_t j = 1; j < c.n; ++j) {
    p.site_plans[j].env_tier = p.tier(j);
    if (p.tier(j) == Tier::kScratch) p.scratch_bytes += p.site_plans[j].env_bytes;
  }
  if (p.scratch_bytes > budgets.scratch_bytes)
    throw ResourceError("scratch directory " + budgets.scratch_dir + ": the plan spills " + format_size(p.scratch_bytes) +
                        " of environments but only " + format_size(budgets.scratch_bytes) +
                        " are free (use --scratch-dir or raise --host-memory)");
}

// `hint`: what the user can change besides the budget ("" for nothing more to say).
[[noreturn]] void does_not_fit(const Deficit& worst, const Budgets& budgets, bool on_device, const std::string& hint) {
  if (on_device)
    throw ResourceError("site " + std::to_string(worst.site) + ", " + worst.step + ": needs " + format_size(worst.need) +
                        " of device memory (with every environment off the device and one "
                        "sketch column at a time) but --gpu-memory allows " +
                        format_size(budgets.gpu_bytes) + hint);
  throw ResourceError("site " + std::to_string(worst.site) + ", " + worst.step + ": needs " +
                      format_size(worst.need + memory::kProcessOverheadBytes) +
                      " of host memory (with every environment on scratch disk and one sketch "
                      "column at a time) but --host-memory allows " +
                      format_size(budgets.host_bytes) + hint);
}

}  // namespace

Plan make_plan(const Stack& stack, const SweepOptions& sweep, DType dtype, int threads,
               const Budgets& budgets, bool on_device) {
  Plan p;
  p.sites = stack.length();
  p.depth = stack.depth();
  p.result_kind = stack.result_kind();
  p.dtype = dtype;
  p.sweep = sweep;
  p.exact_two_site = p.sites == 2;
  p.threads = threads;
  p.budgets = budgets;
  p.on_device = on_device;
  const std::size_t n = p.sites, e = dtype_size(dtype);
  // Tolerance mode may grow a cut's sketch up to the most directions the product can have there
  // (its fused bond, or the physical dimensions on either side where fewer): plan for the largest.
  std::size_t s = sweep.sketch_columns();
  if (s == 0) s = stack.largest_bond();
  p.sketch_columns = s;
  p.predicted_flops = needed_flops(stack, sweep, s, dtype);
  const std::vector<StepShape> shapes = step_shapes(stack, s);
  for (std::size_t j = 0; j < n; ++j) {
    p.input_bytes += shapes[j].sites * e;
    if (j > 0 && !p.exact_two_site) p.environment_bytes += shapes[j].env * e;
  }
  // The steps and the memory tier live in the backend's memory: the host's (less what the
  // process itself needs) or the device's.
  const std::size_t budget =
      on_device ? budgets.gpu_bytes
                : (budgets.host_bytes > memory::kProcessOverheadBytes ? budgets.host_bytes - memory::kProcessOverheadBytes : 0);
  const Planning c{shapes, n, e, s, budget, on_device, sweep.dense_left() || sweep.fit_sweep_cap() > 0,
                   method_row(sweep.method).svd_reduction};
  Deficit worst;
  // As many of the newest environments in memory as fit: try memory_from = 1, 2, …, n.
  for (std::size_t from = 1; from <= std::max<std::size_t>(n, 1); ++from) {
    if (try_plan(c, from, p, worst)) {
      place_off_memory(c, budgets, p);
      return p;
    }
    if (p.exact_two_site) break;
  }
  // Without --chi a tolerance run is planned for a sketch as wide as the largest bond the product
  // can have, which deep stacks on long chains make far wider than any bond the tolerance keeps.
  const std::string hint =
      sweep.tolerance_mode() && sweep.chi == 0
          ? "; " + opt::kTol.name() + " without " + opt::kChi.name() + " is planned for a sketch as wide as the largest " +
                "bond the product can have (" + std::to_string(s) + " columns): give " + opt::kChi.name() + " as a cap"
          : "";
  does_not_fit(worst, budgets, on_device, hint);
}

std::string Plan::to_json() const {
  std::string sites_json = "[";
  for (std::size_t j = 0; j < site_plans.size(); ++j) {
    const auto& sp = site_plans[j];
    JsonObject o;
    o.add("site", j)
        .add("env_bytes", sp.env_bytes)
        .add("env_tier", std::string(tier_name(sp.env_tier)))
        .add("left_batch", sp.left_batch)
        .add("right_batch", sp.right_batch)
        .add("left_peak", sp.left_peak)
        .add("right_peak", sp.right_peak);
    sites_json += (j ? ", " : "") + o.str();
  }
  sites_json += "]";
  JsonObject o;
  o.add("sites", sites)
      .add("depth", depth)
      .add("result", std::string(train_kind_name(result_kind)))
      .add("dtype", std::string(dtype_name(dtype)))
      .add("chi", sweep.chi)
      .add("cutoff", sweep.cutoff)
      .add("numerical_zeros", sweep.numerical_zeros)
      .add("oversample", sweep.oversample)
      .add("tol", sweep.tol)
      .add("block_start", sweep.block_start)
      .add("block_step", sweep.block_step)
      .add("seed", sweep.seed)
      .add("sketch_columns", sketch_columns)
      .add("exact_two_site", exact_two_site)
      .add("device", device)
      .add("threads", threads)
      .add("host_memory", budgets.host_bytes)
      .add("host_memory_detected", budgets.host_detected)
      .add("gpu_memory", budgets.gpu_bytes)
      .add("pinned_staging", budgets.pinned_bytes)
      .add("scratch_dir", budgets.scratch_dir)
      .add("scratch_free", budgets.scratch_bytes)
      .add("on_device", on_device)
      .add("memory_from", memory_from)
      .add("host_from", host_from)
      .add("host_tier_bytes", host_tier_bytes)
      .add("input_bytes", input_bytes)
      .add("environment_bytes", environment_bytes)
      .add("peak_bytes", peak_bytes)
      .add("scratch_bytes", scratch_bytes)
      .add("predicted_gflop", predicted_flops / 1e9)
      .add("gemm_gflops", gemm_rate / 1e9)
      .add("predicted_seconds_min", predicted_time(predicted_flops, gemm_rate).fastest)
      .add("predicted_seconds_max", predicted_time(predicted_flops, gemm_rate).slowest)
      .add_raw("site_plans", sites_json);
  return o.str();
}

std::string Plan::to_text() const {
  std::size_t spilled = 0, on_host = 0, min_left = sketch_columns, min_right = sketch_columns;
  for (const auto& sp : site_plans) {
    if (sp.env_tier == Tier::kScratch) ++spilled;
    if (sp.env_tier == Tier::kHost) ++on_host;
    if (sp.left_batch > 0) min_left = std::min(min_left, sp.left_batch);
    if (sp.right_batch > 0) min_right = std::min(min_right, sp.right_batch);
  }
  char buf[2048];
  std::string out;
  std::snprintf(buf, sizeof buf,
                "plan: %zu sites, %zu trains → %s, %s on %s (%d threads)\n"
                "  chi %zu, cutoff %g, oversample %g, tol %g, sketch columns %zu%s, seed %llu\n",
                sites, depth, std::string(train_kind_name(result_kind)).c_str(),
                std::string(dtype_name(dtype)).c_str(), device.c_str(), threads, sweep.chi,
                sweep.cutoff, sweep.oversample, sweep.tol, sketch_columns,
                exact_two_site ? " (exact two-site path)" : "",
                static_cast<unsigned long long>(sweep.seed));
  out += buf;
  out += "  budgets: host " + format_size(budgets.host_bytes) +
         (budgets.host_detected ? " (detected)" : "") +
         (on_device ? ", device " + format_size(budgets.gpu_bytes) : std::string()) +
         ", scratch " + format_size(budgets.scratch_bytes) + " free in " + budgets.scratch_dir +
         "\n";
  out += "  inputs " + format_size(input_bytes) + " (read one site at a time), environments " +
         format_size(environment_bytes) + ": " + std::to_string(spilled) + " of " +
         std::to_string(sites > 0 ? sites - 1 : 0) + " on scratch (" +
         format_size(scratch_bytes) + ")" +
         (on_device ? ", " + std::to_string(on_host) + " in host memory (" +
                          format_size(host_tier_bytes) + "), the rest on the device"
                    : std::string()) +
         "\n";
  out += "  smallest batches: left sweep " + std::to_string(min_left) + " columns, right sweep " +
         std::to_string(min_right) + " rows\n";
  if (on_device)
    out += "  predicted peak device tensor memory " + format_size(peak_bytes) + "; on the host " +
           format_size(memory::kProcessOverheadBytes) + " for the process and " +
           format_size(budgets.pinned_bytes) + " of page-locked staging\n";
  else
    out += "  predicted peak host tensor memory " + format_size(peak_bytes) + " (+ " +
           format_size(memory::kProcessOverheadBytes) + " for the process)\n";
  out += "  predicted work " + format_flops(predicted_flops);
  if (gemm_rate > 0) {
    const PredictedTime t = predicted_time(predicted_flops, gemm_rate);
    out += ": at this machine's GEMM rate, " + format_flops(gemm_rate) + "/s (measured now), " +
           format_seconds(t.fastest) + " to " + format_seconds(t.slowest) + " of sweep";
  }
  out += "\n";
  return out;
}

std::string plans_json(const std::vector<Plan>& plans, const std::vector<std::pair<std::string, std::string>>& fields) {
  std::string out;
  if (plans.size() == 1) {
    out = plans.front().to_json();
  } else {
    std::string rows;
    for (const auto& p : plans) rows += (rows.empty() ? "" : ",") + p.to_json();
    out = JsonObject().add_raw("terms", "[" + rows + "]").str();
  }
  // Every object JsonObject writes ends in its closing brace: the fields go before it.
  for (const auto& [key, json] : fields)
    out.insert(out.rfind('}'), (out.size() > 2 ? ", " : "") + json_quote(key) + ": " + json);
  return out;
}

}  // namespace srcc
