#include "srcc/session/rank_share.hpp"

#include <algorithm>

#include "srcc/core/dtype.hpp"
#include "srcc/core/size.hpp"
#include "srcc/plan/methods.hpp"
#include "srcc/train/term_sum.hpp"

namespace srcc {

namespace {
// The ranks that sweep: a sum's at most a term each, a product's sketch columns over all of them.
std::size_t sweeping_ranks(std::size_t terms, std::size_t ranks) { return terms > 1 ? std::min(terms, ranks) : ranks; }
}  // namespace

std::string why_not_spread(const RunOptions& o) {
  if (o.sweep.method != Method::kSrc)
    return method_name(o.sweep.method) + "'s left sweep reduces every sketch row and term at once: rank 0 computes it";
  if (o.sweep.fit_sweep_cap() > 0) return "fit sweeps reduce every row and term at once: rank 0 computes the run";
  return "";
}

RankShare share_ranks(std::size_t terms, bool charged, const WaitCheck& wait) {
  Ranks& world = world_ranks();
  RankShare share;
  if (world.size() == 1) return share;
  checkpoint_ranks(wait);
  if (charged) {
    share.works = world.rank() == 0;
    return share;
  }
  share.workers = world.first(static_cast<int>(sweeping_ranks(terms, world.size())));
  share.works = share.workers != nullptr;
  if (share.workers) share.lockstep = std::make_unique<Lockstep>();
  return share;
}

std::string rank_plan_text(const RunOptions& o, const std::vector<const Stack*>& stacks, const std::vector<Plan>& plans,
                           int ranks) {
  const std::string R = std::to_string(ranks);
  if (const std::string alone = why_not_spread(o); !alone.empty()) return "over " + R + " ranks: " + alone + "; the others wait\n";
  const std::size_t K = plans.size(), workers = sweeping_ranks(K, ranks);
  const std::size_t s = plans.front().sketch_columns, element = dtype_size(plans.front().dtype);
  std::string out;
  if (K > 1) {
    out = "over " + R + " ranks (term k on rank (k-1) mod " + std::to_string(workers) + "):\n";
    for (std::size_t r = 0; r < workers; ++r) {
      std::string which;
      std::size_t bytes = 0;
      double flops = 0;
      for (std::size_t k = r; k < K; k += workers) {
        which += (which.empty() ? "" : ", ") + std::to_string(k + 1);
        bytes += plans[k].peak_bytes;
        flops += plans[k].predicted_flops;
      }
      out += "  rank " + std::to_string(r) + ": term(s) " + which + ", at most " + format_size(bytes) + " of tensors, " +
             format_flops(flops) + "\n";
    }
    if (workers < static_cast<std::size_t>(ranks))
      out += "  ranks " + std::to_string(workers) + "-" + std::to_string(ranks - 1) + " have no term and wait\n";
  } else {
    const Plan& p = plans.front();
    out = "over " + R + " ranks (the sketch's " + std::to_string(s) + " columns split, " + std::to_string(s / ranks) +
          "-" + std::to_string((s + ranks - 1) / ranks) + " each, with the rows of each cut's right block):\n" +
          "  each rank: about " + format_size(p.environment_bytes / ranks) + " of environments, " +
          format_flops(p.predicted_flops / ranks) + " (every rank also factors each cut's sketch)\n";
  }
  // Per cut: every term's sketch (or, split, the right block's rows and the sketch's columns)
  // gathered on every rank, and rank 0's core sent to all; a bond is at most the sketch's width.
  const auto bounds = sum_bond_bounds(stacks);
  const Stack& st = *stacks.front();
  std::size_t per_cut = 0, total = 0;
  for (std::size_t j = 1; j < st.length(); ++j) {
    const std::size_t right = j + 1 < st.length() ? std::min(bounds[j + 1], s) : 1;
    const std::size_t rows = right * st.up_dim(j) * st.down_dim(j), cols = std::min(bounds[j], s);
    const std::size_t cut = (K > 1 ? (K + 1) * rows * cols : rows * (st.fused_left(j) + 2 * cols)) * element;
    per_cut = std::max(per_cut, cut);
    total += cut;
  }
  out += "  exchanged: about " + format_size(per_cut) + " at a cut, " + format_size(total) + " over the right sweep\n";
  return out;
}

void share_threads(Execution& exec) {
  if (!launched_by_mpi()) return;
  const int local = world_ranks().local_size();
  if (local <= 1 || exec.threads_source != "affinity mask") return;  // a count someone chose stays
  exec.threads = std::max(1, exec.threads / local);
  exec.threads_source += " shared by " + std::to_string(local) + " ranks on the node";
}

}  // namespace srcc
