#include "srcc/log/transfer_log.hpp"

#include <iterator>

namespace srcc {

void TransferLog::add(TransferRecord r) {
  std::lock_guard lock(mutex_);
  r.seq = static_cast<std::int64_t>(records_.size());
  records_.push_back(std::move(r));
}

void TransferLog::add(TransferRecord r, std::function<double()> seconds) {
  std::lock_guard lock(mutex_);
  r.seq = static_cast<std::int64_t>(records_.size());
  pending_.emplace_back(records_.size(), std::move(seconds));
  records_.push_back(std::move(r));
}

void TransferLog::settle_locked() const {
  for (auto& [index, clock] : pending_) records_[index].seconds = clock();
  pending_.clear();
}

void TransferLog::settle() {
  std::lock_guard lock(mutex_);
  settle_locked();
}

std::vector<TransferRecord> TransferLog::records() const {
  std::lock_guard lock(mutex_);
  settle_locked();
  return records_;
}

std::size_t TransferLog::size() const {
  std::lock_guard lock(mutex_);
  return records_.size();
}

std::vector<TransferRecord> TransferLog::take_from(std::size_t index) {
  std::lock_guard lock(mutex_);
  settle_locked();
  std::vector<TransferRecord> out;
  if (index >= records_.size()) return out;
  out.assign(std::make_move_iterator(records_.begin() + static_cast<long>(index)), std::make_move_iterator(records_.end()));
  records_.resize(index);
  return out;
}

std::map<std::string, std::int64_t> TransferLog::bytes_by_mechanism() const {
  std::lock_guard lock(mutex_);
  std::map<std::string, std::int64_t> out;
  for (const auto& r : records_) out[r.mechanism] += r.bytes;
  return out;
}

}  // namespace srcc
