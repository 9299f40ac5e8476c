#pragma once
// A run's record, /log's attributes (docs/FORMAT.md, "/log"), written and read in one place so
// that what is written is what is read: write_run_record and read_run_record are inverses (a
// round-trip test holds them to it). Outputs written before an attribute existed read with the
// defaults documented in FORMAT.md (the command from the command line, src as the method).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "srcc/io/h5/h5_writer.hpp"
#include "srcc/log/site_stats.hpp"

namespace srcc {

// Everything /log holds about a run besides the transfer log itself (docs/FORMAT.md, "/log").
struct RunRecord {
  std::string tool_version;       // read back; written as this build's version
  std::string command;            // apply, compress, truncate (evolve: set by `evolve` below)
  std::string command_line;       // as typed, shell-quoted where needed
  std::string plan_json;          // the plan the run followed
  std::string devices;            // backend names, comma-separated ("cpu", "cuda:0,cuda:1")
  std::string blas;               // BLAS/LAPACK (or CUDA) library in use
  std::int64_t threads = 0;
  std::string threads_source;     // why that many threads
  std::uint64_t seed = 0;
  std::string method;             // src, sdc, sdcr; svd for truncate
  std::string fit_json;           // the fit sweeps as a JSON array, "" when none ran
  std::string terms_json;         // a sum's terms (apply --term) as a JSON array, "" for a product
  std::string start_utc, end_utc;  // ISO 8601, seconds
  double wall_seconds = 0;
  double error_estimate = 0;      // relative, combined over the cuts
  std::string summary_json;       // the --json summary
  std::string notes;              // what could not be checked (a line each), "" for none
  std::string output_format = "srcc";  // the layout of /result: srcc, tenpy, itensor
  double dropped_weight = 0;      // other layouts with charges: relative weight outside the total charge
  std::vector<SiteStats> sites;   // /log/sites, one row per site (written only: not read back)
  // An evolution's progress (evolve; docs/FORMAT.md, "The output of evolve").
  struct Evolution {
    std::int64_t steps = 0, steps_done = 0;
    std::string fingerprint;      // what a resumed run must share: "key=value" lines
    double dt = 0;
    bool normalize = false;
    std::string run_id;           // this evolution's (a resumed run takes the file's): see copy_from
    std::optional<std::string> saved_states;  // the K of every /states/K the file holds, blank-
                                              // separated (absent in files written before it)
  };
  std::optional<Evolution> evolve;
};

// The attributes of `r` on the group `log` (created by the caller), the run's tables aside.
void write_run_record(H5Writer& w, const std::string& log, const RunRecord& r);
// The record of the open /log group `log` (an HDF5 hid_t: this header keeps HDF5's to io/) of
// the file at `where`; InputError naming `where` when an attribute is damaged.
RunRecord read_run_record(std::int64_t log, const std::string& where);

}  // namespace srcc
