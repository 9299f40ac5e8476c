#include "commands.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>

#include "common_flags.hpp"
#include "progress_reporter.hpp"
#include "signals.hpp"
#include "srcc/srcc.hpp"

namespace srcc::app {

namespace {

void print_summary(const RunSummary& s) {
  // sdc and sdcr (and fit sweeps from them) have no error estimate: say so, not "nan".
  char error[64];
  if (std::isfinite(s.error_estimate)) std::snprintf(error, sizeof error, "estimated %.2e", s.error_estimate);
  else std::snprintf(error, sizeof error, "not estimated (method %s)", s.method.c_str());
  std::printf("wrote %s: %s%s of %zu sites, max bond %lld, norm %s, %s, method %s%s, relative "
              "error %s%s\n",
              s.output.c_str(), std::string(train_kind_name(s.kind)).c_str(),
              s.terms > 1 ? (" (sum of " + std::to_string(s.terms) + " terms)").c_str() : "", s.sites,
              static_cast<long long>(s.max_bond), format_magnitude(s.log10_norm).c_str(), std::string(dtype_name(s.dtype)).c_str(),
              s.method.c_str(), s.fit_sweeps > 0 ? (" + " + std::to_string(s.fit_sweeps) + " fit sweeps").c_str() : "",
              error, s.output_format == "srcc" ? "" : (", as " + s.output_format).c_str());
  if (s.dropped_weight > 0 || s.truncated_weight > 0)
    std::printf("charge sectors: weight %.2e outside the state's total charge dropped, %.2e truncated\n",
                s.dropped_weight, s.truncated_weight);
  std::printf("time %.3f s (sweep with reading %.3f, write %.3f), %.2f GFLOP/s in the sweep, "
              "peak memory %.1f MB, seed %llu, %d threads\n",
              s.wall_seconds, s.sweep_seconds, s.write_seconds,
              s.sweep_seconds > 0 ? s.flops / 1e9 / s.sweep_seconds : 0.0,
              s.peak_rss_bytes / 1e6, static_cast<unsigned long long>(s.seed), s.threads);
}

// --dry-run: the plan, or a sum's plan of each term.
// A dry run's JSON fields beside its plans: what it says of the charges, where anything.
std::vector<std::pair<std::string, std::string>> note_fields(const std::string& note) {
  if (note.empty()) return {};
  return {{"symmetry_note", json_quote(note)}};
}

void print_plans(const std::vector<Plan>& plans, const RunOptions& o, bool json, const std::string& note) {
  if (json || plans.size() == 1) {
    std::printf("%s\n", json ? plans_json(plans, note_fields(note)).c_str() : plans.front().to_text().c_str());
    return;
  }
  for (std::size_t k = 0; k < plans.size(); ++k)
    std::printf("term %zu of %zu (weight %s, an equal share of the budgets):\n%s\n", k + 1, plans.size(),
                format_weight(o.terms[k].weight).c_str(), plans[k].to_text().c_str());
}

}  // namespace

void cmd_product(const Cli& cli, const ProductArgs& args, const std::string& command, const std::string& command_line) {
  const auto& c = cli.common;
  SweepOptions sweep = sweep_options(c);
  if (command == "truncate") sweep.method = Method::kSvd;
  validate(sweep);  // before anything is read or skipped
  RunOptions o;
  o.command = command;
  for (const auto& t : args.trains) o.trains.push_back(train_ref(cli, t));
  o.terms = sum_terms(cli, args.terms);
  if (!o.terms.empty() && !o.trains.empty())
    throw UsageError("apply: give either trains or --term options, not both (" + args.trains.front() +
                     " is not in a --term)");
  if (o.terms.empty() && o.trains.empty()) throw UsageError("apply: no trains given (TRAIN... or --term WEIGHT TRAIN...)");
  // An output that names an input is refused before --skip-existing could take it for an
  // incomplete output to replace.
  check_output_not_input(args.output, input_files(o));
  if (c.ranks > 0 && !c.dry_run) throw UsageError(opt::kRanks.name() + " plans a run: give it with " + opt::kDryRun.name());
  if (c.skip_existing && !c.dry_run && skipped(c, args.output)) return;
  o.output = args.output;
  // An incomplete output left by an interrupted batch is replaced under --skip-existing.
  o.force = c.force || (c.skip_existing && std::filesystem::exists(args.output));
  if (c.skip_existing && std::filesystem::exists(args.output))
    spdlog::warn("{}: incomplete output is replaced (--skip-existing)", args.output);
  o.sweep = sweep;  // the seed is resolved below
  execution_options(c, o);
  o.command_line = command_line;
  o.profile_gemm = c.profile_gemm;
  o.output_format = parse_train_format(c.output_format, opt::kOutputFormat.name());
  if (!c.template_train.empty()) o.template_train = train_ref(cli, c.template_train);
  o.symmetry = parse_symmetry(c.symmetry);
  if (c.dry_run) {
    o.sweep.seed = c.seed.value_or(0);
    const std::string note = symmetry_note(o);
    if (!note.empty() && !c.quiet) spdlog::info("{}", note);
    // Under a launcher the ranks it started; --ranks plans a job from outside one.
    const int ranks = c.ranks > 0 ? c.ranks : world_ranks().size();
    const std::vector<Plan> plans = plan_terms(o);
    if (ranks > 1) {
      const RankPlan shared = rank_plan(o, plans, ranks);
      if (c.json) {
        auto fields = note_fields(note);
        fields.emplace_back("rank_plan", shared.json());
        std::printf("%s\n", plans_json(plans, fields).c_str());
      } else {
        print_plans(plans, o, false, note);
        std::printf("%s", shared.text().c_str());
      }
    } else {
      print_plans(plans, o, c.json, note);
    }
    return;
  }
  // Every sweep draws and records a seed (the deterministic methods too: their fit sweeps or a
  // rerun with another method take it); truncate has none.
  if (o.sweep.method != Method::kSvd) o.sweep.seed = resolve_seed(c);
  const std::function<void()> check = interrupt_check(c, o, ", no output written");
  ProgressReporter progress;
  SilentReporter silent;  // ranks but the first: rank 0 speaks for them
  Reporter& reporter = world_ranks().rank() == 0 ? static_cast<Reporter&>(progress) : silent;
  const RunSummary s = run(o, reporter, check);
  if (world_ranks().rank() != 0) return;  // rank 0 speaks for the ranks
  // -q: warnings and errors only; the summary of a run is no warning (--json still prints it).
  if (c.json) std::printf("%s\n", s.to_json().c_str());
  else if (!c.quiet) print_summary(s);
  if (c.profile_gemm && !c.json) {
    std::fflush(stdout);  // the table after the summary, also when both go to one terminal
    for (const auto& line : GemmProfile::table(s.gemm_profile))
      std::fprintf(stderr, "%s\n", line.c_str());
  }
}

void cmd_evolve(const Cli& cli, const std::string& command_line) {
  const auto& c = cli.common;
  const EvolveArgs& a = cli.evolve;
  EvolveOptions e = a.options;  // its own flags bound straight to it
  RunOptions& o = e.run;
  o.sweep = sweep_options(c);
  for (const auto& t : a.trains) o.trains.push_back(train_ref(cli, t));
  for (const auto& m : a.measure) e.measure.push_back(train_ref(cli, m));
  if (!a.overlap.empty()) e.overlap = train_ref(cli, a.overlap);
  std::vector<std::string> files = input_files(o);
  for (const auto& m : e.measure) files.push_back(m.file);
  if (e.overlap) files.push_back(e.overlap->file);
  check_output_not_input(a.output, files);
  const TrainFormat out_format = parse_train_format(c.output_format, opt::kOutputFormat.name());
  if (out_format != TrainFormat::kAuto && out_format != TrainFormat::kSrcc)
    throw UsageError(opt::kOutputFormat.name() + " " + c.output_format + ": evolve writes its file in src-compress's layout");
  if (c.ranks > 0) throw UsageError(opt::kRanks.name() + " plans apply and compress; evolve's dry run shows its first step");
  if (c.skip_existing && !c.dry_run && skipped(c, a.output)) return;
  o.output = a.output;
  o.force = c.force;
  execution_options(c, o);
  o.command_line = command_line;
  o.profile_gemm = c.profile_gemm;
  o.symmetry = parse_symmetry(c.symmetry);
  if (c.dry_run) {
    e.run.sweep.seed = c.seed.value_or(0);
    const std::string note = evolve_symmetry_note(e);
    if (!note.empty() && !c.quiet) spdlog::info("{}", note);
    const std::vector<Plan> plans = plan_evolve(e);
    if (c.json) {
      std::printf("%s\n", plans_json(plans, note_fields(note)).c_str());
      return;
    }
    for (std::size_t m = 0; m < plans.size(); ++m)
      std::printf("%s%s\n", plans.size() > 1 ? ("term H^" + std::to_string(m) + "ψ of the --taylor step (an equal share of the budgets):\n").c_str() : "",
                  plans[m].to_text().c_str());
    std::printf("(the plan of the first step: each step is planned again for the state's bonds)\n");
    return;
  }
  e.resume = e.resume || (c.skip_existing && std::filesystem::exists(a.output));
  // A resumed run draws from the seed of the run it continues unless told otherwise.
  e.seed_of_resumed = e.resume && !c.seed && !c.seed_base;
  if (!e.seed_of_resumed) o.sweep.seed = resolve_seed(c);
  ProgressReporter progress;
  SilentReporter silent;  // ranks but the first: rank 0 speaks for them
  Reporter& reporter = world_ranks().rank() == 0 ? static_cast<Reporter&>(progress) : silent;
  const EvolveSummary s = evolve(e, reporter, interrupt_check(c, e.run, " between steps"));
  if (world_ranks().rank() != 0) return;
  if (c.json) {
    std::printf("%s\n", s.to_json().c_str());
    return;
  }
  if (c.quiet) return;
  // sdc and sdcr steps have no estimate to add up: say so, not "nan".
  char budget[80];
  if (std::isfinite(s.error_budget)) std::snprintf(budget, sizeof budget, "error budget %.2e", s.error_budget);
  else std::snprintf(budget, sizeof budget, "error budget not estimated (method %s)", method_name(o.sweep.method).c_str());
  std::printf("wrote %s: %zu of %zu steps%s, last state: %s %s, max bond %lld; %s\n",
              s.output.c_str(), s.steps_done, s.steps,
              s.resumed_from > 0 ? (" (from step " + std::to_string(s.resumed_from) + ")").c_str() : "",
              s.normalized ? "normalized, its last step's norm" : "norm", format_magnitude(s.log10_norm).c_str(),
              static_cast<long long>(s.max_bond),
              budget);
  std::printf("time %.3f s (sweeps %.3f, measurements %.3f, %zu checkpoints %.3f), peak memory %.1f MB\n",
              s.wall_seconds, s.sweep_seconds, s.measure_seconds, s.checkpoints, s.checkpoint_seconds,
              s.peak_rss_bytes / 1e6);
  if (c.profile_gemm) {
    std::fflush(stdout);
    for (const auto& line : GemmProfile::table(s.gemm_profile)) std::fprintf(stderr, "%s\n", line.c_str());
  }
}

}  // namespace srcc::app
