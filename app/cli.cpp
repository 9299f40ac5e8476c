#include "cli.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>
#include <type_traits>

#include "srcc/srcc.hpp"

namespace srcc::app {

const std::string kExitCodeHelp = [] {
  std::string text = "Exit codes: 0 success, 1 internal error";
  for (ErrorKind k : kErrorKinds) text += ", " + std::to_string(exit_code(k)) + " " + exit_meaning(k);
  return text + ".";
}();

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

// The help of an option from its description: what it is, then what applies when it is not
// given (for a bound number, CLI11 shows the field's default itself).
std::string help_of(const opt::Option& o) {
  std::string help(o.help);
  if (!o.fallback.empty()) help += " (default: " + std::string(o.fallback) + ")";
  return help;
}

template <class T> CLI::Option* add(CLI::App& app, const opt::Option& o, T& target) {
  CLI::Option* option = app.add_option(std::string(o.flag), target, help_of(o));
  if (!o.value.empty() && o.value != "INT") option->type_name(std::string(o.value));
  if constexpr (std::is_arithmetic_v<T> || std::is_same_v<T, std::string>)
    if (o.fallback.empty()) option->capture_default_str();
  return option;
}

template <class T> CLI::Option* add_switch(CLI::App& app, const opt::Option& o, T& target) {
  return app.add_flag(std::string(o.flag), target, help_of(o));
}

// CLI11's reader of config files, past a UTF-8 byte-order mark (editors on Windows start files
// with one; it would otherwise be part of the first key, invisible in the error).
class ConfigWithoutBom final : public CLI::ConfigBase {
 public:
  std::vector<CLI::ConfigItem> from_config(std::istream& input) const override {
    char bom[3] = {0, 0, 0};
    input.read(bom, 3);
    if (!(input.gcount() == 3 && bom[0] == '\xef' && bom[1] == '\xbb' && bom[2] == '\xbf')) {
      input.clear();
      input.seekg(0);
    }
    return CLI::ConfigBase::from_config(input);
  }
};

// The files the command line names with --config FILE or --config=FILE, in order.
std::vector<std::string> config_files(int argc, char** argv) {
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--config" && i + 1 < argc) files.emplace_back(argv[i + 1]);
    else if (a.rfind("--config=", 0) == 0) files.push_back(a.substr(9));
  }
  return files;
}

// collect's columns, as its help lists them.
std::string column_list() {
  std::string out;
  for (const auto& c : result_table_columns()) out += (out.empty() ? "" : ", ") + c;
  return out;
}

}  // namespace

std::string explain_parse_error(const CLI::ParseError& e, int argc, char** argv) {
  const std::string what = e.what();
  const std::string prefix = "INI was not able to parse ";
  if (what.rfind(prefix, 0) != 0) return what;
  std::string key = what.substr(prefix.size());
  const auto dot = key.rfind('.');  // a key inside a [section] comes as section.key
  const std::string bare = dot == std::string::npos ? key : key.substr(dot + 1);
  const std::vector<std::string> files = config_files(argc, argv);
  for (const auto& file : files) {
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
  std::string named;
  for (const auto& file : files) named += (named.empty() ? "" : ", ") + file;
  return "--config " + named + ": unknown key '" + key + "' (not a src-compress flag; see --help)";
}

void check_config_files(int argc, char** argv) {
  for (const auto& file : config_files(argc, argv)) {
    struct stat st {};
    if (::stat(file.c_str(), &st) != 0)
      throw UsageError("--config " + file + ": " + std::strerror(errno));
    if (!S_ISREG(st.st_mode))
      throw UsageError("--config " + file + ": not a regular file (" +
                       (S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISDIR(st.st_mode) ? "a directory" : "a device") +
                       "); give a file of `key = value` lines");
    if (static_cast<std::size_t>(st.st_size) > kMaxConfigBytes)
      throw UsageError("--config " + file + ": " + std::to_string(st.st_size) +
                       " bytes; a config file is a few lines (at most 1 MiB)");
    std::ifstream in(file, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (std::size_t at = 0; at < text.size();) {
      const std::size_t n = utf8_sequence(std::string_view(text).substr(at));
      const auto c = static_cast<unsigned char>(text[at]);
      if (n == 0 || (c < 0x20 && c != '\n' && c != '\r' && c != '\t')) {
        char byte[8];
        std::snprintf(byte, sizeof byte, "0x%02x", c);
        throw UsageError("--config " + file + ": not a text file (byte " + std::to_string(at) + " is " + byte +
                         "); give a file of `key = value` lines");
      }
      at += n;
    }
  }
}


Cli::Cli() {
  app.require_subcommand(1);
  // The kernels are named because they decide the speed (a CPU OpenBLAS does not know gets its SSE3
  // ones); the benchmark scripts give the peers they run the same ones.
  app.set_version_flag("--version", [] { return std::string("src-compress ") + kVersion + "\nOpenBLAS kernels: " + blas_core(); });
  app.set_config("--config", "", "Read flags from a CLI11 config file (`key = value` lines)");
  app.config_formatter(std::make_shared<ConfigWithoutBom>());
  // A misspelt key in a batch config would otherwise be silently ignored.
  app.allow_config_extras(CLI::config_extras_mode::error);
  app.footer(kExitCodeHelp);
  add_common_flags();
  add_products();
  add_evolve();
  add_measures();
  add_file_commands();
  add_generate();
  describe_common_flags();
}

// The flags every subcommand may be given (before or after its name), bound to `common`.
void Cli::add_common_flags() {
  auto& c = common;
  add(app, opt::kChi, c.sweep.chi)->check(whole(1, kMaxChi));
  add(app, opt::kCutoff, c.sweep.cutoff);
  // A flag with an optional value: CLI11 would read it as an integer, so it is kept as text.
  app.add_flag(std::string(opt::kOversample.flag), c.oversample, help_of(opt::kOversample));
  add(app, opt::kTol, c.sweep.tol);
  add(app, opt::kMethod, c.method)
      ->description(std::string(opt::kMethod.help) + ": " + method_summaries() + " (default: " +
                    std::string(opt::kMethod.fallback) + ")");
  add(app, opt::kSymmetry, c.symmetry)->check(CLI::IsMember({"auto", "off"}));
  add(app, opt::kFitSweeps, c.sweep.fit_sweeps)->check(whole(0, 1000));
  add(app, opt::kFitTol, c.sweep.fit_tol);
  add(app, opt::kBlockStart, c.sweep.block_start)->check(whole(1, kMaxChi));
  add(app, opt::kBlockStep, c.sweep.block_step)->check(whole(1, kMaxChi));
  add(app, opt::kSeed, c.seed)->check(whole(0, kAnyU64));
  add(app, opt::kDtype, c.dtype);
  add(app, opt::kThreads, c.threads)->check(whole(0, 4096));
  add(app, opt::kHostMemory, c.host_memory);
  add(app, opt::kGpuMemory, c.gpu_memory);
  add(app, opt::kDevice, c.device);
  add(app, opt::kScratchDir, c.scratch_dir);
  add(app, opt::kFormat, c.format);
  add(app, opt::kOutputFormat, c.output_format);
  add(app, opt::kTemplate, c.template_train);
  add_switch(app, opt::kDryRun, c.dry_run);
  add(app, opt::kRanks, c.ranks)->check(whole(1, 65536));
  add_switch(app, opt::kProfileGemm, c.profile_gemm);
  add_switch(app, opt::kForce, c.force);
  add_switch(app, opt::kSkipExisting, c.skip_existing);
  add(app, opt::kMaxTime, c.max_time);
  add(app, opt::kSeedBase, c.seed_base)->check(whole(0, kAnyU64));
  add(app, opt::kTaskId, c.task_id)->check(whole(0, kAnyU64));
  add_switch(app, opt::kJson, c.json);
  add_switch(app, opt::kVerbose, c.verbose);
  add_switch(app, opt::kQuiet, c.quiet);
}

// apply, compress and truncate.
void Cli::add_products() {
  // apply, compress and truncate take trains and an output and share the common flags.
  auto product = [&](const char* name, const char* help, ProductArgs& args, const char* trains,
                     int min_trains, int max_trains) {
    CLI::App* cmd = app.add_subcommand(name, help);
    cmd->fallthrough();
    cmd->add_option("trains", args.trains, trains)->required()->expected(min_trains, max_trains);
    cmd->add_option("-o,--output", args.output, "Output .h5 file")->required();
    return cmd;
  };
  apply_cmd = product(
      "apply",
      "Compressed product OPERATOR... STATE in mathematical order: `apply A B psi` is A·B·ψ "
      "(B acts first). STATE may be an MPS (result MPS) or an MPO (result MPO). With --term, "
      "the compressed sum of several weighted products in one sweep.",
      apply, "FILE.h5[:/group] ... (operators, then state)", 2, -1);
  // A sum replaces the trains: they are checked in cmd_product (one or the other).
  apply_cmd->get_option("trains")->required(false);
  apply_cmd
      ->add_option("--term", apply.terms,
                   "WEIGHT TRAIN... : one term c·A·…·ψ of a sum Σ c_k A_k…ψ_k, compressed in one "
                   "sweep with one sketch (repeat per term; a term may be a single train; WEIGHT "
                   "real or complex: 0.5, -2e-3, 0.5+0.25i, (0.5,0.25)). In a config file, one "
                   "line per term under [apply]: term = \"WEIGHT TRAIN...\"")
      ->expected(1, -1)
      ->type_name("WEIGHT TRAIN...");
  compress_cmd = product("compress", "Compress one MPS or MPO to bond <= --chi", compress,
                         "FILE.h5[:/group]", 1, 1);
  truncate_cmd = product(
      "truncate",
      "Deterministic SVD truncation of one train to --chi / --cutoff / --tol (right-canonical "
      "form, then one SVD sweep): the optimal reference when the train is an exact product; "
      "cost grows like the cube of the input bond",
      truncate, "FILE.h5[:/group]", 1, 1);
}

// evolve.
void Cli::add_evolve() {
  auto& e = evolve;
  evolve_cmd = app.add_subcommand(
      "evolve",
      "Apply a step (MPOs, as apply takes them) N times to a state, compressed after each step "
      "(--chi, --cutoff, --oversample, --tol), in one process: a time evolution, power or "
      "imaginary-time iteration. Measures --measure MPOs and --overlap after every step into "
      "/trajectory, keeps /states/K (--save-every) and the last state as /result, and writes "
      "checkpoints that --resume continues");
  evolve_cmd->fallthrough();
  evolve_cmd->add_option("trains", e.trains, "STEP.h5[:/group] ... PSI.h5[:/group] (the step's MPOs, then the state)")
      ->required()
      ->expected(2, -1);
  evolve_cmd->add_option("-o,--output", e.output, "Output .h5 file")->required();
  EvolveOptions& eo = e.options;
  add(*evolve_cmd, opt::kSteps, eo.steps)->required()->check(whole(1, std::uint64_t{1} << 40));
  add_switch(*evolve_cmd, opt::kNormalize, eo.normalize);
  add(*evolve_cmd, opt::kDt, eo.dt);
  add(*evolve_cmd, opt::kMeasure, e.measure);
  add(*evolve_cmd, opt::kOverlap, e.overlap);
  add(*evolve_cmd, opt::kMeasureEvery, eo.measure_every)->check(whole(1, std::uint64_t{1} << 40));
  add(*evolve_cmd, opt::kMeasureSiteOp, eo.measure_site_ops);
  add_switch(*evolve_cmd, opt::kMeasureEntropy, eo.measure_entropy);
  add(*evolve_cmd, opt::kSiteType, eo.site);
  add(*evolve_cmd, opt::kSaveEvery, eo.save_every)->check(whole(0, std::uint64_t{1} << 40));
  add(*evolve_cmd, opt::kCheckpointEvery, eo.checkpoint_every)->check(whole(0, std::uint64_t{1} << 40));
  add_switch(*evolve_cmd, opt::kResume, eo.resume);
  add(*evolve_cmd, opt::kTaylor, eo.taylor)->check(whole(1, kMaxTaylorOrder));
  add_switch(*evolve_cmd, opt::kImaginaryTime, eo.imaginary_time);
}

// distance and expect.
void Cli::add_measures() {
  distance_cmd = app.add_subcommand(
      "distance", "Relative distance ‖A − B‖/‖B‖, norms and overlap ⟨A|B⟩ of two trains");
  distance_cmd->fallthrough();
  distance_cmd->add_option("trains", distance_trains, "A.h5[:/group] B.h5[:/group]")
      ->required()
      ->expected(2);

  expect_cmd = app.add_subcommand(
      "expect",
      "Expectation values ⟨ψ|O|ψ⟩/⟨ψ|ψ⟩ of MPOs in an MPS (or ⟨φ|O|ψ⟩ with --bra), contracted "
      "exactly, without compression; --variance adds ⟨O²⟩ − ⟨O⟩² without forming O²");
  expect_cmd->fallthrough();
  expect_cmd->add_option("trains", expect_trains, "PSI.h5[:/group] O.h5[:/group] ... (the state alone with --entropy)")
      ->required()
      ->expected(1, -1);
  expect_cmd->add_option("--bra", expect_bra, "PHI.h5[:/group]: the matrix elements ⟨φ|O|ψ⟩ instead");
  expect_cmd->add_flag("--variance", expect_variance, "Also ⟨O²⟩ − ⟨O⟩² in the state (not with --bra)");
  expect_cmd->add_flag("--entropy", expect_entropy,
                       "The state's entanglement at every bond: von Neumann entropy −Σ p ln p of its Schmidt values "
                       "(p = σ²/Σσ²), by charge sector when it carries charges; the state is held whole");
  expect_cmd->add_option("--renyi", expect_renyi, "With --entropy, also the Rényi entropy ln(Σ pᵅ)/(1 − α) of index α > 0, α ≠ 1")
      ->check(CLI::PositiveNumber);
  expect_cmd->add_option("--spectrum", expect_spectrum,
                         "With --entropy, print each bond's N largest Schmidt values (with their charges); --json has all")
      ->check(CLI::Range(std::size_t{0}, std::size_t{1} << 20));
  add(*expect_cmd, opt::kSiteType, expect_site);
  add(*expect_cmd, opt::kSiteOp, expect_site_ops);
  add(*expect_cmd, opt::kCorrelation, expect_correlations);
  add(*expect_cmd, opt::kCorrelationSites, expect_range);
  add_switch(*expect_cmd, opt::kConnected, expect_connected);
  add_switch(*expect_cmd, opt::kTrace, expect_trace);
}

// collect and inspect.
void Cli::add_file_commands() {
  collect_cmd = app.add_subcommand(
      "collect",
      "Tabulate outputs as CSV, or with --json as an array of objects, one per output, the table to plot "
      "a sweep from; columns: " + column_list() + " (docs/FORMAT.md)");
  collect_cmd->fallthrough();
  collect_cmd->add_option("files", collect_files, "OUT.h5 ...")->required()->expected(1, -1);
  collect_cmd->add_option("-o,--output", collect_csv, "CSV file (default: stdout)");

  inspect_cmd = app.add_subcommand("inspect", "List the trains in an HDF5 file");
  inspect_cmd->fallthrough();
  inspect_cmd->add_option("file", inspect_file, "FILE.h5")->required();
}

// generate.
void Cli::add_generate() {
  auto& g = generate;
  std::string summaries, names;
  std::vector<std::string> kinds;
  for (const auto& row : example_table()) {
    kinds.emplace_back(row.name);
    names += (names.empty() ? "" : " | ") + std::string(row.name);
    if (!row.summary.empty()) summaries += (summaries.empty() ? "" : ", ") + std::string(row.summary);
  }
  generate_cmd = app.add_subcommand("generate", "Write an example train: " + summaries);
  generate_cmd->fallthrough();
  generate_cmd->add_option("kind", g.kind, names)->required()->check(CLI::IsMember(kinds));
  generate_cmd->add_option("-o,--output", g.output, "FILE.h5[:/group] (default group by kind)")
      ->required();
  add(*generate_cmd, opt::kSites, g.sites)->check(whole(2, 1u << 24));
  add(*generate_cmd, opt::kBond, g.bond)->check(whole(1, 1u << 16));
  add(*generate_cmd, opt::kPhys, g.phys)->check(whole(1, 1u << 12));
  add(*generate_cmd, opt::kCoupling, g.coupling);
  add(*generate_cmd, opt::kField, g.field);
  add(*generate_cmd, opt::kDelta, g.delta);
  add(*generate_cmd, opt::kSectorSpread, g.spread);
  add(*generate_cmd, opt::kTotalCharge, g.total_charge);
  add(*generate_cmd, opt::kConfig, g.config);
  add(*generate_cmd, opt::kStepDt, g.dt);
  add_switch(*generate_cmd, opt::kImaginaryTime, g.imaginary);
  add(*generate_cmd, opt::kSiteType, g.site);
  add(*generate_cmd, opt::kBasisOf, g.basis_of);
  add(*generate_cmd, opt::kPattern, g.pattern)->check(CLI::IsMember({"neel", "domain-wall"}));
  add(*generate_cmd, opt::kTerm, g.terms);
  add(*generate_cmd, opt::kTermsFile, g.terms_file);
  add_switch(*generate_cmd, opt::kTranslate, g.translate);
  add(*generate_cmd, opt::kInteraction, g.interaction);
  add(*generate_cmd, opt::kStepFrom, g.from);
  add(*generate_cmd, opt::kApproximation, g.approximation)->check(CLI::IsMember({"I", "II"}));
  add(*generate_cmd, opt::kStepOrder, g.order)->check(CLI::IsMember({1, 2}));
}

// Which common flags each subcommand takes (`takes`), listed at the end of its help.
void Cli::describe_common_flags() {
  // The common flags each subcommand takes; every one also takes these.
  std::vector<std::string> every;
  for (const CLI::Option* o : app.get_options()) {
    const auto& longs = o->get_lnames();
    if (!longs.empty() && longs.front() != "help" && longs.front() != "version") every.push_back("--" + longs.front());
  }
  auto only = [&](std::initializer_list<const opt::Option*> flags) {
    std::vector<std::string> names = {"--config"};
    for (const auto* f : flags) names.push_back(f->name());
    for (const auto* f : {&opt::kJson, &opt::kVerbose, &opt::kQuiet}) names.push_back(f->name());
    return names;
  };
  auto except = [&](std::initializer_list<const opt::Option*> flags) {
    std::vector<std::string> names;
    for (const auto& n : every)
      if (std::none_of(flags.begin(), flags.end(), [&](const opt::Option* f) { return f->name() == n; }))
        names.push_back(n);
    return names;
  };
  takes[apply_cmd] = every;
  takes[compress_cmd] = every;
  takes[truncate_cmd] = except({&opt::kSeed, &opt::kSeedBase, &opt::kTaskId, &opt::kOversample, &opt::kBlockStart,
                                &opt::kBlockStep, &opt::kMethod, &opt::kFitSweeps, &opt::kFitTol});
  takes[evolve_cmd] = except({&opt::kOutputFormat, &opt::kTemplate});
  // The measurements compute where and with what the products do.
  takes[distance_cmd] = only({&opt::kFormat, &opt::kThreads, &opt::kHostMemory, &opt::kGpuMemory, &opt::kDevice, &opt::kScratchDir,
                              &opt::kSymmetry});
  takes[expect_cmd] = only({&opt::kFormat, &opt::kThreads, &opt::kHostMemory, &opt::kGpuMemory, &opt::kDevice, &opt::kScratchDir,
                            &opt::kSymmetry});
  takes[collect_cmd] = only({&opt::kForce});
  takes[inspect_cmd] = only({});
  takes[generate_cmd] = only({&opt::kSeed, &opt::kSeedBase, &opt::kTaskId, &opt::kDtype, &opt::kForce, &opt::kHostMemory});
  // Each subcommand's help ends with those flags, as CLI11 lists its own options.
  for (const auto& [cmd, names] : takes) {
    std::string text = "Common flags (before or after the subcommand):\n";
    for (const auto& n : names) {
      const CLI::Option* o = app.get_option_no_throw(n);
      if (o == nullptr) continue;
      std::string left = "  " + o->get_name(false, true);
      if (o->get_type_size() != 0 && !o->get_type_name().empty()) left += " " + o->get_type_name();
      if (!o->get_default_str().empty()) left += "=" + o->get_default_str();
      left.resize(std::max<std::size_t>(left.size() + 1, 30), ' ');
      text += left + o->get_description() + "\n";
    }
    const_cast<CLI::App*>(cmd)->footer(text + "\n" + kExitCodeHelp);
  }
}

void Cli::settle() {
  const CLI::Option* cutoff = app.get_option_no_throw(opt::kCutoff.name());
  common.sweep.numerical_zeros = !(cutoff != nullptr && cutoff->count() > 0 && common.sweep.cutoff == 0);
}

std::pair<std::string, std::vector<std::string>> Cli::unused_flags() const {
  for (const auto& [cmd, names] : takes) {
    if (!cmd->parsed()) continue;
    std::vector<std::string> unused;
    for (const CLI::Option* o : app.get_options()) {
      const auto& longs = o->get_lnames();
      if (longs.empty() || o->count() == 0) continue;
      const std::string n = "--" + longs.front();
      if (n != "--help" && n != "--version" && std::find(names.begin(), names.end(), n) == names.end())
        unused.push_back(n);
    }
    return {cmd->get_name(), unused};
  }
  return {};
}

}  // namespace srcc::app
