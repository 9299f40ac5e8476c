#include "cli.hpp"

#include <charconv>
#include <cstdint>
#include <fstream>
#include <limits>

#include "srcc/srcc.hpp"

namespace srcc::app {

const char* const kCommonFlagsHelp =
    "Common flags (--chi, --cutoff, --oversample, --tol, --seed, --dtype, --threads, "
    "--host-memory, --gpu-memory, --scratch-dir, --dry-run, --force, --skip-existing, "
    "--max-time, --seed-base, --json, -v, -q, --config) "
    "are listed by `src-compress --help`; give them before or after the subcommand.";

const char* const kExitCodeHelp =
    "Exit codes: 0 success, 1 internal error, 2 usage (bad flag or value), 3 input (missing or "
    "inconsistent input file, group, dataset or attribute), 4 output (exists without --force, "
    "cannot be written), 5 resource (memory, disk), 6 backend (BLAS/LAPACK/CUDA), 7 numerical "
    "(non-finite values, failed factorisation), 130 interrupted (SIGINT/SIGTERM; no output "
    "left behind).";

namespace {

// A whole number in [lo, hi], checked on the text: a sign, blanks, a fraction or a value past
// hi are refused with the range, never wrapped or truncated by the conversion.
CLI::Validator whole(std::uint64_t lo, std::uint64_t hi) {
  const std::string range = "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  return CLI::Validator(
      [lo, hi, range](std::string& in) -> std::string {
        std::uint64_t v = 0;
        const auto [end, ec] = std::from_chars(in.data(), in.data() + in.size(), v);
        const bool digits = !in.empty() && in.find_first_not_of("0123456789") == std::string::npos;
        if (!digits || end != in.data() + in.size() || ec == std::errc::result_out_of_range || v < lo ||
            v > hi)
          return "expected a whole number in " + range + ", got '" + in + "'";
        return std::string();
      },
      "INT in " + range);
}

constexpr std::uint64_t kAnyU64 = std::numeric_limits<std::uint64_t>::max();

}  // namespace

std::string explain_parse_error(const CLI::ParseError& e, int argc, char** argv) {
  const std::string what = e.what();
  const std::string prefix = "INI was not able to parse ";
  if (what.rfind(prefix, 0) != 0) return what;
  std::string key = what.substr(prefix.size());
  const auto dot = key.rfind('.');  // a key inside a [section] comes as section.key
  const std::string bare = dot == std::string::npos ? key : key.substr(dot + 1);
  for (int i = 1; i < argc; ++i) {
    std::string file;
    const std::string a = argv[i];
    if (a == "--config" && i + 1 < argc) file = argv[i + 1];
    else if (a.rfind("--config=", 0) == 0) file = a.substr(9);
    if (file.empty()) continue;
    std::ifstream in(file);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      const auto start = line.find_first_not_of(" \t");
      if (start == std::string::npos || line.compare(start, bare.size(), bare) != 0) continue;
      const auto after = line.find_first_not_of(" \t", start + bare.size());
      if (after != std::string::npos && (line[after] == '=' || line[after] == ':'))
        return file + ":" + std::to_string(n) + ": unknown key '" + key +
               "' (not a src-compress flag; see --help)";
    }
  }
  return "--config: unknown key '" + key + "' (not a src-compress flag; see --help)";
}

double oversample_factor(const std::string& text) {
  if (text.empty()) return 0.0;
  double f = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), f);
  if (ec != std::errc() || end != text.data() + text.size() || !(f >= 1.0 && f <= kMaxOversample))
    throw UsageError("--oversample: the factor must be a number in [1, " +
                     std::to_string(static_cast<int>(kMaxOversample)) + "], got '" + text + "'");
  return f;
}

Cli::Cli() {
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("src-compress ") + kVersion);
  app.set_config("--config", "", "Read flags from a CLI11 config file (`key = value` lines)");
  // A misspelt key in a batch config would otherwise be silently ignored.
  app.allow_config_extras(CLI::config_extras_mode::error);
  app.footer(kExitCodeHelp);

  auto& c = common;
  app.add_option("--chi", c.chi, "Max output bond dimension χ̄ (= sketch columns), >= 1")
      ->check(whole(1, kMaxChi));
  app.add_option("--cutoff", c.cutoff,
                 "Relative singular-value cutoff in [0, 1): keep σ >= cutoff·σ_max")
      ->capture_default_str();
  app.add_flag("--oversample{1.5}", c.oversample,
               "Oversample the sketch (paper §3.4): s = max(⌈F·χ̄⌉, χ̄ + 10) columns, then one "
               "SVD truncation sweep to χ̄ (and --tol/--cutoff). --oversample alone means "
               "F = 1.5; give another factor as --oversample=F");
  app.add_option("--tol", c.tol,
                 "Tolerance mode: per-bond relative Frobenius tolerance in (0, 1); each cut's "
                 "sketch grows until the leave-one-out error estimate meets it (global error "
                 "about sqrt(n-1)·tol). --chi becomes an optional cap");
  app.add_option("--block-start", c.block_start, "Tolerance mode: first sketch block (columns)")
      ->check(whole(1, kMaxChi))
      ->capture_default_str();
  app.add_option("--block-step", c.block_step, "Tolerance mode: columns added per round")
      ->check(whole(1, kMaxChi))
      ->capture_default_str();
  app.add_option("--seed", c.seed,
                 "Seed of the random sketch (default: drawn at random, printed and recorded)")
      ->check(whole(0, kAnyU64));
  app.add_option("--dtype", c.dtype,
                 "Working element type: auto (promoted input type), float32, float64, "
                 "complex64, complex128")
      ->capture_default_str();
  app.add_option("--threads", c.threads,
                 "Threads (0: $SLURM_CPUS_PER_TASK, else $OMP_NUM_THREADS, else the CPU affinity "
                 "mask; never more than the cores allotted)")
      ->check(whole(0, 4096))
      ->capture_default_str();
  app.add_option("--host-memory", c.host_memory,
                 "Host memory budget (bytes or 512MB, 4GiB, …; default: available memory minus "
                 "a margin). Environments that do not fit are spilled to --scratch-dir");
  app.add_option("--gpu-memory", c.gpu_memory,
                 "Device memory budget for the GPU backend (same units; default: free device "
                 "memory minus a margin)");
  app.add_option("--device", c.device,
                 "Where to compute: cpu, gpu (= gpu:0), gpu:N, or gpu:0,1,… to split the sketch "
                 "over several GPUs (CUDA; same seed, same result to rounding)")
      ->capture_default_str();
  app.add_option("--scratch-dir", c.scratch_dir,
                 "Directory for spilled environments (default: $TMPDIR or /tmp); a private "
                 "subdirectory is created per run and removed at its end");
  app.add_flag("--dry-run", c.dry_run,
               "apply/compress/truncate: print the plan (with --json: as JSON) and exit without "
               "reading tensor data");
  app.add_flag("--force", c.force, "Replace an existing output file");
  app.add_flag("--skip-existing", c.skip_existing,
               "Leave an output that is complete (/log@complete = 1) alone and count the task as "
               "done; an incomplete one is replaced");
  app.add_option("--max-time", c.max_time,
                 "Stop cleanly (exit 130, nothing written) if the run is still going after this "
                 "long: 3600, 90s, 15m, 1h30m, 01:30:00, 1-12:00:00");
  app.add_option("--seed-base", c.seed_base,
                 "Derive the seed from this base and the array task id (--task-id, else "
                 "$SLURM_ARRAY_TASK_ID): tasks differ, reruns repeat")
      ->check(whole(0, kAnyU64));
  app.add_option("--task-id", c.task_id, "Task id for --seed-base (default $SLURM_ARRAY_TASK_ID)")
      ->check(whole(0, kAnyU64));
  app.add_flag("--json", c.json, "Print a machine-readable JSON summary on stdout");
  app.add_flag("-v,--verbose", c.verbose, "More log lines on stderr (repeat for more)");
  app.add_flag("-q,--quiet", c.quiet, "Only warnings and errors on stderr");

  // apply, compress and truncate take trains and an output and share the common flags.
  auto product = [&](const char* name, const char* help, ProductArgs& args, const char* trains,
                     int min_trains, int max_trains) {
    CLI::App* cmd = app.add_subcommand(name, help);
    cmd->fallthrough();
    cmd->add_option("trains", args.trains, trains)->required()->expected(min_trains, max_trains);
    cmd->add_option("-o,--output", args.output, "Output .h5 file")->required();
    cmd->footer(std::string(kCommonFlagsHelp) + "\n\n" + kExitCodeHelp);
    return cmd;
  };
  apply_cmd = product(
      "apply",
      "Compressed product OPERATOR... STATE in mathematical order: `apply A B psi` is A·B·ψ "
      "(B acts first). STATE may be an MPS (result MPS) or an MPO (result MPO).",
      apply, "FILE.h5[:/group] ... (operators, then state)", 2, -1);
  compress_cmd = product("compress", "Compress one MPS or MPO to bond <= --chi", compress,
                         "FILE.h5[:/group]", 1, 1);
  truncate_cmd = product(
      "truncate",
      "Deterministic SVD truncation of one train to --chi / --cutoff / --tol (right-canonical "
      "form, then one SVD sweep): the optimal reference when the train is an exact product; "
      "cost grows like the cube of the input bond",
      truncate, "FILE.h5[:/group]", 1, 1);

  distance_cmd = app.add_subcommand(
      "distance", "Relative distance ‖A − B‖/‖B‖, norms and overlap ⟨A|B⟩ of two trains");
  distance_cmd->fallthrough();
  distance_cmd->add_option("trains", distance_trains, "A.h5[:/group] B.h5[:/group]")
      ->required()
      ->expected(2);

  collect_cmd = app.add_subcommand(
      "collect",
      "Tabulate outputs as CSV (file, complete, sites, max bond, bonds, error estimate, wall "
      "seconds, seed, threads, bytes moved by mechanism): the table to plot a sweep from");
  collect_cmd->fallthrough();
  collect_cmd->add_option("files", collect_files, "OUT.h5 ...")->required()->expected(1, -1);
  collect_cmd->add_option("-o,--output", collect_csv, "CSV file (default: stdout)");

  inspect_cmd = app.add_subcommand("inspect", "List the trains in an HDF5 file");
  inspect_cmd->fallthrough();
  inspect_cmd->add_option("file", inspect_file, "FILE.h5")->required();

  auto& g = generate;
  generate_cmd = app.add_subcommand(
      "generate",
      "Write an example train: random-mps / random-mpo (the SRC paper's recipe: entries "
      "Uniform[-0.5, 1], each site divided by its Frobenius norm), identity (MPO), ising "
      "(transverse-field Ising Hamiltonian MPO, bond 3)");
  generate_cmd->fallthrough();
  generate_cmd->add_option("kind", g.kind, "random-mps | random-mpo | identity | ising")
      ->required()
      ->check(CLI::IsMember({"random-mps", "random-mpo", "identity", "ising"}));
  generate_cmd->add_option("-o,--output", g.output, "FILE.h5[:/group] (default group by kind)")
      ->required();
  generate_cmd->add_option("--sites", g.sites, "Number of sites, >= 2")
      ->check(whole(2, 1u << 24))
      ->capture_default_str();
  generate_cmd->add_option("--bond", g.bond, "Inner bond dimension (random trains)")
      ->check(whole(1, 1u << 16))
      ->capture_default_str();
  generate_cmd->add_option("--phys", g.phys, "Physical dimension")
      ->check(whole(1, 1u << 12))
      ->capture_default_str();
  generate_cmd->add_option("--J", g.coupling, "Ising ZZ coupling")->capture_default_str();
  generate_cmd->add_option("--h", g.field, "Ising transverse field")->capture_default_str();
}

}  // namespace srcc::app
