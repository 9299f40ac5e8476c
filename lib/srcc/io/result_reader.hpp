#pragma once
// Reading back what a run wrote (/result shapes, /log attributes, /log/transfers): for
// --skip-existing and for collecting a batch of outputs into one table.
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "srcc/io/h5/h5_writer.hpp"
#include <string>
#include <vector>

namespace srcc {

struct ResultRecord {
  std::string file;
  bool complete = false;              // /log@complete == 1: everything was written
  std::string kind;                   // "MPS" / "MPO"
  std::size_t sites = 0;
  std::vector<std::int64_t> bonds;    // output bond at each cut
  std::int64_t max_bond = 0;
  double error_estimate = 0;
  double wall_seconds = 0;
  std::uint64_t seed = 0;
  std::int64_t threads = 0;
  std::string threads_source;
  std::string command_line;
  std::string plan;                   // JSON text
  std::map<std::string, std::int64_t> bytes_by_mechanism;
  // From the command line, the plan and the summary (0 or empty where they do not say):
  std::string command;                // apply, compress, truncate, evolve
  std::string method;                 // src, sdc, sdcr; svd (truncate)
  std::string mode;                   // plain, oversampled, tolerance, svd (truncate)
  std::int64_t terms = 1;             // products summed in each sweep (apply --term, evolve --taylor)
  std::int64_t fit_sweeps = 0;        // fit sweeps run (the last step's for evolve)
  std::int64_t steps = 0, steps_done = 0;  // evolve: steps asked for and finished (0 otherwise)
  double chi = 0, tol = 0, oversample = 0, cutoff = 0;
  double norm = 0;                    // of the result (inf or 0 beyond a double: see log10_norm)
  double log10_norm = 0;              // its logarithm (from the norm in outputs written before it)
  std::int64_t peak_rss_bytes = 0;
  std::string tool_version, devices, start_time;
};

// Throws InputError naming the file when it is not an output of ours.
ResultRecord read_result_record(const std::string& path);
// True when `path` is an HDF5 file with /log@complete == 1; false otherwise (missing, another
// kind of file, or a half-written output).
bool is_complete_result(const std::string& path);

// What an evolution's output says of its progress (evolve --resume): its /log's command,
// steps asked for and done, fingerprint of inputs and options, and the trajectory's columns.
struct EvolveRecord {
  bool complete = false;
  std::string command;       // "evolve" for an evolution's output
  long long steps = 0, steps_done = 0;
  std::string fingerprint;
  std::vector<TableColumn> trajectory;
  std::string run_id;                       // "" in files written before run ids
  std::optional<std::string> saved_states;  // what /log says /states holds (absent before that was recorded)
  std::vector<long long> states;            // the K of every /states/K the file holds
};
// Throws InputError naming the file when it is no evolution's output of ours.
EvolveRecord read_evolve_record(const std::string& file);

}  // namespace srcc
