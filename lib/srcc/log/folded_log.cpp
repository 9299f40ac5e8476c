#include "srcc/log/folded_log.hpp"

#include <utility>

namespace srcc {

void FoldedLog::add_setup(std::vector<TransferRecord> rows) {
  for (auto& r : rows) setup_.push_back(std::move(r));
}

void FoldedLog::add_round(std::vector<TransferRecord> rows) {
  if (rounds_++ == 0) {
    first_ = std::move(rows);
    return;
  }
  fold(std::exchange(latest_, std::move(rows)));
}

void FoldedLog::fold(std::vector<TransferRecord> rows) {
  for (auto& r : rows) {
    Key key{r.what, r.site, r.mechanism, r.declined, r.source, r.target, r.dtype_from, r.dtype_to};
    const auto [it, fresh] = index_.try_emplace(std::move(key), folded_.size());
    if (fresh) {
      folded_.push_back(std::move(r));
      continue;
    }
    TransferRecord& f = folded_[it->second];
    f.bytes += r.bytes;
    f.seconds += r.seconds;
    f.events += r.events;
  }
}

void FoldedLog::copy_to(TransferLog& log) const {
  for (const auto* part : {&setup_, &first_, &folded_, &latest_})
    for (const auto& r : *part) log.add(r);  // add() numbers seq
}

}  // namespace srcc
