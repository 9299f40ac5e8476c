#pragma once
// How the MPI ranks of an apply share its work (docs/USAGE.md, "Past one node"): with src (no
// fit sweeps) a sum's terms are dealt over the ranks and one product's sketch columns split over
// them, and sdc and sdcr deal a sum's terms, dense or on charges alike (sweep/rank_exchange.hpp,
// symmetric/block_exchange.hpp); anything else runs on rank 0 while the other ranks wait, and
// rank 0 says why.
#include <memory>
#include <string>
#include <vector>

#include "srcc/parallel/ranks.hpp"
#include "srcc/plan/plan.hpp"
#include "srcc/session/run_options.hpp"

namespace srcc {


// Whether the run of `terms` products summed (1: one product; an evolution's --taylor step: its
// K + 1 terms) can be spread at all, from its options alone (before any input is opened): "" if
// so, else why not.
std::string why_not_spread(const RunOptions& o, std::size_t terms);

struct RankShare {
  bool works = true;               // this rank sweeps (rank 0 always)
  std::unique_ptr<Ranks> workers;  // the ranks that sweep, where they are several
  // From the agreement on: the workers wait on each other, so a failure on one must end them
  // all (end_together). The run ends it once the shared work is done.
  std::unique_ptr<Lockstep> lockstep;
};

// Every rank of a spreadable run, once its inputs are open (`terms` of them), dense or on
// charges alike: agrees that every rank set up (checkpoint_ranks), then makes the group of the
// ranks that sweep: min(R, terms) for a sum, all R for a product.
RankShare share_ranks(std::size_t terms, const WaitCheck& wait);

// The dry run's view of R ranks (run.hpp's rank_plan): which rank sweeps what, its memory and
// flops, and the bytes exchanged — or why the run is rank 0's alone.
struct RankPlan {
  struct Load {
    int rank = 0;
    std::vector<std::size_t> terms;          // a sum: its terms (1-based)
    std::size_t first_column = 0, columns = 0;  // one product: its share of the sketch's columns
    std::uint64_t bytes = 0;                 // its tensors at most
    double flops = 0;
  };
  int ranks = 1;
  std::string alone;        // why rank 0 computes the run while the others wait ("" when shared)
  std::vector<Load> loads;  // the ranks that sweep
  std::uint64_t exchanged_per_cut = 0, exchanged = 0;  // bytes: the most at one cut, in all
  std::string text() const;
  std::string json() const;
};

// `alone` set: the run is rank 0's for that reason (stacks and plans then unused).
RankPlan rank_plan_of(const RunOptions& o, const std::vector<const Stack*>& stacks, const std::vector<Plan>& plans,
                      int ranks, const std::string& alone);

// The run's default threads on a node shared by several ranks: the cores it found, shared out.
void share_threads(Execution& exec);

}  // namespace srcc
