#pragma once
// Running the built `src-compress` binary from tests: its exit code and output, the files it
// leaves, its peak memory, and the transfer log it writes.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "h5_fixture.hpp"

namespace srcc::test {

// Paths baked in by CMake; the environment (SRCC_BINARY, SRCC_SOURCE_DIR) may override them.
std::string binary();
std::string source_dir();
// A fixture of tests/data/ by name.
std::string test_data(const std::string& name);

struct Result {
  int code;
  std::string out, err;
};

// Runs `src-compress ARGS` in `dir` through the shell (under `timeout` when a limit is given:
// SIGTERM then, SIGKILL 5 s later; exit code 124 or 137). Its stdout and stderr go to
// stdout.txt and stderr.txt there.
Result run_cli(const TempDir& dir, const std::string& args, int timeout_seconds = 0);
// Runs the binary in a child and returns its exit code and peak resident size (getrusage).
std::pair<int, long> run_measured(const TempDir& dir, std::vector<std::string> args);

std::string slurp(const std::filesystem::path& p);
// Files in `dir` whose names contain ".tmp-": leftovers of an unfinished write.
int temp_files(const TempDir& dir);
// A run that failed as it should: its exit code and message, and nothing left behind (no
// out.h5, no temporary file).
// The number after "key": in a JSON text (NaN when the key is missing).
double json_number(const std::string& json, const std::string& key);
// ‖A − B‖/‖B‖ of two trains as `distance --json` reports it.
double relative_distance(const TempDir& dir, const std::string& a, const std::string& b);

// A peak resident size below `limit` bytes (not under AddressSanitizer, whose shadow memory and
// quarantine make the resident size meaningless).
void expect_resident_below(long rss, double limit, const std::string& what);

void expect_clean_failure(const Result& r, int code, const std::string& message,
                          const TempDir& dir);

// h.h5:/H (complex128 MPO, bond 3, stored "lrud") and psi.h5:/psi (complex128 MPS, bond 4,
// stored "lpr") of n sites.
void make_inputs(const TempDir& dir, std::size_t n = 8);
// big_h.h5 and big_psi.h5: a run that takes seconds on two cores (signals, time limits).
void make_large_inputs(const TempDir& dir);

// The named fields of /log/transfers.
struct Row {
  std::string what, mechanism, source, target;
  long long site, bytes;
  double seconds;
};
std::vector<Row> read_transfers(const std::filesystem::path& file);

}  // namespace srcc::test
