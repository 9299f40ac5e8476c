#pragma once
// The plan of a run: what will be computed, where each sketched environment lives, how the
// sketch columns are batched, and what the run will need — from the trains' shapes, the
// options and the budgets alone (no tensor data). Pure: the same inputs give the same plan.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "srcc/core/dtype.hpp"
#include "srcc/plan/budgets.hpp"
#include "srcc/plan/sweep_options.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

// kMemory: the backend's own memory (device memory on a GPU); kHost: host memory of a GPU run;
// kScratch: a raw file in the run's scratch directory.
enum class Tier { kMemory, kHost, kScratch };
std::string_view tier_name(Tier t);  // "memory" / "host" / "scratch"

// Site j: the left-sweep step that turns C_j into C_{j+1}, the environment C_j (cut j−1|j),
// and the right-sweep step at site j.
struct SitePlan {
  std::size_t env_bytes = 0;      // C_j (0 for j = 0: the ones vector is not planned)
  Tier env_tier = Tier::kMemory;  // where C_j waits between the sweeps
  std::size_t left_batch = 0;     // sketch columns per batch of the left step (0: no step)
  std::size_t right_batch = 0;    // rows of C_j per read in the right step
  std::size_t left_peak = 0;      // predicted host bytes during the left step
  std::size_t right_peak = 0;     // predicted host bytes during the right step
};

struct Plan {
  std::size_t sites = 0;
  std::size_t depth = 0;            // trains in the stack
  TrainKind result_kind = TrainKind::kMps;
  DType dtype = DType::kFloat64;    // working element type
  SweepOptions sweep;
  std::size_t sketch_columns = 0;   // s (tolerance mode: the largest a cut may use)
  bool exact_two_site = false;      // n = 2: contraction and one SVD, no sketch
  std::string device = "cpu";
  bool on_device = false;           // the backend computes in device memory (GPU run)
  int threads = 0;                  // threads that compute on the CPU (0 = the default)
  Budgets budgets;
  std::size_t memory_from = 0;      // environments C_j with j >= memory_from stay in memory
  std::size_t host_from = 0;        // GPU runs: C_j with host_from <= j < memory_from on the host
  std::vector<SitePlan> site_plans;
  std::size_t input_bytes = 0;      // all input sites in the working type (never all resident)
  std::size_t environment_bytes = 0;   // all sketched left environments
  std::size_t peak_bytes = 0;       // predicted peak of tensor memory (the device's on a GPU)
  std::size_t host_tier_bytes = 0;  // GPU runs: environments waiting in host memory
  std::size_t scratch_bytes = 0;    // predicted bytes spilled to the scratch directory
  double predicted_flops = 0;       // the sweep's GEMMs (plan/flops.hpp), real flops
  double gemm_rate = 0;             // flops/s of a large GEMM here, when measured (else 0)

  Tier tier(std::size_t j) const {
    if (j == 0 || j >= memory_from) return Tier::kMemory;
    return j >= host_from ? Tier::kHost : Tier::kScratch;
  }
  std::string to_json() const;
  std::string to_text() const;      // human-readable, several lines
};

// Chooses the environment tiers, newest first: as many in the backend's memory as fit (the
// host budget on a CPU run, budgets.gpu_bytes on a GPU run, `on_device`), then on a GPU run as
// many as fit in host memory, the rest on scratch disk; and the batches. Throws ResourceError
// naming the site, the step and the bytes needed versus available when even one column at a
// time with every environment on disk does not fit, or when the scratch directory lacks space.
Plan make_plan(const Stack& stack, const SweepOptions& sweep, DType dtype, int threads,
               const Budgets& budgets, bool on_device = false);

// The plans as JSON, as /log records them: the plan itself for a product, {"terms": [plan, …]}
// for a sum; `fields` (a key and its JSON text each) added to its top object.
std::string plans_json(const std::vector<Plan>& plans, const std::vector<std::pair<std::string, std::string>>& fields = {});

}  // namespace srcc
