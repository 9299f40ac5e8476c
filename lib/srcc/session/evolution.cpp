#include "srcc/session/evolution.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <functional>
#include <limits>
#include <optional>

#include "srcc/core/error.hpp"
#include "srcc/core/interrupt.hpp"
#include "srcc/core/options.hpp"
#include "srcc/core/rng.hpp"
#include "srcc/core/text.hpp"
#include "srcc/core/weight.hpp"
#include "srcc/io/h5/h5_names.hpp"
#include "srcc/io/result_reader.hpp"
#include "srcc/io/result_writer.hpp"
#include "srcc/io/train_reader.hpp"
#include "srcc/log/folded_log.hpp"
#include "srcc/measure/overlap.hpp"
#include "srcc/memory/policy.hpp"
#include "srcc/memory/resident.hpp"
#include "srcc/session/checkpoints.hpp"
#include "srcc/session/evolution_state.hpp"
#include "srcc/session/evolve_record.hpp"
#include "srcc/session/observables.hpp"
#include "srcc/session/rank_share.hpp"
#include "srcc/session/stages.hpp"
#include "srcc/session/symmetric_run.hpp"
#include "srcc/session/taylor_step.hpp"
#include "srcc/sweep/rank_exchange.hpp"
#include "srcc/sweep/sweep.hpp"
#include "srcc/train/site_loader.hpp"

namespace srcc {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// The sweep's per-site progress would bury the step lines: only its warnings pass.
class QuietSweep final : public Reporter {
 public:
  explicit QuietSweep(Reporter& to) : to_(to) {}
  void progress(std::string_view, std::size_t, std::size_t) override {}
  void warning(std::string_view message) override { to_.warning(message); }

 private:
  Reporter& to_;
};

// One evolution in type T: the inputs in memory, the trajectory so far, the backend, and the
// output brought up to date at checkpoints (checkpoints.hpp).
template <class T> class Evolution {
 public:
  Evolution(const EvolveOptions& eo, std::vector<TrainReader>& readers, Stack stack,
            std::vector<std::string> notes, Reporter& reporter, const std::function<void()>& check_interrupt)
      : eo_(eo), ro_(eo.run), readers_(readers), stack_(std::move(stack)), notes_(std::move(notes)),
        reporter_(reporter), check_interrupt_(check_interrupt), quiet_(reporter),
        nstep_(ro_.trains.size() - 1), checkpoints_(ro_.output, ro_.force) {}

  EvolveSummary run() {
    sum_.output = ro_.output;
    sum_.steps = eo_.steps;
    load();
    describe();
    if (eo_.resume) resume();
    start_backend();
    if (!share_.works) return sum_;  // a rank the steps do not need: it waits (rank_share.hpp)
    // Over ranks every rank takes each step in lockstep (share_.lockstep, from the agreement to
    // the last step): a failure on one ends them all.
    std::size_t since_checkpoint = 0;
    try {
      for (std::size_t k = done_ + 1; k <= eo_.steps; ++k) {
        check_interrupt_();
        step(k);
        ++since_checkpoint;
        if (checkpoints_.due(since_checkpoint, eo_.checkpoint_every) && k < eo_.steps) {
          checkpoint(false);
          since_checkpoint = 0;
        }
      }
    } catch (const InterruptedError& e) {
      throw InterruptedError(e.cause() + "; " + save_on_stop(since_checkpoint));
    }
    share_.lockstep.reset();  // the steps are done: rank 0 writes, the others wait for it
    if (done_ > sum_.resumed_from || !checkpoints_.written()) {
      // The last write finishes even when a stop arrives meanwhile: the evolution is done.
      InterruptShield shield;
      checkpoint(done_ >= eo_.steps);
    }
    sum_.steps_done = done_;
    sum_.wall_seconds = since(wall0_);
    sum_.peak_rss_bytes = memory::peak_resident_bytes();
    sum_.gemm_profile = profiling_->finish();
    reporter_.progress("write", 1, 1);
    return sum_;
  }

  // A stop (a signal, --max-time) between or within steps: the finished steps are saved, with
  // further stop requests held off until they are (a step stopped midway is not counted), and
  // the message says what the file then holds.
  std::string save_on_stop(std::size_t since_checkpoint) {
    const std::string of = " finished steps of " + std::to_string(eo_.steps);
    if (!checkpoints_.written() && done_ == 0) return "no step had finished: no output was written";
    if (since_checkpoint > 0 || !checkpoints_.written()) {
      try {
        InterruptShield shield;
        checkpoint(false);
      } catch (const Error& e) {
        if (!checkpoints_.written()) return std::string("saving the finished steps failed (") + e.what() + "): no output was written";
        return std::string("saving the last steps failed (") + e.what() + "); " + ro_.output + " holds the " +
               std::to_string(checkpoints_.saved_steps()) + of + ": continue with --resume";
      }
    }
    return ro_.output + " holds the " + std::to_string(checkpoints_.saved_steps()) + of + ": continue with --resume";
  }

 private:
  // The step and the observables in memory (MPOs of small bond); the state too.
  void load() {
    for (std::size_t i = 0; i < nstep_; ++i) data_.sites.push_back(read_whole<T>(readers_[i], log_));
    observables_ = make_observables<T>(eo_, readers_, nstep_ + 1, log_);
    state_.dense = read_whole<T>(readers_[nstep_], log_);
    for (const auto& r : readers_) r.check_unchanged();
    history_.add_setup(log_.take_from(0));
  }

  // What a resumed run must share with this one, and the trajectory's columns.
  void describe() {
    for (std::size_t i = 0; i <= nstep_; ++i)
      fp_.emplace_back(i < nstep_ ? "step " + std::to_string(i + 1) : "state",
                       fingerprint_of(readers_[i].info(), i < nstep_ ? data_.sites[i] : state_.dense));
    columns_ = trajectory_columns(eo_);
    for (const auto& o : observables_) {
      fp_.push_back(o->fingerprint());
      for (auto& c : o->columns()) columns_.push_back(std::move(c));
    }
    add_options(fp_, eo_, dtype_of<T>);
    for (const auto& c : columns_) rows_.push_back({c.name, c.integer, {}});
  }

  void resume() {
    const EvolveRecord rec = read_evolve_record(ro_.output);
    done_ = resume_trajectory(rec, fp_, rows_, ro_.output);
    TrainReader last(TrainRef{ro_.output, h5names::kResult, TrainFormat::kSrcc});
    // The checkpoint's scale is kept apart, as the run kept it, not spread over the sites.
    TrainInfo raw = last.info();
    state_scale_ = raw.log_scale;
    raw.log_scale = 0;
    state_ = {};
    for (std::size_t j = 0; j < raw.length(); ++j) state_.dense.push_back(to_internal<T>(last.read_site(j, log_), raw, j, log_));
    check_resumed_state(readers_[nstep_].info(), last.info(),
                        (std::log(frobenius_norm(state_.dense.front())) + state_scale_) / std::log(10.0), rows_, done_,
                        eo_.normalize, ro_.output);
    history_.add_setup(log_.take_from(0));
    checkpoints_.resume(done_, rec.log.evolve->run_id, rec.states);
    sum_.resumed_from = done_;
    budget_ = done_ > 0 ? rows_[kBudgetColumn].values.back() : 0.0;
    if (done_ >= eo_.steps) reporter_.step(ro_.output + " holds " + std::to_string(done_) + " steps already; nothing to do");
  }

  // The stack with the state's current bonds.
  TrainInfo state_info() const {
    TrainInfo info = readers_[nstep_].info();
    info.dims.clear();
    info.dtypes.clear();
    for (std::size_t j = 0; j < state_.length(); ++j) {
      const auto d = state_.dims(j);
      info.dims.push_back({d[kLegL], d[kLegR], d[kLegU], d[kLegD]});
      info.dtypes.push_back(dtype_of<T>);
    }
    return info;
  }

  // Budgets and backends once; a plan per step (the state's bonds change).
  void start_backend() {
    stack_.layers.back() = state_info();
    data_.stack = stack_;
    auto planned = plan_and_backend(fitted(ro_, stack_, nullptr), stack_, dtype_of<T>, true);
    plan0_ = std::move(planned.first);
    backends_ = std::move(planned.second);
    before_work(notes_, plan0_.budgets, reporter_);
    // The charges, once: the state's physical legs keep theirs from step to step.
    sym_ = choose_symmetry(ro_, {&stack_});
    if (!sym_.note.empty()) reporter_.note(sym_.note);
    sum_.symmetry = sym_.keep ? sym_.name : "";
    if (sym_.keep) {
      checkpoints_.set_charges(sym_.terms.front().back());
      state_.split(kernels(), sym_.terms.front().back(), readers_[nstep_].info().where());
    }
    checkpoints_.set_basis(uniform_basis(readers_[nstep_].info()));
    // Under MPI: a --taylor step's terms dealt to the ranks, a product step's sketch columns
    // split; every rank holds the state, rank 0 writes. One seed: rank 0's.
    const std::size_t terms = eo_.taylor > 0 ? eo_.taylor + 1 : 1;
    if (world_ranks().size() > 1 && why_not_spread(ro_, terms).empty()) {
      share_ = share_ranks(terms, check_interrupt_);
      if (share_.workers) share_.workers->broadcast(&seed_, sizeof seed_, 0, check_interrupt_);
    }
    // --profile-gemm: every GEMM of the evolution, sweeps and measurements.
    profiling_ = std::make_unique<GemmProfiling>(backend(), ro_.profile_gemm, reporter_);
    checkpoints_.limit_held(plan0_.budgets.host_bytes / kHeldStatesShare);
    last_plan_ = plan0_.to_json();
    if (!ro_.exec.device.gpu && done_ < eo_.steps) warn_if_long_evolution();
  }

  Backend& backend() { return *backends_.front(); }
  Kernels<T>& kernels() { return backend().template kernels<T>(); }
  SymmetryChoice sym_;  // whether the steps compute on the charges (--symmetry)
  std::vector<BlockTensor<T>> step_blocks_;  // the last step's result in its blocks (on charges)

  // A step on charges: its result, its blocks kept as the next state.
  SweepResult<T> kept_blocks(SymmetricOutcome<T> outcome) {
    step_blocks_ = std::move(outcome.blocks);
    return std::move(outcome.result);
  }

  // The steps to come at the first one's cost (its bonds grow or shrink from there): the warning
  // apply gives before a run that would outlast --max-time or an hour.
  void warn_if_long_evolution() {
    std::vector<Plan> plans = {plan0_};
    if (eo_.taylor > 0) plans = plan_taylor_step(stack_, eo_.taylor, ro_, dtype_of<T>, plan0_.budgets).plans;
    warn_if_long(ro_, plans, backend(), reporter_, eo_.steps - done_);
  }

  // The seed of step k: derived from the base and the step number, so that a resumed run draws
  // what the uninterrupted one drew.
  std::uint64_t step_seed(std::size_t k) const { return Rng::derive_seed(seed_, k); }

  // The step's MPOs applied to the state, planned for the state's bonds now.
  SweepResult<T> product_step(std::size_t k) {
    data_.stack.layers.back() = state_info();
    RunOptions step_options = fitted(ro_, data_.stack, nullptr);
    step_options.sweep.seed = step_seed(k);
    const Plan plan = make_plan(data_.stack, step_options.sweep, dtype_of<T>, ro_.exec.threads, plan0_.budgets, ro_.exec.device.gpu);
    last_plan_ = plan.to_json();
    data_.sites.resize(nstep_);
    if (sym_.keep) {
      // The state as it is held (in blocks after a charged step), under the step's MPOs.
      RepeatedLayers<T> source(data_.sites, 1, state_, kernels());
      std::optional<RankExchange> split;  // over ranks: the sketch's columns split
      if (share_.workers) split.emplace(share_.workers.get(), RankExchange::Mode::kColumns, 1, check_interrupt_, log_);
      return kept_blocks(symmetric_run<T>({{&data_.stack, &source, T(1), &plan}}, sym_, step_options.sweep, backend(), quiet_,
                                          check_interrupt_, split ? &*split : nullptr, ResultNeeds{.dense = false}, &log_));
    }
    data_.sites.push_back(std::move(state_.dense));
    // The state back in its place whatever happens: a step stopped midway leaves it as it was.
    const auto put_back = [&] {
      state_.dense = std::move(data_.sites.back());
      data_.sites.pop_back();
    };
    try {
      SweepResult<T> result = run_sweep(data_, step_options.sweep, backend(), log_, quiet_, check_interrupt_, &plan,
                                        share_.workers.get());
      put_back();
      return result;
    } catch (...) {
      put_back();
      throw;
    }
  }

  // A --taylor step: Σ_{m≤K} c_m H^m ψ with c_m = c_{m−1}·(−i dt)/m (or (−dt)/m), the K+1
  // products as the terms of one sweep, each planned for its share of the budgets.
  SweepResult<T> taylor_step(std::size_t k) {
    Stack step = stack_;
    step.layers.back() = state_info();
    TaylorPlan t = plan_taylor_step(step, eo_.taylor, ro_, dtype_of<T>, plan0_.budgets);
    t.options.sweep.seed = step_seed(k);
    std::vector<std::unique_ptr<RepeatedLayers<T>>> sources;
    std::vector<SweepTerm<T>> sum;
    const std::vector<std::complex<double>> weights = taylor_weights(eo_.taylor, eo_.dt, eo_.imaginary_time);
    for (std::size_t m = 0; m < t.stacks.size(); ++m) {
      sources.push_back(std::make_unique<RepeatedLayers<T>>(data_.sites, m, state_, kernels()));
      sum.push_back({&t.stacks[m], sources.back().get(), scalar_weight<T>(weights[m]), &t.plans[m]});
    }
    last_plan_ = plans_json(t.plans);
    if (sym_.keep) {
      // Term m is H^m ψ: the charges of H's layers m times over, then the state's.
      SymmetryChoice choice = sym_;
      const std::vector<PhysicalCharges>& hs = sym_.terms.front();
      choice.terms.clear();
      std::vector<SymmetricInput<T>> inputs;
      for (std::size_t m = 0; m < sum.size(); ++m) {
        std::vector<PhysicalCharges> layers;
        for (std::size_t r = 0; r < m; ++r) layers.insert(layers.end(), hs.begin(), hs.end() - 1);
        layers.push_back(hs.back());
        choice.terms.push_back(std::move(layers));
        inputs.push_back({sum[m].stack, sum[m].source, sum[m].weight, sum[m].plan});
      }
      std::optional<RankExchange> dealt;  // over ranks: the terms dealt
      if (share_.workers) dealt.emplace(share_.workers.get(), RankExchange::Mode::kTerms, inputs.size(), check_interrupt_, log_);
      return kept_blocks(symmetric_run(inputs, choice, t.options.sweep, backend(), quiet_, check_interrupt_,
                                       dealt ? &*dealt : nullptr, ResultNeeds{.dense = false}, &log_));
    }
    return run_sweep(sum, t.options.sweep, backend(), log_, quiet_, check_interrupt_, {}, share_.workers.get());
  }

  // Step k: the sweep, the state's norm, the measurements, a row of the trajectory. All or
  // nothing: until the row is added (nothing after that throws), the state and the trajectory
  // are those of step k−1, so that a stop within the step leaves a consistent pair to save.
  void step(std::size_t k) {
    const auto t0 = Clock::now();
    // The state before the step: after a step its norm sits in core 0; the state read at the
    // start of the run may be in any form, so its norm is contracted once.
    const double previous_log_norm =
        (steps_watched_ == 0 ? state_.log_norm(kernels()) : std::log(state_.core0_norm(kernels()))) + state_scale_;
    step_blocks_.clear();
    SweepResult<T> result = eo_.taylor > 0 ? taylor_step(k) : product_step(k);
    const double sweep_seconds = since(t0);
    // On charges the next state stays in the step's blocks (its dense cores were not made).
    EvolutionState<T> next;
    if (step_blocks_.empty()) next.dense = std::move(result.cores);
    else next.blocks = std::move(step_blocks_);
    // The state's norm sits in core 0 (the others are right-orthonormal), times the scales the
    // state and the step's product carry beyond their cores: in logarithms, since the norm of
    // an imaginary-time evolution leaves a double's range.
    const double core_norm = next.core0_norm(kernels());
    double scale = state_scale_ + result.log_scale;
    const double log_norm = std::log(core_norm) + scale;
    const double norm = std::exp(log_norm);
    // With --normalize the state goes back to norm 1; a state that carries a scale keeps its
    // core 0 at unit norm too (the scale takes the rest), as a sweep's result beyond the type does.
    if ((eo_.normalize || scale != 0) && core_norm > 0) {
      next.scale_core0(kernels(), 1.0 / core_norm);
      scale = eo_.normalize ? 0 : log_norm;
    }
    const double budget = budget_ + result.error_estimate;
    std::int64_t max_bond = 1;
    for (std::size_t j = 0; j < next.length(); ++j)
      max_bond = std::max<std::int64_t>(max_bond, static_cast<std::int64_t>(next.dims(j)[kLegR]));
    const bool measured = k % eo_.measure_every == 0 || k == eo_.steps;
    const std::vector<double> values = measure(next, scale, measured);
    const StepValues sv{.step = k, .steps = eo_.steps,
                        .time = eo_.dt != 0 ? eo_.dt * static_cast<double>(k) : static_cast<double>(k),
                        .norm = norm, .log10_norm = log_norm / std::log(10.0), .error = result.error_estimate,
                        .budget = budget, .seconds = since(t0), .max_bond = max_bond};
    std::vector<double> row = {static_cast<double>(k), sv.time, norm, sv.error, budget,
                               static_cast<double>(max_bond), sv.seconds, sweep_seconds, sv.log10_norm};
    row.insert(row.end(), values.begin(), values.end());
    // The step is done: from here on it counts.
    state_ = std::move(next);
    state_scale_ = scale;
    if (eo_.save_every > 0 && k % eo_.save_every == 0) checkpoints_.hold(k, state_, state_scale_);
    for (std::size_t c = 0; c < rows_.size(); ++c) rows_[c].values.push_back(row[c]);
    done_ = k;
    budget_ = budget;
    last_sites_ = result.sites;
    sum_.sweep_seconds += sweep_seconds;
    sum_.sweep_flops += result.flops;
    sum_.norm = norm;
    sum_.log10_norm = sv.log10_norm;
    sum_.normalized = eo_.normalize;
    sum_.max_bond = max_bond;
    sum_.error_budget = budget_;
    std::string line = step_line(sv);
    for (std::size_t i = 0, at = 0; measured && i < observables_.size(); at += observables_[i]->columns().size(), ++i)
      line += observables_[i]->shown({values.begin() + static_cast<std::ptrdiff_t>(at), values.end()});
    reporter_.step(line);
    history_.add_round(log_.take_from(0));
    watch_norm(k, log_norm - previous_log_norm);
  }

  // A real-time step keeps the norm: where the state's norm drifts from its value at the start
  // of this run by more than kNormDrift (and again at ten times as much), a warning says so
  // once, with what causes it. An imaginary-time Taylor step is exempt, and so is a run with
  // --normalize (its steps are meant to change the norm: imaginary time, a power iteration);
  // other imaginary-time steps are told of --normalize.
  static constexpr double kNormDrift = 1e-2;
  void watch_norm(std::size_t k, double step_log_ratio) {
    if ((eo_.taylor > 0 && eo_.imaginary_time) || eo_.normalize) return;
    norm_log_drift_ += step_log_ratio;
    ++steps_watched_;
    const double drift = std::expm1(norm_log_drift_);
    if (!(std::abs(drift) > norm_warn_at_)) return;
    while (std::abs(drift) > norm_warn_at_) norm_warn_at_ *= 10;
    // A Taylor series cut at order K errs by about (E·dt)^{K+1}/(K+1)! for the state's energy E,
    // which H's constant part counts whole (a ground state's E·dt of 1.3 loses 3% a step at K = 4).
    char cause[256];
    if (eo_.taylor > 0)
      std::snprintf(cause, sizeof cause,
                    "a %s %zu step errs by about |E·dt|^%zu/%zu! per step for the state's energy E, its constant part "
                    "included: a smaller %s or a larger %s",
                    opt::kTaylor.name().c_str(), eo_.taylor, eo_.taylor + 1, eo_.taylor + 1, opt::kDt.name().c_str(),
                    opt::kTaylor.name().c_str());
    else
      std::snprintf(cause, sizeof cause,
                    "a W^I/W^II or Trotter step errs by O(dt²) per step: a smaller %s, or generate step --order 2",
                    opt::kDt.name().c_str());
    char text[768];
    std::snprintf(text, sizeof text,
                  "the state's norm has changed by %+.3g%% over %zu steps (to step %zu): a real-time step keeps it, so "
                  "this is the step's own error (%s) or a truncation far too coarse; in imaginary time, %s keeps the "
                  "state at norm 1",
                  100 * drift, steps_watched_, k, cause, opt::kNormalize.name().c_str());
    reporter_.warning(text);
  }

  // The observables' values of the state e^{scale}·cores, in the trajectory's order; NaN at a
  // step that is not measured.
  std::vector<double> measure(const EvolutionState<T>& state, double scale, bool measured) {
    const auto tm = Clock::now();
    std::vector<double> values;
    // Dense cores of a state in blocks only for an observable that has no charged form, once.
    std::optional<std::vector<Tensor<T>>> made;
    const std::function<const std::vector<Tensor<T>>&()> dense = [&]() -> const std::vector<Tensor<T>>& {
      if (!state.in_blocks()) return state.dense;
      if (!made) made = state.dense_cores(kernels());
      return *made;
    };
    for (auto& o : observables_) {
      if (!measured) {
        values.resize(values.size() + o->columns().size(), std::numeric_limits<double>::quiet_NaN());
        continue;
      }
      const std::vector<double> v = state.in_blocks()
                                        ? o->measure_charged({state.blocks, sym_.terms.front().back(), dense}, scale, kernels())
                                        : o->measure(state.dense, scale, kernels());
      values.insert(values.end(), v.begin(), v.end());
    }
    sum_.measure_flops = 0;
    for (const auto& o : observables_) sum_.measure_flops += o->flops();
    sum_.measure_seconds += since(tm);
    return values;
  }

  // The output brought up to date (checkpoints.hpp).
  void checkpoint(bool finished) {
    sum_.steps_done = done_;
    sum_.wall_seconds = since(wall0_);
    sum_.peak_rss_bytes = memory::peak_resident_bytes();
    if (world_ranks().rank() != 0) return;  // rank 0 writes for the ranks
    checkpoints_.write(rows_, columns_json(columns_), state_, state_scale_, kernels(), record(), history_, finished,
                       done_);
    sum_.checkpoint_seconds += checkpoints_.last_seconds();
    ++sum_.checkpoints;
  }

  RunRecord record() const {
    RunRecord r{.command_line = ro_.command_line,
                .plan_json = last_plan_,
                .blas = backends_.front()->library_info(),
                .threads = backends_.front()->threads(),
                .threads_source = ro_.exec.threads_source,
                .seed = seed_,
                .method = method_name(ro_.sweep.method),
                .start_utc = start_time_,
                .end_utc = utc_now(),
                .wall_seconds = since(wall0_),
                .error_estimate = budget_,
                .summary_json = sum_.to_json(),
                .sites = last_sites_};
    for (const auto& note : notes_) r.notes += (r.notes.empty() ? "" : "\n") + note;
    r.evolve = RunRecord::Evolution{.steps = static_cast<std::int64_t>(eo_.steps),
                                    .steps_done = static_cast<std::int64_t>(done_),
                                    .fingerprint = to_text(fp_),
                                    .dt = eo_.dt,
                                    .normalize = eo_.normalize,
                                    .run_id = "",
                                    .saved_states = ""};  // filled in by the checkpoint
    for (const auto& b : backends_) r.devices += (r.devices.empty() ? "" : ",") + b->name();
    return r;
  }

  const EvolveOptions& eo_;
  const RunOptions& ro_;
  std::vector<TrainReader>& readers_;
  Stack stack_;
  std::vector<std::string> notes_;
  Reporter& reporter_;
  double norm_log_drift_ = 0, norm_warn_at_ = kNormDrift;  // the norm's change this run, and the next warning's level
  std::size_t steps_watched_ = 0;
  const std::function<void()>& check_interrupt_;
  QuietSweep quiet_;
  std::uint64_t seed_ = ro_.sweep.seed;  // rank 0's over ranks
  RankShare share_;                      // how MPI ranks share the steps (this process: all)
  const std::size_t nstep_;
  const Clock::time_point wall0_ = Clock::now();
  const std::string start_time_ = utc_now();

  TransferLog log_;
  FoldedLog history_;  // what the output's /log/transfers will hold
  EvolveSummary sum_;
  StackData<T> data_;
  std::vector<std::unique_ptr<Observable<T>>> observables_;
  EvolutionState<T> state_;
  double state_scale_ = 0;  // the state is e^{state_scale_}·state_ (see apply_log_scale)
  Fingerprint fp_;
  std::vector<TrajectoryColumn> columns_;
  std::vector<TableColumn> rows_;

  Plan plan0_;
  std::vector<std::unique_ptr<Backend>> backends_;
  std::unique_ptr<GemmProfiling> profiling_;  // after backends_: stops before they go
  std::string last_plan_;
  std::vector<SiteStats> last_sites_;
  std::size_t done_ = 0;
  double budget_ = 0;
  Checkpoints<T> checkpoints_;
};

}  // namespace

template <class T>
EvolveSummary run_evolution(const EvolveOptions& eo, std::vector<TrainReader>& readers, Stack stack,
                            std::vector<std::string> notes, Reporter& reporter,
                            const std::function<void()>& check_interrupt) {
  return Evolution<T>(eo, readers, std::move(stack), std::move(notes), reporter, check_interrupt).run();
}

#define SRCC_INSTANTIATE(T)                                                                                 \
  template EvolveSummary run_evolution<T>(const EvolveOptions&, std::vector<TrainReader>&, Stack,            \
                                          std::vector<std::string>, Reporter&, const std::function<void()>&);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
