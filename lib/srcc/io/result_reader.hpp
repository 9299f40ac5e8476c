#pragma once
// Reading back what a run wrote (/result shapes, /log attributes, /log/transfers): for
// --skip-existing and for collecting a batch of outputs into one table.
#include <cstdint>
#include <map>
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
};

// Throws InputError naming the file when it is not an output of ours.
ResultRecord read_result_record(const std::string& path);
// True when `path` is an HDF5 file with /log@complete == 1; false otherwise (missing, another
// kind of file, or a half-written output).
bool is_complete_result(const std::string& path);

}  // namespace srcc
