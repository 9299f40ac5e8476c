#pragma once
// Reading back what a run wrote (/result shapes, /log attributes, /log/transfers): for
// --skip-existing and for collecting a batch of outputs into one table.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "srcc/io/h5/h5_writer.hpp"
#include "srcc/io/run_record.hpp"

namespace srcc {

struct ResultRecord {
  std::string file;
  bool complete = false;              // /log@complete == 1: everything was written
  RunRecord log;                      // /log's attributes, as the run wrote them
  // From /result:
  std::string kind;                   // "MPS" / "MPO"
  std::size_t sites = 0;
  std::vector<std::int64_t> bonds;    // output bond at each cut
  std::int64_t max_bond = 0;
  // From /log/transfers:
  std::map<std::string, std::int64_t> bytes_by_mechanism;
  // From the plan and the summary (0 or empty where they do not say):
  std::string mode;                   // plain, oversampled, tolerance, svd (truncate)
  std::int64_t terms = 1;             // products summed in each sweep (apply --term, evolve --taylor)
  std::int64_t fit_sweeps = 0;        // fit sweeps run (the last step's for evolve)
  double chi = 0, tol = 0, oversample = 0, cutoff = 0;
  double norm = 0;                    // of the result (inf or 0 beyond a double: see log10_norm)
  double log10_norm = 0;              // its logarithm (from the norm in outputs written before it)
  std::int64_t peak_rss_bytes = 0;
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
  RunRecord log;                            // its evolve part set: steps, fingerprint, run id, …
  std::vector<TableColumn> trajectory;
  std::vector<long long> states;            // the K of every /states/K the file holds
};
// Throws InputError naming the file when it is no evolution's output of ours.
EvolveRecord read_evolve_record(const std::string& file);

}  // namespace srcc
