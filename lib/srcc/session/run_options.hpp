#pragma once
// What a run is asked to do: its inputs (trains, or the terms of a sum), its output, the sweep's
// options and where and with what it computes. The flags that set them are described in
// core/options.hpp.
#include <complex>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "srcc/core/dtype.hpp"
#include "srcc/plan/sweep_options.hpp"
#include "srcc/session/execution.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

// One term c·A·ψ of a sum (apply --term): its weight and its trains in mathematical order.
struct RunTerm {
  std::complex<double> weight = 1;
  std::vector<TrainRef> trains;
};

// --symmetry: keep the inputs' charges where the run can (kAuto), or always compute dense.
enum class Symmetry { kAuto, kOff };
Symmetry parse_symmetry(const std::string& text);  // "auto" | "off", else a UsageError naming the flag

struct RunOptions {
  std::string command = "apply";     // the subcommand, recorded in /log: apply, compress, truncate
  std::vector<TrainRef> trains;      // mathematical order: operators first, the state last
  std::vector<RunTerm> terms;        // instead of `trains`: the sum Σ_k c_k (product k), one sweep
  std::string output;                // output .h5 path
  bool force = false;                // replace an existing output
  SweepOptions sweep;                // the method, χ̄, cutoff, seed
  std::optional<DType> dtype;        // working type; empty = promoted input type ("auto")
  Execution exec;                    // where and with what: threads, budgets, device, scratch
  std::string command_line;          // recorded in /log
  bool profile_gemm = false;         // time every GEMM by shape (RunSummary::gemm_profile)
  TrainFormat output_format = TrainFormat::kAuto;  // --output-format; kAuto: the template's format
  std::optional<TrainRef> template_train;         // --template: another library's train to write the
                                                  // result on (empty: the state input)
  double max_time_seconds = 0;       // --max-time (0: none): a run predicted to outlast it is warned about
  Symmetry symmetry = Symmetry::kAuto;  // --symmetry
};

}  // namespace srcc
