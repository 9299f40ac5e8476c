#include "srcc/session/rank_share.hpp"

#include <algorithm>

#include "srcc/core/dtype.hpp"
#include "srcc/core/json.hpp"
#include "srcc/core/size.hpp"
#include "srcc/plan/methods.hpp"
#include "srcc/sweep/rank_exchange.hpp"
#include "srcc/train/term_sum.hpp"

namespace srcc {

namespace {
// The ranks that sweep: a sum's at most a term each, a product's sketch columns over all of them.
std::size_t sweeping_ranks(std::size_t terms, std::size_t ranks) { return terms > 1 ? std::min(terms, ranks) : ranks; }
}  // namespace

std::string why_not_spread(const RunOptions& o, std::size_t terms) {
  // sdc and sdcr share a sum's terms (each rank reduces its own, the ranks meet at each cut's
  // factorisation); one product's reduction reads all of M_j's rows at once.
  if (o.sweep.method != Method::kSrc && terms < 2)
    return method_name(o.sweep.method) + "'s left sweep reduces all of a product's rows at once: rank 0 computes it "
           "(a sum's terms are shared)";
  if (o.sweep.fit_sweep_cap() > 0) return "fit sweeps reduce every row and term at once: rank 0 computes the run";
  return "";
}

RankShare share_ranks(std::size_t terms, const WaitCheck& wait) {
  Ranks& world = world_ranks();
  RankShare share;
  if (world.size() == 1) return share;
  checkpoint_ranks(wait);
  share.workers = world.first(static_cast<int>(sweeping_ranks(terms, world.size())));
  share.works = share.workers != nullptr;
  if (share.workers) share.lockstep = std::make_unique<Lockstep>();
  return share;
}

RankPlan rank_plan_of(const RunOptions& o, const std::vector<const Stack*>& stacks, const std::vector<Plan>& plans,
                      int ranks, const std::string& alone) {
  RankPlan out;
  out.ranks = ranks;
  out.alone = alone;
  if (out.alone.empty()) out.alone = why_not_spread(o, o.terms.size());
  if (!out.alone.empty()) return out;
  const std::size_t K = plans.size(), workers = sweeping_ranks(K, static_cast<std::size_t>(ranks));
  const std::size_t s = plans.front().sketch_columns, element = dtype_size(plans.front().dtype);
  for (std::size_t r = 0; r < workers; ++r) {
    RankPlan::Load load;
    load.rank = static_cast<int>(r);
    if (K > 1) {
      for (std::size_t k = r; k < K; k += workers) {
        load.terms.push_back(k + 1);
        load.bytes += plans[k].peak_bytes;
        load.flops += plans[k].predicted_flops;
      }
    } else {
      const ContiguousShare share = contiguous_share(s, workers, r);  // as the sweep splits them
      load.first_column = share.first;
      load.columns = share.count;
      const double part = s > 0 ? static_cast<double>(load.columns) / static_cast<double>(s) : 0.0;
      load.bytes = static_cast<std::uint64_t>(part * static_cast<double>(plans.front().environment_bytes));
      load.flops = part * plans.front().predicted_flops;
    }
    out.loads.push_back(std::move(load));
  }
  // Per cut: every term's sketch (or, split, the right block's rows and the sketch's columns)
  // gathered on every rank, and rank 0's core sent to all; a bond is at most the sketch's width.
  // sdc and sdcr on a sum also meet at each cut of the left sweep: every term's R factor of M_j
  // (sdcr: its product with the Gaussian test) to all, and rank 0's V'^H (sdcr: Q) back.
  const auto bounds = sum_bond_bounds(stacks);
  const Stack& st = *stacks.front();
  for (std::size_t j = 1; j < st.length(); ++j) {
    const std::size_t right = j + 1 < st.length() ? std::min(bounds[j + 1], s) : 1;
    const std::size_t rows = right * st.up_dim(j) * st.down_dim(j), cols = std::min(bounds[j], s);
    std::size_t cut = (K > 1 ? (K + 1) * rows * cols : rows * (st.fused_left(j) + 2 * cols)) * element;
    if (o.sweep.dense_left() && j + 1 < st.length()) {
      const std::size_t m = std::min(bounds[j], s) * st.up_dim(j) * st.down_dim(j);
      std::size_t gathered = 0, fused = 0;
      for (const Stack* t : stacks) {
        gathered += std::min(t->fused_right(j), m) * m;
        fused += t->fused_right(j);
      }
      const std::size_t w = std::min({s, m, fused});
      cut += (method_row(o.sweep.method).svd_reduction ? gathered + std::min(gathered / m, m) * m : (K + 1) * w * m) * element;
    }
    out.exchanged_per_cut = std::max<std::uint64_t>(out.exchanged_per_cut, cut);
    out.exchanged += cut;
  }
  return out;
}

std::string RankPlan::text() const {
  const std::string R = std::to_string(ranks);
  if (!alone.empty()) return "over " + R + " ranks: " + alone + "; the others wait\n";
  std::string out;
  const bool sum = !loads.front().terms.empty();
  if (sum) out = "over " + R + " ranks (term k on rank (k-1) mod " + std::to_string(loads.size()) + "):\n";
  else out = "over " + R + " ranks (the sketch's columns split, with the rows of each cut's right block; every rank "
             "also factors each cut's sketch):\n";
  for (const Load& l : loads) {
    std::string which;
    for (std::size_t k : l.terms) which += (which.empty() ? "" : ", ") + std::to_string(k);
    out += "  rank " + std::to_string(l.rank) + ": " +
           (sum ? "term(s) " + which + ", at most " + format_size(l.bytes) + " of tensors, "
                : "columns " + std::to_string(l.first_column) + "-" + std::to_string(l.first_column + l.columns - 1) +
                      ", about " + format_size(l.bytes) + " of environments, ") +
           format_flops(l.flops) + "\n";
  }
  if (loads.size() < static_cast<std::size_t>(ranks))
    out += "  ranks " + std::to_string(loads.size()) + "-" + std::to_string(ranks - 1) + " have no term and wait\n";
  out += "  exchanged: about " + format_size(exchanged_per_cut) + " at a cut, " + format_size(exchanged) +
         " over the run\n";
  return out;
}

std::string RankPlan::json() const {
  std::string rows;
  for (const Load& l : loads) {
    JsonObject o;
    o.add("rank", l.rank);
    if (!l.terms.empty()) o.add_raw("terms", json_array(l.terms));
    else o.add("first_column", static_cast<std::uint64_t>(l.first_column)).add("columns", static_cast<std::uint64_t>(l.columns));
    o.add("bytes", l.bytes).add("flops", l.flops);
    rows += (rows.empty() ? "" : ", ") + o.str();
  }
  JsonObject o;
  o.add("ranks", ranks);
  if (!alone.empty()) return o.add("alone", alone).str();
  return o.add_raw("loads", "[" + rows + "]")
      .add("exchanged_per_cut_bytes", exchanged_per_cut)
      .add("exchanged_bytes", exchanged)
      .str();
}

void share_threads(Execution& exec) {
  if (!launched_by_mpi()) return;
  const int local = world_ranks().local_size();
  if (local <= 1 || exec.threads_source != "affinity mask") return;  // a count someone chose stays
  exec.threads = std::max(1, exec.threads / local);
  exec.threads_source += " shared by " + std::to_string(local) + " ranks on the node";
}

}  // namespace srcc
