#pragma once
// The command line (CLI11): subcommands, their arguments, and the flags of
// srcc/core/options.hpp bound to the fields they set.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <map>
#include <string>
#include <vector>

#include "srcc/srcc.hpp"

namespace srcc::app {

// Flags shared by every subcommand; defined on the top-level app (subcommands fall through),
// so a --config file sets them as plain `key = value` lines. What each flag means, its unit and
// its fallback are in srcc/core/options.hpp; numeric defaults are those of the fields bound.
struct CommonFlags {
  SweepOptions sweep;                  // --chi, --cutoff, --tol, --block-start, --block-step,
                                       // --fit-sweeps, --fit-tol
  std::string oversample;              // --oversample[=F]: "" off, read by parse_oversample()
  std::string method = "src";          // --method, read by parse_method()
  std::string symmetry = "auto";       // --symmetry, read by parse_symmetry()
  std::optional<std::uint64_t> seed;   // --seed
  std::optional<std::uint64_t> seed_base;  // --seed-base
  std::optional<std::uint64_t> task_id;    // --task-id
  std::string max_time;                // --max-time
  bool skip_existing = false;          // --skip-existing
  std::string dtype = "auto";          // --dtype
  int threads = 0;                     // --threads
  std::string host_memory;             // --host-memory ("" = detected)
  std::string gpu_memory;              // --gpu-memory ("" = detected)
  std::string scratch_dir;             // --scratch-dir ("" = $TMPDIR or /tmp)
  std::string device = "cpu";          // --device
  std::string format = "auto";         // --format (of the inputs)
  std::string output_format = "auto";  // --output-format
  std::string template_train;          // --template
  bool dry_run = false;                // --dry-run
  int ranks = 0;                       // --ranks (0: as launched)
  bool profile_gemm = false;           // --profile-gemm
  bool force = false;                  // --force
  bool json = false;                   // --json
  int verbose = 0;                     // -v (repeatable)
  bool quiet = false;                  // -q
};

struct ProductArgs {                   // apply / compress
  std::vector<std::string> trains;     // FILE.h5[:/group], operators first, state last
  // apply --term WEIGHT TRAIN…, each occurrence's words (a config file's `term = "W T…"`
  // lines arrive as one word each: common_flags.cpp's sum_terms splits them).
  std::vector<std::vector<std::string>> terms;
  std::string output;                  // -o: output .h5
};

struct EvolveArgs {                   // flags described in srcc/core/options.hpp
  std::vector<std::string> trains;     // the step's MPOs, then the state
  std::string output;                  // -o
  std::vector<std::string> measure;    // --measure
  std::string overlap;                 // --overlap ("" = none)
  EvolveOptions options;               // the rest, bound straight to their fields
};

struct GenerateArgs {                  // flags described in srcc/core/options.hpp
  std::string kind;                    // a row of the example table (train/examples.cpp)
  std::string output;                  // -o: FILE.h5[:/group]
  std::size_t sites = 10;              // --sites
  std::size_t bond = 4;                // --bond
  std::size_t phys = 2;                // --phys
  double coupling = 1.0;               // --J
  std::optional<double> field;         // --h (ising: 1, xxz: 0 when not given)
  double delta = 1.0;                  // --delta (xxz)
  double spread = 2.0;                 // --sector-spread (charged-random)
  std::optional<long long> total_charge;  // --total-charge (charged-random)
  std::string config;                  // --config-state (product)
  double dt = 0;                       // --dt (ising-step)
  bool imaginary = false;              // --imaginary-time (ising-step)
  std::string site;                    // --site (opsum, product)
  std::string pattern;                 // --pattern (product)
  std::string basis_of;                // --basis-of (opsum)
  std::vector<std::string> terms;      // --term (opsum)
  std::string terms_file;              // --terms (opsum)
  bool translate = false;              // --translate (opsum)
  double interaction = 1.0;            // --U (hubbard)
  std::string from;                    // --from (step)
  std::string approximation = "II";    // --approximation (step)
  int order = 1;                       // --order (step)
};

struct Cli {
  CLI::App app{"src-compress: compressed products of tensor networks by Successive Randomized "
               "Compression (SRC, arXiv:2504.06475)"};
  CommonFlags common;
  ProductArgs apply, compress, truncate;
  EvolveArgs evolve;
  std::string inspect_file;
  std::vector<std::string> distance_trains;  // A, B
  std::vector<std::string> expect_trains;    // the state, then the operators
  std::string expect_bra;                    // --bra: ⟨φ|O|ψ⟩ ("" = ⟨ψ|O|ψ⟩/⟨ψ|ψ⟩)
  bool expect_variance = false;              // --variance
  bool expect_entropy = false;               // --entropy
  double expect_renyi = 0;                   // --renyi α (0 = none)
  std::size_t expect_spectrum = 0;           // --spectrum N: the N largest Schmidt values per bond in the text
  std::string expect_site;                   // --site ("" = from the sites' dimension)
  std::vector<std::string> expect_site_ops;  // --site-op
  std::vector<std::string> expect_correlations;  // --correlation A,B
  std::string expect_range;                  // --site-range I:J ("" = every site)
  bool expect_connected = false;             // --connected
  bool expect_trace = false;                 // --trace
  std::vector<std::string> collect_files;    // outputs to tabulate
  std::string collect_csv;                   // -o: CSV file ("" = stdout)
  GenerateArgs generate;
  CLI::App* apply_cmd = nullptr;
  CLI::App* compress_cmd = nullptr;
  CLI::App* truncate_cmd = nullptr;
  CLI::App* evolve_cmd = nullptr;
  CLI::App* distance_cmd = nullptr;
  CLI::App* expect_cmd = nullptr;
  CLI::App* collect_cmd = nullptr;
  CLI::App* inspect_cmd = nullptr;
  CLI::App* generate_cmd = nullptr;
  // The common flags (registered on the top-level app) each subcommand takes, by long name
  // ("--chi"): listed in its help, and a warning names any other that is given to it.
  std::map<const CLI::App*, std::vector<std::string>> takes;

  Cli();
  // After parsing: what follows from which flags were given (an explicit --cutoff 0 keeps the
  // numerically zero directions).
  void settle();
  // The common flags given (on the command line or in a config file) that the chosen
  // subcommand has no use for, and that subcommand's name.
  std::pair<std::string, std::vector<std::string>> unused_flags() const;

 private:
  // The flags and subcommands, a group each (cli.cpp).
  void add_common_flags();
  void add_products();
  void add_evolve();
  void add_measures();
  void add_file_commands();
  void add_generate();
  void describe_common_flags();
};

// The parse error as a user should read it: an unknown key in a --config file is named with
// the file and line (CLI11 names the key only).
std::string explain_parse_error(const CLI::ParseError& e, int argc, char** argv);

// Every --config file on the command line must be a regular file of at most kMaxConfigBytes
// (CLI11 would block on a FIFO and read /dev/zero until memory runs out). Throws UsageError
// naming the file.
inline constexpr std::size_t kMaxConfigBytes = std::size_t{1} << 20;
void check_config_files(int argc, char** argv);

// Exit codes as --help prints them, from srcc/core/error.hpp.
extern const std::string kExitCodeHelp;

}  // namespace srcc::app
