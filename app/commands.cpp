#include "commands.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>

#include "progress_reporter.hpp"
#include "signals.hpp"
#include "srcc/srcc.hpp"

namespace srcc::app {

namespace {

std::uint64_t resolve_seed(const CommonFlags& c) {
  if (c.seed) return *c.seed;
  if (c.seed_base) {
    std::uint64_t task = 0;
    if (c.task_id) {
      task = *c.task_id;
    } else if (const char* id = std::getenv("SLURM_ARRAY_TASK_ID"); id && *id) {
      task = std::strtoull(id, nullptr, 10);
    } else {
      throw UsageError(opt::kSeedBase.name() + ": needs --task-id or $SLURM_ARRAY_TASK_ID");
    }
    const std::uint64_t s = Rng::derive_seed(*c.seed_base, task);
    spdlog::info("seed {} (from --seed-base {} and task {})", s, *c.seed_base, task);
    return s;
  }
  const std::uint64_t s = Rng::random_seed();
  spdlog::info("seed {} (drawn at random; pass --seed {} to repeat this run)", s, s);
  return s;
}

// A train argument with the --format the user gave.
TrainRef train_ref(const Cli& cli, const std::string& arg) {
  TrainRef ref = parse_train_ref(arg);
  ref.format = parse_train_format(cli.common.format, opt::kFormat.name());
  return ref;
}

std::optional<DType> resolve_dtype(const std::string& name) {
  if (name == "auto") return std::nullopt;
  return parse_dtype(name, opt::kDtype.name());
}

// --skip-existing: true (and said so) when `output` is complete. An output that crashes the
// HDF5 library counts as incomplete: it is replaced.
bool skipped(const CommonFlags& c, const std::string& output) {
  bool complete = false;
  try {
    probe_files({output}, [](const std::string& file) {
      (void)is_complete_result(file);
      return std::string();
    });
    complete = is_complete_result(output);
  } catch (const InputError& e) {
    spdlog::warn("{}", e.what());
  }
  if (!complete) return false;
  spdlog::info("{}: complete output exists; skipped (--skip-existing)", output);
  if (c.json) {
    JsonObject j;
    j.add("output", output).add("skipped", true);
    std::printf("%s\n", j.str().c_str());
  } else if (!c.quiet) {
    std::printf("skipped %s: complete output exists\n", output.c_str());
  }
  return true;
}

// What every run takes from the common flags: working type, threads, budgets, device.
void execution_options(const CommonFlags& c, RunOptions& o) {
  o.dtype = resolve_dtype(c.dtype);
  const ThreadChoice threads = resolve_threads(c.threads);
  o.threads = threads.threads;
  o.threads_source = threads.source;
  spdlog::info("{} threads ({})", threads.threads, threads.source);
  if (!c.host_memory.empty()) o.host_memory = parse_size(c.host_memory, opt::kHostMemory.name());
  if (!c.gpu_memory.empty()) o.gpu_memory = parse_size(c.gpu_memory, opt::kGpuMemory.name());
  o.scratch_dir = c.scratch_dir;
  o.device = parse_device(c.device);
  if (!c.max_time.empty()) o.max_time_seconds = parse_duration(c.max_time, opt::kMaxTime.name());
}

// check_interrupt, and --max-time's deadline checked where signals are: between sites.
std::function<void()> interrupt_check(const CommonFlags& c, const std::string& what) {
  if (c.max_time.empty()) return check_interrupt;
  const double limit = parse_duration(c.max_time, opt::kMaxTime.name());
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(limit));
  return [deadline, text = c.max_time, what] {
    check_interrupt();
    if (std::chrono::steady_clock::now() > deadline)
      throw InterruptedError(opt::kMaxTime.name() + " " + text + " reached", "; stopped cleanly" + what);
  };
}

void print_summary(const RunSummary& s) {
  std::printf("wrote %s: %s of %zu sites, max bond %lld, norm %.6g, %s, estimated relative "
              "error %.2e%s\n",
              s.output.c_str(), std::string(train_kind_name(s.kind)).c_str(), s.sites,
              static_cast<long long>(s.max_bond), s.norm, std::string(dtype_name(s.dtype)).c_str(),
              s.error_estimate, s.output_format == "srcc" ? "" : (", as " + s.output_format).c_str());
  if (s.dropped_weight > 0 || s.truncated_weight > 0)
    std::printf("charge sectors: weight %.2e outside the state's total charge dropped, %.2e truncated\n",
                s.dropped_weight, s.truncated_weight);
  std::printf("time %.3f s (sweep with reading %.3f, write %.3f), %.2f GFLOP/s in the sweep, "
              "peak memory %.1f MB, seed %llu, %d threads\n",
              s.wall_seconds, s.sweep_seconds, s.write_seconds,
              s.sweep_seconds > 0 ? s.flops / 1e9 / s.sweep_seconds : 0.0,
              s.peak_rss_bytes / 1e6, static_cast<unsigned long long>(s.seed), s.threads);
}

}  // namespace

void cmd_product(const Cli& cli, const ProductArgs& args, const std::string& command_line,
                 Method method) {
  const auto& c = cli.common;
  SweepOptions sweep = c.sweep;
  sweep.oversample = parse_oversample(c.oversample);
  validate(sweep, method == Method::kSrc);  // before anything is read or skipped
  RunOptions o;
  o.method = method;
  for (const auto& t : args.trains) o.trains.push_back(train_ref(cli, t));
  // An output that names an input is refused before --skip-existing could take it for an
  // incomplete output to replace.
  check_output_not_input(args.output, input_files(o));
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
  if (c.dry_run) {
    o.sweep.seed = c.seed.value_or(0);
    const Plan plan = plan_run(o);
    std::printf("%s\n", c.json ? plan.to_json().c_str() : plan.to_text().c_str());
    return;
  }
  if (method == Method::kSrc) o.sweep.seed = resolve_seed(c);
  const std::function<void()> check = interrupt_check(c, ", no output written");
  ProgressReporter reporter;
  const RunSummary s = run(o, reporter, check);
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
  EvolveOptions e;
  RunOptions& o = e.run;
  o.sweep = c.sweep;
  o.sweep.oversample = parse_oversample(c.oversample);
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
  if (c.skip_existing && !c.dry_run && skipped(c, a.output)) return;
  o.output = a.output;
  o.force = c.force;
  execution_options(c, o);
  o.command_line = command_line;
  o.profile_gemm = c.profile_gemm;
  if (c.dry_run) {
    o.sweep.seed = c.seed.value_or(0);
    const Plan plan = plan_run(o);
    if (c.json) std::printf("%s\n", plan.to_json().c_str());
    else std::printf("%s\n(the plan of the first step: each step is planned again for the state's bonds)\n", plan.to_text().c_str());
    return;
  }
  e.resume = a.resume || (c.skip_existing && std::filesystem::exists(a.output));
  // A resumed run draws from the seed of the run it continues unless told otherwise.
  if (e.resume && !c.seed && !c.seed_base && std::filesystem::exists(a.output)) {
    o.sweep.seed = read_result_record(a.output).seed;
    spdlog::info("seed {} (the evolution's, from {})", o.sweep.seed, a.output);
  } else {
    o.sweep.seed = resolve_seed(c);
  }
  e.steps = a.steps;
  e.normalize = a.normalize;
  e.dt = a.dt;
  e.measure_every = a.measure_every;
  e.save_every = a.save_every;
  e.checkpoint_every = a.checkpoint_every;
  ProgressReporter reporter;
  const EvolveSummary s = evolve(e, reporter, interrupt_check(c, " between steps"));
  if (c.json) {
    std::printf("%s\n", s.to_json().c_str());
    return;
  }
  if (c.quiet) return;
  std::printf("wrote %s: %zu of %zu steps%s, last state: %s %.6g, max bond %lld; error budget %.2e\n",
              s.output.c_str(), s.steps_done, s.steps,
              s.resumed_from > 0 ? (" (from step " + std::to_string(s.resumed_from) + ")").c_str() : "",
              s.normalized ? "normalized, its last step's norm" : "norm", s.norm, static_cast<long long>(s.max_bond),
              s.error_budget);
  std::printf("time %.3f s (sweeps %.3f, measurements %.3f, %zu checkpoints %.3f), peak memory %.1f MB\n",
              s.wall_seconds, s.sweep_seconds, s.measure_seconds, s.checkpoints, s.checkpoint_seconds,
              s.peak_rss_bytes / 1e6);
  if (c.profile_gemm) {
    std::fflush(stdout);
    for (const auto& line : GemmProfile::table(s.gemm_profile)) std::fprintf(stderr, "%s\n", line.c_str());
  }
}

void cmd_distance(const Cli& cli) {
  const auto a = train_ref(cli, cli.distance_trains.at(0));
  const auto b = train_ref(cli, cli.distance_trains.at(1));
  const auto& common = cli.common;
  const Comparison c =
      compare(a, b, common.host_memory.empty() ? 0 : parse_size(common.host_memory, opt::kHostMemory.name()));
  if (cli.common.json) {
    std::printf("%s\n", c.to_json().c_str());
  } else {
    std::printf("‖A − B‖/‖B‖ = %.6e   ‖A‖ = %s   ‖B‖ = %s   ⟨A|B⟩/(‖A‖‖B‖) = %.6e%+.6ei\n",
                c.relative_distance, format_log10(c.log10_norm_a).c_str(),
                format_log10(c.log10_norm_b).c_str(), c.cosine.real(), c.cosine.imag());
  }
}

void cmd_expect(const Cli& cli) {
  const TrainRef ket = train_ref(cli, cli.expect_trains.at(0));
  std::vector<TrainRef> ops;
  for (std::size_t i = 1; i < cli.expect_trains.size(); ++i) ops.push_back(train_ref(cli, cli.expect_trains[i]));
  std::optional<TrainRef> bra;
  if (!cli.expect_bra.empty()) bra = train_ref(cli, cli.expect_bra);
  const ExpectResult r = expect(ket, ops, bra, cli.expect_variance);
  if (cli.common.json) {
    std::printf("%s\n", r.to_json().c_str());
    return;
  }
  std::printf("‖ψ‖ = %s%s\n", format_log10(r.log10_norm).c_str(),
              r.overlap ? (", ⟨φ|ψ⟩ = " + std::to_string(r.overlap->real()) + (r.overlap->imag() < 0 ? "" : "+") +
                           std::to_string(r.overlap->imag()) + "i").c_str()
                        : "");
  for (const auto& e : r.rows) {
    std::printf("%s  %s = %.12g%+.3gi", e.op.c_str(), bra ? "⟨φ|O|ψ⟩" : "⟨O⟩", e.value.real(), e.value.imag());
    if (e.variance) std::printf("  variance %.6g", *e.variance);
    std::printf("\n");
  }
}

void cmd_collect(const Cli& cli) {
  if (!cli.collect_csv.empty()) {
    check_output_not_input(cli.collect_csv, cli.collect_files);
    check_output_path(cli.collect_csv, cli.common.force);
  }
  probe_files(cli.collect_files, [](const std::string& file) {
    (void)read_result_record(file);
    return std::string();
  });
  // One row per output: each cell as CSV text and as a JSON value (--json: an array of objects).
  struct Cell {
    const char* name;
    std::string csv, json;
  };
  auto quote = [](const std::string& s) {
    std::string out = "\"";
    for (char ch : s) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return out + "\"";
  };
  auto number = [](double v, const char* format) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return std::string(buf);
  };
  std::vector<std::vector<Cell>> rows;
  for (const auto& file : cli.collect_files) {
    poll_interrupt();
    const ResultRecord r = read_result_record(file);
    std::string bonds;
    for (auto b : r.bonds) bonds += (bonds.empty() ? "" : " ") + std::to_string(b);
    auto bytes = [&](const char* m) {
      auto it = r.bytes_by_mechanism.find(m);
      return std::to_string(it == r.bytes_by_mechanism.end() ? 0 : it->second);
    };
    auto integer = [](std::int64_t v) { return Cell{nullptr, std::to_string(v), std::to_string(v)}; };
    auto text = [&](const std::string& v) { return Cell{nullptr, quote(v), json_quote(v)}; };
    auto real = [&](double v, const char* format) {
      return Cell{nullptr, number(v, format), std::isfinite(v) ? number(v, "%.17g") : "null"};
    };
    std::vector<std::pair<const char*, Cell>> cells = {
        {"file", text(file)},
        {"complete", Cell{nullptr, r.complete ? "1" : "0", r.complete ? "true" : "false"}},
        {"result", Cell{nullptr, r.kind, json_quote(r.kind)}},
        {"sites", integer(static_cast<std::int64_t>(r.sites))},
        {"max_bond", integer(r.max_bond)},
        {"bonds", Cell{nullptr, bonds, json_array(r.bonds)}},
        {"error_estimate", real(r.error_estimate, "%.6e")},
        {"wall_seconds", real(r.wall_seconds, "%.6f")},
        {"seed", Cell{nullptr, std::to_string(r.seed), std::to_string(r.seed)}},
        {"threads", integer(r.threads)},
        {"bytes_file_read", Cell{nullptr, bytes("file read"), bytes("file read")}},
        {"bytes_file_write", Cell{nullptr, bytes("file write"), bytes("file write")}},
        {"bytes_host_copy", Cell{nullptr, bytes("host copy"), bytes("host copy")}},
        {"bytes_device_move", Cell{nullptr, bytes("device move"), bytes("device move")}},
        {"command_line", text(r.command_line)},
        {"command", text(r.command)},
        {"mode", text(r.mode)},
        {"chi", real(r.chi, "%.0f")},
        {"tol", real(r.tol, "%.6g")},
        {"oversample", real(r.oversample, "%.6g")},
        {"cutoff", real(r.cutoff, "%.6g")},
        {"norm", real(r.norm, "%.17g")},
        {"peak_rss_bytes", integer(r.peak_rss_bytes)},
    };
    std::vector<Cell> row;
    for (auto& [name, cell] : cells) {
      cell.name = name;
      row.push_back(std::move(cell));
    }
    rows.push_back(std::move(row));
  }
  std::string out_text;
  if (cli.common.json) {
    out_text = "[";
    for (const auto& row : rows) {
      std::string o = "{";
      for (const auto& c : row) o += (o.size() > 1 ? ", " : "") + json_quote(c.name) + ": " + c.json;
      out_text += (out_text.size() > 1 ? ", " : "") + o + "}";
    }
    out_text += "]\n";
  } else {
    // The columns, even without rows (no output is no input to a table).
    const char* names[] = {"file", "complete", "result", "sites", "max_bond", "bonds", "error_estimate",
                           "wall_seconds", "seed", "threads", "bytes_file_read", "bytes_file_write",
                           "bytes_host_copy", "bytes_device_move", "command_line", "command", "mode", "chi",
                           "tol", "oversample", "cutoff", "norm", "peak_rss_bytes"};
    for (const char* n : names) out_text += std::string(out_text.empty() ? "" : ",") + n;
    out_text += "\n";
    for (const auto& row : rows) {
      std::string line;
      for (const auto& c : row) line += (line.empty() ? "" : ",") + c.csv;
      out_text += line + "\n";
    }
  }
  if (cli.collect_csv.empty()) {
    std::fputs(out_text.c_str(), stdout);
    return;
  }
  // The same rules as every output: never over an existing file without --force, written
  // beside it and renamed into place only when complete.
  OutputFile out(cli.collect_csv, cli.common.force);
  {
    std::ofstream f(out.temp_path());
    f << out_text;
    f.flush();
    if (!f) throw ResourceError(cli.collect_csv + ": cannot write the table (disk full?)");
  }
  out.commit();
}

namespace {

// An output's /log: which command made it, how, with what error estimate (text output only;
// --json lists trains).
void print_provenance(const std::string& file) {
  ResultRecord r;
  try {
    r = read_result_record(file);
  } catch (const InputError&) {
    return;  // no output of ours
  }
  std::printf("/log  %s by src-compress %s at %s, %.3f s on %s (%lld threads)%s\n",
              r.command.empty() ? "a run" : r.command.c_str(), r.tool_version.c_str(), r.start_time.c_str(),
              r.wall_seconds, r.devices.c_str(), static_cast<long long>(r.threads),
              r.complete ? "" : "; not complete");
  std::printf("  mode %s, chi %g, cutoff %g, tol %g, oversample %g, seed %llu; estimated relative error %.2e, "
              "norm %.6g\n",
              r.mode.c_str(), r.chi, r.cutoff, r.tol, r.oversample, static_cast<unsigned long long>(r.seed),
              r.error_estimate, r.norm);
  std::printf("  command: %s\n", printable(r.command_line).c_str());
}

// An evolution's output: how far it got and the last row of its trajectory (text output only;
// --json lists trains).
void print_trajectory(const std::string& file) {
  EvolveRecord rec;
  try {
    rec = read_evolve_record(file);
  } catch (const InputError&) {
    return;  // no evolution's output
  }
  std::printf("%s  %lld of %lld steps%s\n", h5names::kTrajectory, rec.steps_done, rec.steps,
              rec.complete ? "" : " (a checkpoint: continue with evolve --resume)");
  if (rec.trajectory.empty() || rec.trajectory.front().values.empty()) return;
  std::string last = "  last row:";
  for (const auto& c : rec.trajectory) {
    char v[96];
    std::snprintf(v, sizeof v, c.integer ? "  %s %.0f" : "  %s %.10g", c.name.c_str(), c.values.back());
    last += v;
  }
  std::printf("%s\n", last.c_str());
}

}  // namespace

void cmd_inspect(const Cli& cli) {
  const TrainRef ref = parse_train_ref(cli.inspect_file);
  const std::string& file = ref.file;
  probe_files({file}, [](const std::string& f) {
    (void)list_trains(f);
    for (const auto& read : {std::function<void()>([&] { (void)read_evolve_record(f); }),
                             std::function<void()>([&] { (void)read_result_record(f); })}) {
      try {
        read();
      } catch (const InputError&) {
      }
    }
    return std::string();
  });
  auto trains = list_trains(file);
  if (!ref.group.empty()) {
    std::erase_if(trains, [&](const ListedTrain& t) { return t.group != ref.group; });
    if (trains.empty()) {
      (void)TrainReader(ref);  // names what is wrong: no such group, not a train, …
      throw InputError(file + ":" + ref.group + ": not a train");
    }
  }
  std::string json = "[";
  for (const auto& listed : trains) {
    const std::string format(train_format_name(listed.format));
    if (!listed.info) {
      if (cli.common.json) {
        JsonObject o;
        o.add("group", listed.group).add("format", format).add("refused", listed.refused);
        json += (json.size() > 1 ? ", " : "") + o.str();
      } else {
        std::printf("%s  not read (format %s)\n", listed.group.c_str(), format.c_str());
      }
      continue;
    }
    const TrainInfo& t = *listed.info;
    // Bonds that do not chain, outer bonds that are not 1: what a product would refuse (most
    // often a wrong layout), said here before any run.
    std::string warning;
    try {
      validate_stack(Stack{{t}});
    } catch (const InputError& e) {
      warning = e.what();
    }
    std::vector<std::size_t> bonds, phys;
    for (std::size_t j = 0; j + 1 < t.length(); ++j) bonds.push_back(t.dims[j][kLegR]);
    for (const auto& d : t.dims) phys.push_back(d[kLegU]);
    if (cli.common.json) {
      JsonObject o;
      o.add("group", t.group)
          .add("format", format)
          .add("type", std::string(train_kind_name(t.kind)))
          .add("layout", t.layout)
          .add("length", t.length())
          .add_raw("bonds", json_array(bonds))
          .add_raw("phys", json_array(phys))
          .add("max_bond", t.max_bond())
          .add("dtype", std::string(dtype_name(t.dtype())));
      if (!warning.empty()) o.add("warning", warning);
      json += (json.size() > 1 ? ", " : "") + o.str();
      continue;
    }
    std::printf("%s  %s  length %zu  layout %s  %s  max bond %zu  format %s\n", t.group.c_str(),
                std::string(train_kind_name(t.kind)).c_str(), t.length(), t.layout.c_str(),
                std::string(dtype_name(t.dtype())).c_str(), t.max_bond(), format.c_str());
    std::printf("  bonds %s\n  phys  %s\n", json_array(bonds).c_str(), json_array(phys).c_str());
    if (!warning.empty()) {
      std::printf("  warning: %s\n", printable(warning).c_str());
      spdlog::warn("{}", printable(warning));
    }
  }
  if (cli.common.json) std::printf("%s]\n", json.c_str());
  else if (trains.empty()) std::printf("%s: no trains\n", file.c_str());
  if (!cli.common.json && (ref.group.empty() || ref.group == h5names::kResult)) {
    print_provenance(file);
    if (ref.group.empty()) print_trajectory(file);
  }
  // The whole list is shown; a train that cannot be read still makes it an input error.
  for (const auto& listed : trains)
    if (!listed.info) throw InputError(listed.refused);
}

void cmd_generate(const Cli& cli) {
  const auto& g = cli.generate;
  const auto& c = cli.common;
  TrainRef ref = parse_train_ref(g.output);
  const bool is_mps = g.kind == "random-mps" || g.kind == "product";
  const bool spins = g.kind == "ising" || g.kind == "ising-step" || g.kind == "magnetization";
  const bool group_given = !ref.group.empty();
  if (ref.group == "/") throw UsageError("-o " + g.output + ": give the train a group, e.g. FILE.h5:/psi");
  if (ref.group.empty())
    ref.group = is_mps ? "/psi" : g.kind == "ising" ? "/H" : g.kind == "ising-step" ? "/U" : g.kind == "magnetization" ? "/M" : "/A";
  // A real-time step is complex; everything else is real unless --dtype says otherwise.
  const bool complex_step = g.kind == "ising-step" && !g.imaginary;
  const DType dt = c.dtype != "auto" ? parse_dtype(c.dtype, opt::kDtype.name())
                                     : complex_step ? DType::kComplex128 : DType::kFloat64;
  if (spins && g.phys != 2)
    throw UsageError(opt::kPhys.name() + ": " + g.kind + " is for spins 1/2 (phys 2), got " + std::to_string(g.phys));
  if (g.kind == "ising-step" && g.dt == 0)
    throw UsageError(opt::kStepDt.name() + ": ising-step needs the step's time");
  const std::uint64_t seed = g.kind.rfind("random", 0) == 0 ? resolve_seed(c) : 0;
  // FILE.h5:/group adds the group to FILE.h5 (or creates it); FILE.h5 alone writes a new file.
  ResultWriter out(ref.file, c.force,
                   group_given ? ResultWriter::Mode::kAddGroup : ResultWriter::Mode::kNewFile,
                   ref.group);
  const TrainKind kind = is_mps ? TrainKind::kMps : TrainKind::kMpo;
  const bool random = g.kind.rfind("random", 0) == 0;
  // One site at a time: the train never has to fit in memory, one site must.
  const std::size_t bond = random ? g.bond : g.kind == "ising" ? 3 : g.kind == "ising-step" || g.kind == "magnetization" ? 2 : 1;
  const double site_bytes = static_cast<double>(bond) * static_cast<double>(bond) *
                            static_cast<double>(g.phys) * static_cast<double>(is_mps ? 1 : g.phys) *
                            static_cast<double>(dtype_size(dt));
  const std::uint64_t budget =
      host_budget(c.host_memory.empty() ? 0 : parse_size(c.host_memory, opt::kHostMemory.name()));
  if (site_bytes > static_cast<double>(budget))
    throw ResourceError("generate " + g.kind + ": one site of bond " + std::to_string(bond) +
                        " needs " + format_size(static_cast<std::uint64_t>(std::min(site_bytes, 1.8e19))) +
                        " but the host budget is " + format_size(budget) + " (" +
                        opt::kHostMemory.name() + ")");
  TransferLog unused;
  visit_dtype(dt, [&](auto zero) {
    using T = decltype(zero);
    Rng rng(seed);
    out.begin_train(ref.group, kind, g.sites);
    for (std::size_t j = 0; j < g.sites; ++j) {
      const Tensor<T> site = random                    ? random_site<T>(kind, j, g.sites, g.bond, g.phys, rng)
                             : g.kind == "identity"      ? identity_site<T>(g.phys)
                             : g.kind == "product"       ? product_site<T>(j, g.sites, g.phys)
                             : g.kind == "magnetization" ? magnetization_site<T>(j, g.sites)
                             : g.kind == "ising-step"
                                 ? ising_step_site<T>(j, g.sites, g.coupling, g.field, g.dt, g.imaginary)
                                 : ising_site<T>(j, g.sites, g.coupling, g.field);
      out.write_site(ref.group, kind, j, g.sites, site, unused, "generated site");
    }
  });
  out.commit();
  if (c.json) {
    JsonObject o;
    o.add("output", ref.file).add("group", ref.group).add("kind", g.kind).add("seed", seed);
    std::printf("%s\n", o.str().c_str());
  } else if (!c.quiet) {
    std::printf("wrote %s:%s (%s, %zu sites)\n", ref.file.c_str(), ref.group.c_str(),
                g.kind.c_str(), g.sites);
  }
}

}  // namespace srcc::app
