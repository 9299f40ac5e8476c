#include "srcc/session/run.hpp"

#include "srcc/session/stages.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>

#include "srcc/backend/cpu/cpu_backend.hpp"
#include "srcc/backend/gemm_rate.hpp"
#include "srcc/core/duration.hpp"
#include "srcc/core/error.hpp"
#include "srcc/core/json.hpp"
#include "srcc/core/options.hpp"
#include "srcc/core/size.hpp"
#include "srcc/core/text.hpp"
#include "srcc/core/weight.hpp"
#include "srcc/io/file_site_source.hpp"
#include "srcc/io/h5/h5_names.hpp"
#include "srcc/io/output_file.hpp"
#include "srcc/io/result_writer.hpp"
#include "srcc/io/train_reader.hpp"
#include "srcc/memory/policy.hpp"
#include "srcc/memory/resident.hpp"
#include "srcc/plan/flops.hpp"
#include "srcc/session/rank_share.hpp"
#include "srcc/session/symmetric_run.hpp"
#include "srcc/session/write_back.hpp"
#include "srcc/sweep/rank_exchange.hpp"
#include "srcc/sweep/svd_truncate.hpp"
#include "srcc/sweep/sweep.hpp"
#include "srcc/symmetric/block_ops.hpp"
#include "srcc/train/term_sum.hpp"

namespace srcc {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// One term's trains (a product is one term of weight 1).
struct Inputs {
  std::vector<TrainReader> readers;
  Stack stack;
  std::vector<std::string> notes;  // what could not be checked (check_bases), for /log
  std::complex<double> weight = 1;
};

Inputs open_term(const std::vector<TrainRef>& trains, std::complex<double> weight) {
  Inputs in;
  in.weight = weight;
  in.readers = open_trains(trains);
  for (const auto& r : in.readers) in.stack.layers.push_back(r.info());
  validate_stack(in.stack);
  in.notes = check_bases(in.stack);
  return in;
}

std::vector<const Stack*> stacks_of(const std::vector<Inputs>& terms) {
  std::vector<const Stack*> out;
  for (const auto& t : terms) out.push_back(&t.stack);
  return out;
}

std::vector<Inputs> open_inputs(const RunOptions& o) {
  std::vector<Inputs> terms;
  if (o.terms.empty()) {
    if (o.trains.empty()) throw UsageError("no input trains given");
    terms.push_back(open_term(o.trains, 1.0));
    return terms;
  }
  if (!o.trains.empty()) throw UsageError("give the trains of a sum in its --term options only");
  for (const auto& t : o.terms) {
    if (t.trains.empty()) throw UsageError("--term " + format_weight(t.weight) + ": no trains given");
    terms.push_back(open_term(t.trains, t.weight));
  }
  if (!method_row(o.sweep.method).takes_sums)
    throw UsageError(method_name(o.sweep.method) + " takes one train, not a sum of --term products");
  validate_terms(stacks_of(terms));
  return terms;
}

// /log's record of a sum's terms: [{"weight": [re, im], "trains": ["file:/group", …]}, …].
std::string terms_json(const std::vector<Inputs>& terms) {
  if (terms.size() == 1 && terms.front().weight == 1.0) return "";
  std::string rows;
  for (const auto& t : terms) {
    std::vector<std::string> names;
    for (const auto& l : t.stack.layers) names.push_back(l.where());
    rows += (rows.empty() ? "" : ",") +
            JsonObject()
                .add_raw("weight", "[" + json_number(t.weight.real()) + ", " + json_number(t.weight.imag()) + "]")
                .add_raw("trains", json_strings(names))
                .str();
  }
  return "[" + rows + "]";
}

// The result's bonds, norm and the sweep's own figures in the summary: from its dense cores, or
// from its blocks where a run on charges kept only those.
template <class T>
void summarize(const SweepResult<T>& result, const std::vector<BlockTensor<T>>& blocks, Kernels<T>& K, RunSummary& sum,
               Reporter& reporter) {
  sum.flops = result.flops;
  sum.error_estimate = result.error_estimate;
  sum.capped_cuts = result.capped_cuts;
  sum.fit_sweeps = result.fit.size();
  if (!result.fit.empty()) {
    std::string rows;
    for (const auto& f : result.fit)
      rows += (rows.empty() ? "" : ",") +
              JsonObject().add("norm", f.norm).add("gain", f.gain).add("error_estimate", f.error_estimate)
                  .add("seconds", f.seconds).str();
    sum.fit_json = "[" + rows + "]";
  }
  if (result.capped_cuts > 0)
    reporter.warning(std::to_string(result.capped_cuts) +
                     " cut(s) reached the --chi cap before the tolerance; raise --chi or --tol");
  sum.kind = result.kind;
  const bool dense = !result.cores.empty();
  sum.sites = dense ? result.cores.size() : blocks.size();
  for (std::size_t j = 0; j + 1 < sum.sites; ++j) {
    sum.bonds.push_back(static_cast<std::int64_t>(dense ? result.cores[j].shape[kLegR] : blocks[j].legs[1].dense_size()));
    sum.max_bond = std::max(sum.max_bond, sum.bonds.back());
  }
  // The norm is ‖core 0‖ · e^{log_scale}: in logarithms, since it may lie beyond a double.
  const double core0 = dense ? frobenius_norm(result.cores.front()) : norm_of(K, blocks.front());
  sum.log10_norm = (std::log(core0) + result.log_scale) / std::log(10.0);
  sum.norm = std::pow(10.0, sum.log10_norm);
}

// The train a result is written on: --template's (checked against the state: length, kind and
// physical legs, and named bases that agree), or the state input itself.
TrainInfo write_template(const RunOptions& o, const TrainInfo& state) {
  if (!o.template_train) return state;
  const TrainReader t(*o.template_train);
  const TrainInfo& info = t.info();
  if (info.kind != state.kind || info.length() != state.length())
    throw InputError(opt::kTemplate.name() + " " + info.where() + " is " + std::string(info.kind == TrainKind::kMps ? "an MPS" : "an MPO") +
                     " of " + std::to_string(info.length()) + " sites; the result is " +
                     (state.kind == TrainKind::kMps ? "an MPS" : "an MPO") + " of " + std::to_string(state.length()));
  for (std::size_t j = 0; j < state.length(); ++j)
    if (info.dims[j][kLegU] != state.dims[j][kLegU] || info.dims[j][kLegD] != state.dims[j][kLegD])
      throw InputError(opt::kTemplate.name() + " " + info.where(j) + ": physical legs do not match " + state.where(j));
  Stack pair;
  pair.layers = {info, state};
  if (state.kind == TrainKind::kMps) (void)check_bases(pair);  // a mismatch throws, naming both
  return info;
}

// The format /result is written in: --output-format's, else the template's own.
TrainFormat written_format(const RunOptions& o, const TrainInfo& state) {
  return o.output_format == TrainFormat::kAuto ? state.format : o.output_format;
}

// /result in the output's format: ours, or the state's own library's (write_back.hpp), whose
// block structure may drop or truncate a little weight: that joins the error estimate.
template <class T>
void write_result(const RunOptions& o, const TrainInfo& state, SweepResult<T>& result, const PhysicalCharges* charges,
                  std::vector<BlockTensor<T>> blocks, std::optional<SchmidtForm> schmidt, Kernels<T>& kernels,
                  ResultWriter& out, TransferLog& log, RunSummary& sum, Reporter& reporter) {
  const TrainFormat format = written_format(o, state);
  sum.output_format = std::string(train_format_name(format));
  if (format == TrainFormat::kSrcc) {
    // A run on charges kept only its blocks: each site made dense as it is written and its
    // blocks let go, so the result is never held twice, nor dense all at once.
    if (result.cores.empty())
      out.write_train<T>(h5names::kResult, result.kind, blocks.size(), [&](std::size_t j) {
        Tensor<T> site = dense_of_blocks(kernels, blocks[j]);
        blocks[j] = BlockTensor<T>();
        return site;
      }, log, "result site");
    else
      out.write_train(h5names::kResult, result.kind, result.cores, log, "result site");
    if (result.log_scale != 0) out.double_attr(h5names::kResult, h5names::kAttrLogScale, result.log_scale);
    if (charges) out.write_charges(h5names::kResult, *charges);
    out.write_basis(h5names::kResult, uniform_basis(state));
    return;
  }
  if (result.log_scale != 0)
    throw NumericalError("the result's norm is about " + format_log10(sum.log10_norm) + ", beyond the float64 in which " +
                         sum.output_format + "'s format stores it; write it with " + opt::kOutputFormat.name() +
                         " srcc, whose log_scale attribute keeps it");
  auto host = make_cpu_backend(o.exec.threads);
  // The result's cores go into the conversion: after it nothing needs them.
  std::optional<ChargedCores<T>> charged;
  if (charges && !blocks.empty()) {
    // From a device's memory to the host's, where the conversion works, one site at a time.
    for (auto& b : blocks) b = moved_to(kernels, host->kernels<T>(), std::move(b));
    charged = ChargedCores<T>{std::move(blocks), *charges, std::move(schmidt), true};  // a sweep's: B form
    result.cores.clear();  // the blocks hold the result: it is held once
  }
  const WriteBack wb =
      write_back(out, format, state, result.kind, std::move(result.cores), host->kernels<T>(), log, std::move(charged));
  sum.dropped_weight = wb.dropped_weight;
  sum.truncated_weight = wb.truncated_weight;
  // Both are part of the written result's error: in quadrature with the estimate.
  sum.error_estimate = std::sqrt(sum.error_estimate * sum.error_estimate + wb.dropped_weight + wb.truncated_weight);
  if (wb.dropped_weight > 1e-12 || wb.truncated_weight > 1e-12) {
    char text[200];
    std::snprintf(text, sizeof text,
                  "written in %s's block structure: a weight of %.2e lay outside the state's total "
                  "charge (dropped) and %.2e was truncated by sector",
                  sum.output_format.c_str(), wb.dropped_weight, wb.truncated_weight);
    reporter.warning(text);
  }
}

template <class T>
RunSummary run_typed(const RunOptions& o, std::vector<Inputs>& ins, const std::vector<Plan>& plans,
                     const std::vector<std::unique_ptr<Backend>>& backends, const SymmetryChoice& sym,
                     const TrainInfo& like, Reporter& reporter,
                     const std::function<void()>& check_interrupt, RankShare& share) {
  Ranks* workers = share.workers.get();
  const auto wall0 = Clock::now();
  const std::string start_time = utc_now();
  RunSummary sum;
  sum.output = o.output;
  sum.dtype = dtype_of<T>;
  sum.seed = o.sweep.seed;
  sum.method = method_name(o.sweep.method);
  sum.terms = ins.size();
  TransferLog log;

  // Sites are read on demand, one at a time with read-ahead, in the working type and order.
  std::vector<std::unique_ptr<FileSiteSource<T>>> sources;
  std::vector<SweepTerm<T>> terms;
  for (std::size_t k = 0; k < ins.size(); ++k) {
    sources.push_back(std::make_unique<FileSiteSource<T>>(ins[k].readers, log));
    terms.push_back({&ins[k].stack, sources.back().get(), scalar_weight<T>(ins[k].weight), &plans[k]});
  }
  Backend* backend = backends.front().get();
  std::vector<Backend*> more;
  for (std::size_t i = 1; i < backends.size(); ++i) more.push_back(backends[i].get());
  sum.threads = backend->threads();
  sum.threads_source = o.exec.threads_source;
  GemmProfiling profiling(*backend, o.profile_gemm, reporter);
  auto t0 = Clock::now();
  std::optional<PhysicalCharges> charges;
  SweepResult<T> result;
  std::vector<BlockTensor<T>> blocks;
  std::optional<SchmidtForm> schmidt;
  if (sym.keep) {
    std::vector<SymmetricInput<T>> inputs;
    for (const auto& term : terms) inputs.push_back({term.stack, term.source, term.weight, term.plan});
    std::optional<RankExchange> dealt;  // over ranks: a sum's terms dealt, a product's columns split
    if (workers) dealt.emplace(workers, ins.size() > 1 ? RankExchange::Mode::kTerms : RankExchange::Mode::kColumns, ins.size(),
                               check_interrupt, log);
    // Only the blocks: the writer makes what its format needs from them. TeNPy's layout is
    // written from the B form with Schmidt bases, which a final truncation sweep can leave
    // instead of two more sweeps at the write.
    const ResultNeeds needs{.dense = false, .schmidt = written_format(o, like) == TrainFormat::kTenpy};
    SymmetricOutcome<T> so =
        symmetric_run(inputs, sym, o.sweep, *backend, reporter, check_interrupt, dealt ? &*dealt : nullptr, needs, &log);
    result = std::move(so.result);
    charges = std::move(so.charges);
    blocks = std::move(so.blocks);
    schmidt = std::move(so.schmidt);
    sum.symmetry = sym.name;
    sum.max_sectors = so.max_sectors;
  } else if (workers) {
    result = run_sweep(terms, o.sweep, *backend, log, reporter, check_interrupt, more, workers);
  } else {
    result = o.sweep.method != Method::kSvd ? run_sweep(terms, o.sweep, *backend, log, reporter, check_interrupt, more)
                                            : svd_truncate(ins.front().stack, *sources.front(), o.sweep, *backend, log);
  }
  sum.sweep_seconds = since(t0);
  if (workers) {
    // Every rank has the result; rank 0 writes it, with each rank's work and memory.
    sum.ranks = workers->size();
    sum.rank_flops = workers->gather_values(result.flops, check_interrupt);
    sum.rank_peak_rss_bytes = workers->gather_values(memory::peak_resident_bytes(), check_interrupt);
    share.lockstep.reset();  // the shared work is done: rank 0 writes, the others wait for it
    if (workers->rank() != 0) return sum;
    result.flops = 0;
    for (double f : sum.rank_flops) result.flops += f;
  }
  for (const auto& in : ins)
    for (const auto& r : in.readers) r.check_unchanged();
  sum.gemm_profile = profiling.finish();
  summarize(result, blocks, backend->kernels<T>(), sum, reporter);
  check_interrupt();

  t0 = Clock::now();
  ResultWriter out(o.output, o.force);
  write_result(o, like, result, charges ? &*charges : nullptr, std::move(blocks), std::move(schmidt),
               backend->kernels<T>(), out, log, sum, reporter);
  sum.bytes_by_mechanism = log.bytes_by_mechanism();
  sum.write_seconds = since(t0);
  sum.wall_seconds = since(wall0);
  sum.peak_rss_bytes = memory::peak_resident_bytes();
  if (!workers) {  // this process alone
    sum.rank_flops = {sum.flops};
    sum.rank_peak_rss_bytes = {sum.peak_rss_bytes};
  }
  for (const auto& b : backends)
    sum.device_peak_bytes = std::max<std::int64_t>(sum.device_peak_bytes,
                                                   static_cast<std::int64_t>(b->memory_peak()));

  RunRecord record{.command = o.command,
                   .command_line = o.command_line,
                   .plan_json = plans_json(plans),
                   .blas = backend->library_info(),
                   .threads = sum.threads,
                   .threads_source = o.exec.threads_source,
                   .seed = o.sweep.seed,
                   .method = sum.method,
                   .fit_json = sum.fit_json,
                   .terms_json = terms_json(ins),
                   .start_utc = start_time,
                   .end_utc = utc_now(),
                   .wall_seconds = sum.wall_seconds,
                   .error_estimate = sum.error_estimate,
                   .summary_json = sum.to_json(),
                   .output_format = sum.output_format,
                   .dropped_weight = sum.dropped_weight,
                   .sites = std::move(result.sites)};
  for (const auto& in : ins)
    for (const auto& note : in.notes) record.notes += (record.notes.empty() ? "" : "\n") + note;
  for (const auto& b : backends)
    record.devices += (record.devices.empty() ? "" : ",") + b->name();
  out.write_log(record, log);
  check_interrupt();
  out.commit();
  reporter.progress("write", 1, 1);
  return sum;
}

}  // namespace

std::vector<std::string> input_files(const RunOptions& o) {
  std::vector<std::string> files;
  for (const auto& t : o.trains) files.push_back(t.file);
  for (const auto& term : o.terms)
    for (const auto& t : term.trains) files.push_back(t.file);
  return files;
}

std::vector<Plan> plan_terms(const RunOptions& given) {
  validate(given.sweep);
  std::vector<Inputs> ins = open_inputs(given);
  const auto stacks = stacks_of(ins);
  return dry_run_plans(given, stacks, working_dtype(fitted(given, stacks, nullptr), stacks));
}

RankPlan rank_plan(const RunOptions& given, const std::vector<Plan>& plans, int ranks) {
  if (!why_not_spread(given, given.terms.size()).empty()) return rank_plan_of(given, {}, {}, ranks, "");
  std::vector<Inputs> ins = open_inputs(given);
  return rank_plan_of(given, stacks_of(ins), plans, ranks, "");
}

std::string symmetry_note(const RunOptions& given) {
  std::vector<Inputs> ins = open_inputs(given);
  return plan_symmetry_note(choose_symmetry(given, stacks_of(ins)));
}

Plan plan_run(const RunOptions& given) {
  if (!given.terms.empty()) throw UsageError("a sum of products has a plan per term (plan_terms)");
  return plan_terms(given).front();
}

RunSummary run(const RunOptions& given, Reporter& reporter,
               const std::function<void()>& check_interrupt) {
  memory::configure_allocator();
  validate(given.sweep);
  // Under MPI (rank_share.hpp): a run the ranks cannot share is rank 0's; the others wait at the
  // end of the command (end_together) and print nothing.
  Ranks& world = world_ranks();
  const std::string alone = world.size() > 1 ? why_not_spread(given, given.terms.size()) : "";
  if (!alone.empty()) {
    if (world.rank() != 0) return RunSummary{};
    reporter.note(alone + "; the other " + std::to_string(world.size() - 1) + " rank(s) wait");
  }
  check_output_path(given.output, given.force);
  check_output_not_input(given.output, input_files(given));
  std::vector<Inputs> ins = open_inputs(given);
  const auto stacks = stacks_of(ins);
  const TrainInfo like = write_template(given, ins.front().stack.layers.back());
  check_write_back(given.output_format, like);
  RunOptions options = fitted(given, stacks, &reporter);
  const DType dt = working_dtype(options, stacks);
  note_working_dtype(options, dt, reporter);
  auto planned = plans_and_backend(options, stacks, dt, true);
  std::vector<Plan>& plans = planned.first;  // named, not bound: lambdas capture them (clang 14)
  auto& backend = planned.second;
  if (!options.exec.device.gpu) warn_if_long(options, plans, *backend.front(), reporter);
  std::vector<std::string> notes;
  for (const auto& in : ins) notes.insert(notes.end(), in.notes.begin(), in.notes.end());
  before_work(notes, plans.front().budgets, reporter);
  SymmetryChoice sym = choose_symmetry(options, stacks);
  if (!sym.note.empty()) reporter.note(sym.note);
  RankShare share;
  if (world.size() > 1 && alone.empty()) {
    share = share_ranks(ins.size(), check_interrupt);
    if (!share.works) return RunSummary{};
    // One seed for all: every rank draws the same test tensors.
    if (share.workers) share.workers->broadcast(&options.sweep.seed, sizeof options.sweep.seed, 0, check_interrupt);
  }
  return visit_dtype(dt, [&](auto zero) {
    return run_typed<decltype(zero)>(options, ins, plans, backend, sym, like, reporter, check_interrupt, share);
  });
}

}  // namespace srcc
