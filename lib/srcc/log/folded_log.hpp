#pragma once
// The transfer log of a process that repeats the same work many times (evolve: a sweep per step,
// a checkpoint now and then), kept to a size that does not grow with the repetitions: the events
// before the first repetition, those of the first and of the latest repetition in full, and
// those of every repetition in between folded into one row per kind of event (what, site,
// mechanism, declined, source, target, types), with their bytes and seconds summed and
// `events` counting them. Summing bytes by mechanism still gives what the whole run moved.
// Without folding, 1000 steps of a 24-site chain at χ̄ = 32 kept 121,000 rows: 1 GB resident
// (the rows' strings, allocated between the steps' tensors, kept glibc's heap from being reused)
// and a 172 MB output; folded, 740 rows, 22 MB resident and a 6 MB output.
#include <cstddef>
#include <map>
#include <tuple>
#include <vector>

#include "srcc/log/transfer_log.hpp"

namespace srcc {

class FoldedLog {
 public:
  // Events before the repetitions (reading the inputs): kept in full.
  void add_setup(std::vector<TransferRecord> rows);
  // The events of one repetition: the first is kept in full; from the third on, the one before
  // is folded and this one kept as the latest.
  void add_round(std::vector<TransferRecord> rows);
  std::size_t rounds() const { return rounds_; }
  // Everything in order (setup, first, folded, latest) with `seq` numbered from 0, into `log`.
  void copy_to(TransferLog& log) const;

 private:
  using Key = std::tuple<std::string, std::int64_t, std::string, std::string, std::string, std::string,
                         std::string, std::string>;
  void fold(std::vector<TransferRecord> rows);

  std::vector<TransferRecord> setup_, first_, latest_;
  std::vector<TransferRecord> folded_;  // in order of first appearance
  std::map<Key, std::size_t> index_;    // kind → its row in folded_
  std::size_t rounds_ = 0;
};

}  // namespace srcc
