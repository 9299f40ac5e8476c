#pragma once
// What a run of apply, compress or truncate did: its result's shape and norm, the error
// estimate, the work, time and memory it took (--json prints it; /log keeps it).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "srcc/backend/gemm_profile.hpp"
#include "srcc/core/dtype.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

struct RunSummary {
  std::string output;
  TrainKind kind = TrainKind::kMps;
  std::size_t sites = 0;
  std::vector<std::int64_t> bonds;   // output bond at each cut (n - 1 values)
  std::int64_t max_bond = 0;
  double norm = 0;                   // Frobenius norm of the result (inf/0 beyond a double; see log10_norm)
  double log10_norm = 0;             // its base-10 logarithm, finite for any non-zero result
  double error_estimate = 0;         // relative, per-cut estimates combined in quadrature (and,
                                     // written back with charges, the weights below)
  std::string output_format = "srcc";  // the layout /result was written in
  double dropped_weight = 0;         // with charges: relative weight outside the total charge
  double truncated_weight = 0;       // with charges: relative weight of the per-sector truncation
  std::int64_t capped_cuts = 0;      // tolerance mode: cuts that hit --chi before --tol
  std::string method = "src";        // src, sdc, sdcr (--method), svd (truncate)
  std::string fit_json;              // the fit sweeps: [{"norm", "gain", "seconds"}, …]; "" = none
  std::size_t fit_sweeps = 0;        // how many ran
  std::size_t terms = 1;             // products summed (apply --term)
  std::string symmetry;              // the charges the run computed on ("U(1)", "Z2"…); "" = dense
  std::size_t max_sectors = 0;       // with charges: the most sectors on a bond of the result
  DType dtype = DType::kFloat64;
  std::uint64_t seed = 0;
  int threads = 0;
  std::string threads_source;
  double sweep_seconds = 0, write_seconds = 0, wall_seconds = 0;  // sweep includes reading
  double flops = 0;                  // real flops of the sweep's GEMMs
  std::int64_t peak_rss_bytes = 0;   // process peak resident memory at the end of the run
  std::int64_t device_peak_bytes = 0;  // GPU runs: most device memory in use at once (pool)
  int ranks = 1;                     // MPI ranks that swept terms (1: this process alone)
  std::vector<double> rank_flops;    // each of them's GEMM flops, in rank order
  std::vector<std::int64_t> rank_peak_rss_bytes;  // and its peak resident memory
  std::map<std::string, std::int64_t> bytes_by_mechanism;
  std::vector<GemmTiming> gemm_profile;  // with RunOptions::profile_gemm, most time first
  std::string to_json() const;
};

}  // namespace srcc
