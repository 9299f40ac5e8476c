#include "srcc/evolve.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <sstream>

#include "srcc/backend/cpu/cpu_backend.hpp"
#include "srcc/core/error.hpp"
#include "srcc/core/json.hpp"
#include "srcc/core/options.hpp"
#include "srcc/core/process_tag.hpp"
#include "srcc/core/rng.hpp"
#include "srcc/io/h5_names.hpp"
#include "srcc/io/output_file.hpp"
#include "srcc/io/read_probe.hpp"
#include "srcc/io/result_reader.hpp"
#include "srcc/io/result_writer.hpp"
#include "srcc/io/train_reader.hpp"
#include "srcc/log/folded_log.hpp"
#include "srcc/measure/sandwich.hpp"
#include "srcc/memory/policy.hpp"
#include "srcc/memory/resident.hpp"
#include "srcc/movement/env_store.hpp"
#include "srcc/run_stages.hpp"
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

template <class T> std::vector<Tensor<T>> read_all(const TrainReader& r, TransferLog& log) {
  std::vector<Tensor<T>> out;
  for (std::size_t j = 0; j < r.info().length(); ++j) out.push_back(to_internal<T>(r.read_site(j, log), r.info(), j, log));
  return out;
}

// A name for a column from a train's group ("/H_MPO" → "H_MPO"), unique among `taken`.
std::string column_label(const TrainRef& ref, std::vector<std::string>& taken) {
  std::string base = ref.group.empty() ? ref.file : ref.group;
  base = base.substr(base.find_last_of('/') + 1);
  if (const auto dot = base.rfind(".h5"); dot != std::string::npos && dot + 3 == base.size()) base.resize(dot);
  std::string label;
  for (char c : base) label += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  if (label.empty()) label = "O";
  std::string unique = label;
  for (int k = 2; std::find(taken.begin(), taken.end(), unique) != taken.end(); ++k) unique = label + "_" + std::to_string(k);
  taken.push_back(unique);
  return unique;
}

struct Column {
  std::string name, unit, meaning;
  bool integer = false;
};

std::string columns_json(const std::vector<Column>& columns) {
  std::string out = "[";
  for (const auto& c : columns) {
    JsonObject o;
    o.add("name", c.name).add("unit", c.unit).add("meaning", c.meaning);
    out += (out.size() > 1 ? ", " : "") + o.str();
  }
  return out + "]";
}

template <class T> std::string content_hash(const std::vector<Tensor<T>>& sites) {
  std::string bytes;
  for (const auto& s : sites) bytes.append(reinterpret_cast<const char*>(s.data.data()), s.bytes());
  return hash_hex(bytes);
}

std::string describe_train(const TrainInfo& t) {
  std::ostringstream out;
  out << t.where() << " " << train_kind_name(t.kind) << " " << dtype_name(t.dtype()) << " bonds";
  for (std::size_t j = 0; j + 1 < t.length(); ++j) out << " " << t.dims[j][kLegR];
  return out.str();
}

// "key=value" lines: what must be the same for a run to continue another (the steps asked for
// and how often states are saved may change).
using Fingerprint = std::vector<std::pair<std::string, std::string>>;

std::string to_text(const Fingerprint& f) {
  std::string out;
  for (const auto& [k, v] : f) out += k + "=" + v + "\n";
  return out;
}

Fingerprint from_text(const std::string& text) {
  Fingerprint out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const auto eq = line.find('=');
    if (eq != std::string::npos) out.emplace_back(line.substr(0, eq), line.substr(eq + 1));
  }
  return out;
}

std::string number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace

std::string EvolveSummary::to_json() const {
  JsonObject o;
  o.add("output", output)
      .add("steps", steps)
      .add("steps_done", steps_done)
      .add("resumed_from", resumed_from)
      .add("norm", norm)
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

namespace {

template <class T>
EvolveSummary evolve_typed(const EvolveOptions& eo, std::vector<TrainReader>& readers, Stack stack,
                           std::vector<std::string> notes, Reporter& reporter,
                           const std::function<void()>& check_interrupt) {
  const auto wall0 = Clock::now();
  const RunOptions& ro = eo.run;
  const std::size_t nstep = ro.trains.size() - 1;
  const std::size_t nmeasure = eo.measure.size();
  TransferLog log;
  EvolveSummary sum;
  sum.output = ro.output;
  sum.steps = eo.steps;

  // The step, the observables and the reference in memory (MPOs of small bond); the state too.
  StackData<T> data;
  for (std::size_t i = 0; i < nstep; ++i) data.sites.push_back(read_all<T>(readers[i], log));
  std::vector<std::vector<Tensor<T>>> measure;
  for (std::size_t i = 0; i < nmeasure; ++i) measure.push_back(read_all<T>(readers[nstep + 1 + i], log));
  std::vector<Tensor<T>> reference;
  if (eo.overlap) reference = read_all<T>(readers.back(), log);
  std::vector<Tensor<T>> state = read_all<T>(readers[nstep], log);
  for (const auto& r : readers) r.check_unchanged();
  FoldedLog history;  // what the output's /log/transfers will hold
  history.add_setup(log.take_from(0));

  // What a resumed run must share with this one.
  Fingerprint fp;
  for (std::size_t i = 0; i <= nstep; ++i)
    fp.emplace_back(i < nstep ? "step " + std::to_string(i + 1) : "state",
                    describe_train(readers[i].info()) + " content " +
                        content_hash(i < nstep ? data.sites[i] : state));
  for (std::size_t i = 0; i < nmeasure; ++i)
    fp.emplace_back("measure " + std::to_string(i + 1), describe_train(readers[nstep + 1 + i].info()) +
                                                            " content " + content_hash(measure[i]));
  if (eo.overlap) fp.emplace_back("overlap", describe_train(readers.back().info()) + " content " + content_hash(reference));
  const SweepOptions& so = ro.sweep;
  fp.emplace_back("chi", std::to_string(so.chi));
  fp.emplace_back("cutoff", number(so.cutoff) + (so.numerical_zeros ? "" : " (numerically zero directions kept)"));
  fp.emplace_back("oversample", number(so.oversample));
  fp.emplace_back("tol", number(so.tol));
  fp.emplace_back("block", std::to_string(so.block_start) + " " + std::to_string(so.block_step));
  fp.emplace_back("seed", std::to_string(so.seed));
  fp.emplace_back("dtype", std::string(dtype_name(dtype_of<T>)));
  fp.emplace_back("dt", number(eo.dt));
  fp.emplace_back("normalize", eo.normalize ? "yes" : "no");

  // The trajectory's columns.
  std::vector<Column> columns = {
      {"step", "1", "steps done", true},
      {"time", eo.dt != 0 ? "time units of --dt" : "steps", "step · dt (step number without --dt)"},
      {"norm", "1", "‖ψ‖ after the step, before --normalize"},
      {"error_estimate", "relative", "the step's estimated relative error"},
      {"error_budget", "relative", "the estimates of all steps so far, summed"},
      {"max_bond", "1", "the largest bond of the state", true},
      {"seconds", "s", "wall time of the step (sweep and measurements)"},
      {"sweep_seconds", "s", "wall time of the step's sweep"}};
  std::vector<std::string> labels;
  for (std::size_t i = 0; i < nmeasure; ++i) {
    const std::string l = column_label(eo.measure[i], labels);
    columns.push_back({l + "_re", "as the operator", "Re ⟨ψ|O|ψ⟩/⟨ψ|ψ⟩ of " + readers[nstep + 1 + i].info().where()});
    columns.push_back({l + "_im", "as the operator", "Im ⟨ψ|O|ψ⟩/⟨ψ|ψ⟩"});
  }
  if (eo.overlap) {
    columns.push_back({"overlap_re", "1", "Re ⟨ref|ψ⟩ with ref " + readers.back().info().where()});
    columns.push_back({"overlap_im", "1", "Im ⟨ref|ψ⟩"});
  }
  std::vector<TableColumn> rows;
  for (const auto& c : columns) rows.push_back({c.name, c.integer, {}});

  std::size_t done = 0;
  bool written = false;  // an output of this evolution exists (ours to update in place)
  if (eo.resume) {
    const EvolveRecord rec = read_evolve_record(ro.output);
    const Fingerprint old = from_text(rec.fingerprint);
    for (const auto& entry : fp) {
      const std::string& key = entry.first;
      const std::string& value = entry.second;
      auto it = std::find_if(old.begin(), old.end(), [&key](const auto& p) { return p.first == key; });
      if (it == old.end() || it->second != value)
        throw InputError(ro.output + ": made by another evolution: its " + key + " is '" +
                         (it == old.end() ? std::string("(none)") : it->second) + "', this run's '" + value + "'");
    }
    if (rec.trajectory.size() != rows.size())
      throw InputError(ro.output + ":" + h5names::kTrajectory + ": its columns are not this run's");
    for (std::size_t c = 0; c < rows.size(); ++c) {
      if (rec.trajectory[c].name != rows[c].name)
        throw InputError(ro.output + ":" + h5names::kTrajectory + ": column " + rec.trajectory[c].name + " where this run has " + rows[c].name);
      rows[c].values = rec.trajectory[c].values;
      rows[c].values.resize(static_cast<std::size_t>(rec.steps_done));
    }
    done = static_cast<std::size_t>(rec.steps_done);
    TrainReader last(TrainRef{ro.output, h5names::kResult, TrainFormat::kSrcc});
    state = read_all<T>(last, log);
    history.add_setup(log.take_from(0));
    written = true;
    sum.resumed_from = done;
    if (done >= eo.steps) reporter.step(ro.output + " holds " + std::to_string(done) + " steps already; nothing to do");
  }

  // Budgets and backends once; a plan per step (the state's bonds change).
  stack.layers.back().dims.clear();
  auto state_info = [&](TrainInfo info) {
    info.dims.clear();
    info.dtypes.clear();
    for (const auto& c : state) {
      info.dims.push_back({c.shape[kLegL], c.shape[kLegR], c.shape[kLegU], c.shape[kLegD]});
      info.dtypes.push_back(dtype_of<T>);
    }
    return info;
  };
  stack.layers.back() = state_info(readers[nstep].info());
  data.stack = stack;
  // Not a structured binding: the checkpoint lambda below uses both (clang before 16 cannot
  // capture a binding).
  auto planned = plan_and_backend(fitted(ro, stack, nullptr), stack, dtype_of<T>, true);
  Plan& plan0 = planned.first;
  auto& backends = planned.second;
  Backend& backend = *backends.front();
  auto& K = backend.kernels<T>();
  for (const auto& note : notes) reporter.warning(note);
  for (const auto& dir : remove_stale_scratch(plan0.budgets.scratch_dir))
    reporter.warning("removed " + dir + ": scratch directory of an earlier run whose process no longer exists");
  // --profile-gemm: every GEMM of the evolution, sweeps and measurements; the guard takes the
  // pointer back however the evolution ends.
  GemmProfile profile;
  struct StopProfiling {
    Backend* backend;
    ~StopProfiling() { backend->profile_gemms(nullptr); }
  } stop_profiling{&backend};
  if (ro.profile_gemm && !backend.profile_gemms(&profile))
    reporter.warning(opt::kProfileGemm.name() + ": " + backend.name() + " queues its GEMMs asynchronously; no profile");

  std::vector<std::pair<std::size_t, std::vector<Tensor<T>>>> to_save;  // until the next checkpoint
  std::uint64_t held_bytes = 0;  // theirs
  const std::uint64_t held_limit = plan0.budgets.host_bytes / kHeldStatesShare;
  double checkpoint_took = 0;  // seconds, the last one
  std::vector<SiteStats> last_sites;
  std::string last_plan = plan0.to_json();
  double budget = done > 0 ? rows[4].values.back() : 0.0;
  const std::string start_time = utc_now();
  auto last_checkpoint = Clock::now();
  QuietSweep quiet(reporter);

  // The output brought up to date: a new file written beside it and renamed into place, so that
  // a killed run leaves the last complete one. The states saved by earlier checkpoints are
  // copied from the version it replaces; everything else is written anew (an update in place
  // would leave each replaced /result, /log and /trajectory behind as dead space).
  auto checkpoint = [&](bool finished) {
    const auto t0 = Clock::now();
    sum.steps_done = done;
    sum.wall_seconds = since(wall0);
    sum.peak_rss_bytes = memory::peak_resident_bytes();
    const bool previous = written;
    ResultWriter out(ro.output, written || ro.force, ResultWriter::Mode::kNewFile, h5names::kTrajectory);
    TransferLog out_log;
    history.copy_to(out_log);
    const std::size_t mark = out_log.size();
    if (previous) {
      const auto tc = Clock::now();
      if (const auto bytes = out.copy_from(ro.output, h5names::kStates)) {
        const std::string where = "file:" + ro.output + ":" + h5names::kStates;
        out_log.add(TransferRecord{.what = "saved states", .mechanism = mechanism::kFileWrite, .source = where,
                                   .target = where, .dtype_from = std::string(dtype_name(dtype_of<T>)),
                                   .dtype_to = std::string(dtype_name(dtype_of<T>)),
                                   .bytes = static_cast<std::int64_t>(*bytes), .seconds = since(tc)});
      }
    }
    out.write_table(h5names::kTrajectory, rows, columns_json(columns));
    for (auto& [k, cores] : to_save)
      out.write_train(std::string(h5names::kStates) + "/" + std::to_string(k), TrainKind::kMps, cores, out_log,
                      "saved state");
    out.write_train(h5names::kResult, TrainKind::kMps, state, out_log, "result site");
    RunRecord record{.command_line = ro.command_line,
                     .plan_json = last_plan,
                     .blas = backend.library_info(),
                     .threads = backend.threads(),
                     .threads_source = ro.threads_source,
                     .seed = so.seed,
                     .start_utc = start_time,
                     .end_utc = utc_now(),
                     .wall_seconds = since(wall0),
                     .error_estimate = budget,
                     .summary_json = sum.to_json(),
                     .sites = last_sites};
    for (const auto& note : notes) record.notes += (record.notes.empty() ? "" : "\n") + note;
    record.evolve = RunRecord::Evolution{.steps = static_cast<std::int64_t>(eo.steps),
                                         .steps_done = static_cast<std::int64_t>(done),
                                         .fingerprint = to_text(fp),
                                         .dt = eo.dt,
                                         .normalize = eo.normalize};
    for (const auto& b : backends) record.devices += (record.devices.empty() ? "" : ",") + b->name();
    out.write_log(record, out_log, finished);
    out.commit();
    history.add_round(out_log.take_from(mark));
    to_save.clear();
    held_bytes = 0;
    written = true;
    last_checkpoint = Clock::now();
    checkpoint_took = since(t0);
    sum.checkpoint_seconds += checkpoint_took;
    ++sum.checkpoints;
  };

  std::size_t since_checkpoint = 0;
  try {
    for (std::size_t k = done + 1; k <= eo.steps; ++k) {
      check_interrupt();
      const auto t0 = Clock::now();
      // This step's stack, options and plan: the seed derived from the base and the step
      // number, so that a resumed run draws what the uninterrupted one drew.
      data.stack.layers.back() = state_info(readers[nstep].info());
      RunOptions step_options = fitted(ro, data.stack, nullptr);
      step_options.sweep.seed = Rng::derive_seed(so.seed, k);
      const Plan plan = make_plan(data.stack, step_options.sweep, dtype_of<T>, ro.threads, plan0.budgets, ro.device.gpu);
      last_plan = plan.to_json();
      data.sites.resize(nstep);
      data.sites.push_back(std::move(state));
      const auto ts = Clock::now();
      SweepResult<T> result = run_sweep(data, step_options.sweep, backend, log, quiet, check_interrupt, &plan);
      const double sweep_seconds = since(ts);
      state = std::move(result.cores);
      data.sites.pop_back();
      // The state's norm sits in core 0 (the others are right-orthonormal).
      const double norm = frobenius_norm(state.front());
      if (eo.normalize && norm > 0) {
        const auto inv = static_cast<real_t<T>>(1.0 / norm);
        for (auto& v : state.front().data) v *= inv;
      }
      const double norm2_now = eo.normalize && norm > 0 ? 1.0 : norm * norm;
      budget += result.error_estimate;
      std::int64_t max_bond = 1;
      for (const auto& c : state) max_bond = std::max<std::int64_t>(max_bond, static_cast<std::int64_t>(c.shape[kLegR]));
      const auto tm = Clock::now();
      // Observables not measured at this step are NaN in the table.
      const bool measured = k % eo.measure_every == 0 || k == eo.steps;
      const double nan = std::numeric_limits<double>::quiet_NaN();
      std::vector<cdouble> values(measured ? 0 : measure.size(), cdouble(nan, nan));
      cdouble ov = eo.overlap && !measured ? cdouble(nan, nan) : cdouble(0);
      for (const auto& op : measure) {
        if (!measured) break;
        Sandwich<T> s(K, 1);
        for (std::size_t j = 0; j < state.size(); ++j) s.add(state[j], {&op[j]}, state[j]);
        const Scaled v = s.value();
        sum.measure_flops += s.flops();
        values.push_back(norm2_now > 0 ? v.value * std::exp(v.log_scale) / norm2_now : cdouble(0));
      }
      if (eo.overlap && measured) {
        Sandwich<T> s(K, 0);
        for (std::size_t j = 0; j < state.size(); ++j) s.add(reference[j], {}, state[j]);
        ov = s.value().plain();
        sum.measure_flops += s.flops();
      }
      sum.measure_seconds += since(tm);
      sum.sweep_seconds += sweep_seconds;
      sum.sweep_flops += result.flops;
      const double seconds = since(t0);
      std::vector<double> row = {static_cast<double>(k), eo.dt != 0 ? eo.dt * static_cast<double>(k) : static_cast<double>(k),
                                 norm, result.error_estimate, budget, static_cast<double>(max_bond), seconds, sweep_seconds};
      for (const auto& v : values) {
        row.push_back(v.real());
        row.push_back(v.imag());
      }
      if (eo.overlap) {
        row.push_back(ov.real());
        row.push_back(ov.imag());
      }
      for (std::size_t c = 0; c < rows.size(); ++c) rows[c].values.push_back(row[c]);
      done = k;
      last_sites = result.sites;
      sum.norm = norm;
      sum.normalized = eo.normalize;
      sum.max_bond = max_bond;
      sum.error_budget = budget;
      char line[256];
      std::snprintf(line, sizeof line, "step %zu/%zu  t %.6g  norm %.6g  bond %lld  error %.2e (budget %.2e)  %.3f s",
                    k, eo.steps, row[1], norm, static_cast<long long>(max_bond), result.error_estimate, budget, seconds);
      std::string text = line;
      for (std::size_t i = 0; measured && i < values.size(); ++i) {
        char v[96];
        std::snprintf(v, sizeof v, "  %s %.10g", labels[i].c_str(), values[i].real());
        text += v;
      }
      if (eo.overlap && measured) {
        char v[64];
        std::snprintf(v, sizeof v, "  |overlap| %.10g", std::abs(ov));
        text += v;
      }
      reporter.step(text);
      history.add_round(log.take_from(0));
      ++since_checkpoint;
      if (eo.save_every > 0 && k % eo.save_every == 0) {
        to_save.emplace_back(k, state);
        for (const auto& c : state) held_bytes += c.size() * sizeof(T);
      }
      // Without --checkpoint-every, checkpoints are far enough apart to cost at most a tenth of
      // the run, however large the file has grown.
      const double interval = std::max(kCheckpointSeconds, checkpoint_took / kCheckpointShare);
      const bool due = (eo.checkpoint_every > 0 ? since_checkpoint >= eo.checkpoint_every
                                                : since(last_checkpoint) >= interval) ||
                       (held_limit > 0 && held_bytes >= held_limit);
      if (due && k < eo.steps) {
        checkpoint(false);
        since_checkpoint = 0;
      }
    }
  } catch (const InterruptedError& e) {
    // Stopped between steps (or within one, which is then not counted): what is done is kept.
    if (since_checkpoint > 0 || !written) checkpoint(false);
    throw InterruptedError(e.cause() + "; " + ro.output + " holds the " + std::to_string(done) +
                           " finished steps of " + std::to_string(eo.steps) + ": continue with --resume");
  }
  if (done > sum.resumed_from || !written) checkpoint(done >= eo.steps);
  sum.steps_done = done;
  sum.wall_seconds = since(wall0);
  sum.peak_rss_bytes = memory::peak_resident_bytes();
  if (ro.profile_gemm) {
    backend.profile_gemms(nullptr);
    sum.gemm_profile = profile.rows();
  }
  reporter.progress("write", 1, 1);
  return sum;
}

}  // namespace

EvolveSummary evolve(const EvolveOptions& eo, Reporter& reporter, const std::function<void()>& check_interrupt) {
  memory::configure_allocator();
  const RunOptions& ro = eo.run;
  validate(ro.sweep, true);
  if (eo.steps == 0) throw UsageError(opt::kSteps.name() + ": at least one step");
  if (ro.trains.size() < 2) throw UsageError("evolve: give the step's MPOs, then the state");
  std::vector<TrainRef> refs = ro.trains;
  refs.insert(refs.end(), eo.measure.begin(), eo.measure.end());
  if (eo.overlap) refs.push_back(*eo.overlap);
  std::vector<std::string> files;
  for (const auto& r : refs) files.push_back(r.file);
  check_output_not_input(ro.output, files);
  if (eo.resume) {
    if (!std::filesystem::exists(ro.output))
      throw InputError(ro.output + ": no such file to resume (--resume continues an evolution's output)");
    // Another command's output is exit 3 before any work; the file is read in a child first, as
    // every input is (read_probe.hpp).
    probe_files({ro.output}, [](const std::string& file) {
      (void)read_evolve_record(file);
      return std::string();
    });
  } else {
    check_output_path(ro.output, ro.force);
  }
  auto readers = open_trains(refs);
  const std::size_t nstep = ro.trains.size() - 1;
  Stack stack;
  for (std::size_t i = 0; i <= nstep; ++i) stack.layers.push_back(readers[i].info());
  for (std::size_t i = 0; i < nstep; ++i)
    if (stack.layers[i].kind != TrainKind::kMpo) throw UsageError(stack.layers[i].where() + ": a step is made of MPOs");
  if (stack.layers.back().kind != TrainKind::kMps) throw UsageError(stack.layers.back().where() + ": evolve takes an MPS as its state");
  validate_stack(stack);
  std::vector<std::string> notes = check_bases(stack);
  for (std::size_t i = nstep + 1; i < readers.size(); ++i) {
    const TrainInfo& t = readers[i].info();
    const bool is_ref = eo.overlap && i + 1 == readers.size();
    if (t.kind != (is_ref ? TrainKind::kMps : TrainKind::kMpo))
      throw UsageError(t.where() + (is_ref ? ": --overlap takes an MPS" : ": --measure takes MPOs"));
    if (t.length() != stack.length())
      throw InputError(t.where() + " has " + std::to_string(t.length()) + " sites but the state has " +
                       std::to_string(stack.length()));
    for (std::size_t j = 0; j < t.length(); ++j)
      if (t.dims[j][kLegU] != stack.up_dim(j) || (!is_ref && t.dims[j][kLegD] != stack.up_dim(j)))
        throw InputError(t.where(j) + ": physical legs do not match the state's (" + std::to_string(stack.up_dim(j)) + ")");
    Stack pair;
    pair.layers = {t, stack.layers.back()};
    for (const auto& n : check_bases(pair)) notes.push_back(n);
  }
  DType dt = working_dtype(ro, stack);
  for (std::size_t i = nstep + 1; i < readers.size(); ++i) dt = promote(dt, readers[i].info().dtype());
  note_working_dtype(ro, dt, reporter);
  return visit_dtype(dt, [&](auto zero) {
    return evolve_typed<decltype(zero)>(eo, readers, stack, notes, reporter, check_interrupt);
  });
}

}  // namespace srcc
