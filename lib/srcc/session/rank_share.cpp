#include "srcc/session/rank_share.hpp"

#include <algorithm>

#include "srcc/plan/methods.hpp"

namespace srcc {

std::string why_not_spread(const RunOptions& o) {
  if (o.terms.size() < 2)
    return "one product is computed by rank 0 (the ranks split the terms of a sum, --term; a product's sketch is "
           "not split over ranks)";
  if (o.sweep.method != Method::kSrc)
    return method_name(o.sweep.method) + " reduces the terms together: the sum is computed by rank 0";
  if (o.sweep.fit_sweep_cap() > 0) return "fit sweeps reduce the terms together: the sum is computed by rank 0";
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
  share.workers = world.first(static_cast<int>(std::min<std::size_t>(terms, world.size())));
  share.works = share.workers != nullptr;
  return share;
}

void share_threads(Execution& exec) {
  if (!launched_by_mpi()) return;
  const int local = world_ranks().local_size();
  if (local <= 1 || exec.threads_source != "affinity mask") return;  // a count someone chose stays
  exec.threads = std::max(1, exec.threads / local);
  exec.threads_source += " shared by " + std::to_string(local) + " ranks on the node";
}

}  // namespace srcc
