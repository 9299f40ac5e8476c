#pragma once
// Whether a run computes on its inputs' charges (--symmetry), and the run that does: the charges
// of each input from its file, the stack in charge blocks (symmetric/charged_stack.hpp) read one
// site index at a time, and SRC (apply, compress) or the SVD truncation (truncate) on it
// (symmetric/symmetric_sweep.hpp). Runs it does not cover yet are dense, saying why.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "srcc/backend/backend.hpp"
#include "srcc/log/reporter.hpp"
#include "srcc/log/transfer_log.hpp"
#include "srcc/session/run_options.hpp"
#include "srcc/sweep/sweep_data.hpp"
#include "srcc/symmetric/block_tensor.hpp"
#include "srcc/symmetric/symmetric_sweep.hpp"
#include "srcc/train/sectors.hpp"

namespace srcc {

class RankExchange;

struct SymmetryChoice {
  bool keep = false;  // the run computes on the charges
  std::vector<std::vector<PhysicalCharges>> terms;  // per term of the sum, each layer's, top first (when kept)
  std::string note;                     // why charged inputs are computed dense ("" otherwise)
  std::string name;                     // the charges kept: "U(1)", "Z2", "U(1)×Z2"
};

// From the options and the inputs' files: keeps the charges when --symmetry is auto, every layer
// of every term carries charges that agree where layers meet (and the terms of a sum agree on
// their outer physical legs) and the run is on the CPU or one GPU (every method computes on
// charges; a run over several GPUs splits a dense sketch, and computes dense).
SymmetryChoice choose_symmetry(const RunOptions& o, const std::vector<const Stack*>& stacks);
// What a dry run says of the choice: that the run computes on the charges (its plan being the
// dense run's, a bound on memory and flops), or why charged inputs are computed dense; "" where
// the inputs carry none.
std::string plan_symmetry_note(const SymmetryChoice& choice);
// The same from each layer's charges (none: the layer carries none), each named by `where`.
struct LayerCharges {
  std::optional<PhysicalCharges> charges;
  std::string where;
};
SymmetryChoice choose_symmetry(const RunOptions& o, const std::vector<std::vector<LayerCharges>>& terms);

// The run on charges: its result (dense cores, bonds in sector order) and the result's physical
// charges (the top layer's up, the bottom layer's down), for writing them with it.
template <class T> struct SymmetricOutcome {
  SweepResult<T> result;
  PhysicalCharges charges;
  std::vector<BlockTensor<T>> blocks;  // the result's cores in their blocks
  std::optional<SchmidtForm> schmidt;  // where the blocks are in that form (ResultNeeds::schmidt)
  std::size_t max_sectors = 0;  // the most charge sectors on any bond of the result
};
// One term w·(stack) of the run, its sites from `source`; `plan`, where given, puts its left
// environments on scratch disk at the cuts where it puts the dense run's (symmetric/env_parking.hpp).
template <class T> struct SymmetricInput {
  const Stack* stack = nullptr;
  SiteSource<T>* source = nullptr;
  T weight = T(1);
  const Plan* plan = nullptr;
};
// Over MPI ranks (`ranks` dealing a sum's terms, or splitting one product's sketch columns):
// dealt, each rank reads and sweeps only its own terms; every rank holds the result
// (symmetric_sweep.hpp). `needs` says what the caller takes besides the blocks (the dense
// cores, the Schmidt form). Environments that go to scratch are logged in `log`.
template <class T>
SymmetricOutcome<T> symmetric_run(const std::vector<SymmetricInput<T>>& inputs, const SymmetryChoice& choice,
                                  const SweepOptions& o, Backend& backend, Reporter& reporter,
                                  const std::function<void()>& check_interrupt, RankExchange* ranks = nullptr,
                                  ResultNeeds needs = {}, TransferLog* log = nullptr);

}  // namespace srcc
