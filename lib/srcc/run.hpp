#pragma once
// run(): the one place that chains the stages of a product or compression:
//   read trains → validate → plan → sweep → write result + log (atomically).
#include <complex>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "srcc/backend/device.hpp"
#include "srcc/backend/gemm_profile.hpp"
#include "srcc/core/dtype.hpp"
#include "srcc/log/reporter.hpp"
#include "srcc/plan/plan.hpp"
#include "srcc/plan/sweep_options.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

// One term c·A·ψ of a sum (apply --term): its weight and its trains in mathematical order.
struct RunTerm {
  std::complex<double> weight = 1;
  std::vector<TrainRef> trains;
};

struct RunOptions {
  std::vector<TrainRef> trains;      // mathematical order: operators first, the state last
  std::vector<RunTerm> terms;        // instead of `trains`: the sum Σ_k c_k (product k), one sweep
  std::string output;                // output .h5 path
  bool force = false;                // replace an existing output
  SweepOptions sweep;                // the method, χ̄, cutoff, seed
  std::optional<DType> dtype;        // working type; empty = promoted input type ("auto")
  int threads = 0;                   // threads that compute (CPU backend); 0 = its default
  std::string threads_source;        // why that many (recorded in /log)
  std::uint64_t host_memory = 0;     // --host-memory in bytes; 0 = detected
  std::uint64_t gpu_memory = 0;      // --gpu-memory in bytes; 0 = detected (GPU backend)
  DeviceSpec device;                 // --device: cpu (default), gpu, gpu:N
  std::string scratch_dir;           // --scratch-dir; "" = $TMPDIR or /tmp
  std::string command_line;          // recorded in /log
  bool profile_gemm = false;         // time every GEMM by shape (RunSummary::gemm_profile)
  TrainFormat output_format = TrainFormat::kAuto;  // --output-format; kAuto: the state's format
  double max_time_seconds = 0;       // --max-time (0: none): a run predicted to outlast it is warned about
};

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
  DType dtype = DType::kFloat64;
  std::uint64_t seed = 0;
  int threads = 0;
  std::string threads_source;
  double sweep_seconds = 0, write_seconds = 0, wall_seconds = 0;  // sweep includes reading
  double flops = 0;                  // real flops of the sweep's GEMMs
  std::int64_t peak_rss_bytes = 0;   // process peak resident memory at the end of the run
  std::int64_t device_peak_bytes = 0;  // GPU runs: most device memory in use at once (pool)
  std::map<std::string, std::int64_t> bytes_by_mechanism;
  std::vector<GemmTiming> gemm_profile;  // with RunOptions::profile_gemm, most time first
  std::string to_json() const;
};

// The files the run reads (its trains'), for the check that the output is none of them.
std::vector<std::string> input_files(const RunOptions& options);

// Reads the stack's metadata and returns the plan, without reading tensor data.
Plan plan_run(const RunOptions& options);
// The same for each term of a sum (one plan for a product): the terms share the budgets in
// equal parts.
std::vector<Plan> plan_terms(const RunOptions& options);
// The plans as JSON, as /log records them: the plan itself for a product, {"terms": [plan, …]}
// for a sum.
std::string plans_json(const std::vector<Plan>& plans);

// Computes the product and writes it; throws an srcc::Error on failure, leaving no output
// under the final name. `check_interrupt` is called between sites and throws to stop.
RunSummary run(const RunOptions& options, Reporter& reporter,
               const std::function<void()>& check_interrupt = [] {});

}  // namespace srcc
