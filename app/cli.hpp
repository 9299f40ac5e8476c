#pragma once
// The command line: every flag, its unit, default and range, in one place (CLI11).
#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace srcc::app {

// Flags shared by every subcommand; defined on the top-level app (subcommands fall through),
// so a --config file sets them as plain `key = value` lines.
struct CommonFlags {
  std::size_t chi = 0;                 // --chi: max output bond χ̄ = sketch columns, >= 1
  double cutoff = 0.0;                 // --cutoff: relative singular-value cutoff in [0, 1)
  std::string oversample;              // --oversample[=F]: "" off; bare flag "1.5"; F >= 1,
                                       //   read as a real by oversample_factor()
  double tol = 0.0;                    // --tol: per-bond relative Frobenius tolerance, (0, 1)
  std::size_t block_start = 16;        // --block-start: tolerance mode's first sketch block
  std::size_t block_step = 16;         // --block-step: columns added per round
  std::optional<std::uint64_t> seed;   // --seed: unset = drawn at random, printed and recorded
  std::optional<std::uint64_t> seed_base;  // --seed-base: seed = derive(base, array task id)
  std::optional<std::uint64_t> task_id;    // --task-id: default $SLURM_ARRAY_TASK_ID
  std::string max_time;                // --max-time DURATION: stop cleanly before it runs out
  bool skip_existing = false;          // --skip-existing: leave complete outputs alone
  std::string dtype = "auto";          // --dtype: auto|float32|float64|complex64|complex128
  int threads = 0;                     // --threads: 0 = SLURM_CPUS_PER_TASK, OMP_NUM_THREADS,
                                       //   else the affinity mask
  std::string host_memory;             // --host-memory SIZE: host budget; "" = detected
  std::string gpu_memory;              // --gpu-memory SIZE: device budget (GPU backend)
  std::string scratch_dir;             // --scratch-dir DIR: spills; "" = $TMPDIR or /tmp
  std::string device = "cpu";          // --device: cpu | gpu | gpu:N
  bool dry_run = false;                // --dry-run: print the plan, read no tensor data
  bool force = false;                  // --force: replace an existing output file
  bool json = false;                   // --json: machine-readable summary on stdout
  int verbose = 0;                     // -v (repeatable): more log lines on stderr
  bool quiet = false;                  // -q: warnings and errors only
};

struct ProductArgs {                   // apply / compress
  std::vector<std::string> trains;     // FILE.h5[:/group], operators first, state last
  std::string output;                  // -o: output .h5
};

struct GenerateArgs {
  std::string kind;                    // random-mps | random-mpo | identity | ising
  std::string output;                  // -o: FILE.h5[:/group]
  std::size_t sites = 10;              // --sites: n >= 2
  std::size_t bond = 4;                // --bond: inner bond dimension (random trains), >= 1
  std::size_t phys = 2;                // --phys: physical dimension, >= 1 (ising: 2)
  double coupling = 1.0;               // --J: Ising ZZ coupling
  double field = 1.0;                  // --h: Ising transverse field
};

struct Cli {
  CLI::App app{"src-compress: compressed products of tensor networks by Successive Randomized "
               "Compression (SRC, arXiv:2504.06475)"};
  CommonFlags common;
  ProductArgs apply, compress, truncate;
  std::string inspect_file;
  std::vector<std::string> distance_trains;  // A, B
  std::vector<std::string> collect_files;    // outputs to tabulate
  std::string collect_csv;                   // -o: CSV file ("" = stdout)
  GenerateArgs generate;
  CLI::App* apply_cmd = nullptr;
  CLI::App* compress_cmd = nullptr;
  CLI::App* truncate_cmd = nullptr;
  CLI::App* distance_cmd = nullptr;
  CLI::App* collect_cmd = nullptr;
  CLI::App* inspect_cmd = nullptr;
  CLI::App* generate_cmd = nullptr;

  Cli();
};

// The --oversample factor (0 when off). CLI11 would read a flag's value as an integer
// (3.7 → 3), so the text is parsed here: a real in [1, 1000], else a UsageError.
double oversample_factor(const std::string& text);

// The parse error as a user should read it: an unknown key in a --config file is named with
// the file and line (CLI11 names the key only).
std::string explain_parse_error(const CLI::ParseError& e, int argc, char** argv);

// Exit codes as printed in --help and README.md.
extern const char* const kExitCodeHelp;

}  // namespace srcc::app
