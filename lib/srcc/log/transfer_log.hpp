#pragma once
// The conversion/transfer log (/log/transfers in the output, docs/FORMAT.md): one record for
// every time tensor data is read, cast, permuted, copied or written.
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace srcc {

// Mechanism names exactly as docs/FORMAT.md spells them.
namespace mechanism {
inline constexpr const char* kStaysInPlace = "stays in place";
inline constexpr const char* kHostCopy = "host copy";
inline constexpr const char* kDeviceMove = "device move";
inline constexpr const char* kFileRead = "file read";
inline constexpr const char* kFileWrite = "file write";
inline constexpr const char* kRankExchange = "rank exchange";  // between the MPI ranks of a run
}  // namespace mechanism

struct TransferRecord {
  std::int64_t seq = 0;      // order of the event, from 0 (assigned by TransferLog::add)
  std::string what;          // "mpo site", "mps site", "environment", "result site", ...
  std::int64_t site = -1;    // site index, -1 where none
  std::string mechanism;     // one of srcc::mechanism
  std::string declined;      // mechanisms refused first, with the reason; "" if none
  std::string source;        // "file:in.h5:/psi/3", "host", ...
  std::string target;
  std::string dtype_from;    // "float64", ...
  std::string dtype_to;
  std::int64_t bytes = 0;    // bytes moved (0 for "stays in place")
  double seconds = 0.0;      // wall time of the move
  std::int64_t events = 1;   // events the row stands for: more than 1 only in a FoldedLog's
                             // rows, each the sum of one kind of event over many repetitions
};

class TransferLog {
 public:
  // Appends `r` with the next sequence number; safe to call from several threads.
  void add(TransferRecord r);
  // The same for a copy still in flight: `seconds` is read (and may wait for the copy) when the
  // records are next asked for or settled, so that logging does not stall the device.
  void add(TransferRecord r, std::function<double()> seconds);
  // Reads every pending duration now, while whatever times them still exists.
  void settle();
  std::vector<TransferRecord> records() const;
  std::size_t size() const;
  // Removes the records from `index` on and returns them (settled), for a FoldedLog.
  std::vector<TransferRecord> take_from(std::size_t index);
  // Sum of `bytes` per mechanism: how a user checks what a run moved.
  std::map<std::string, std::int64_t> bytes_by_mechanism() const;

 private:
  void settle_locked() const;
  mutable std::mutex mutex_;
  mutable std::vector<TransferRecord> records_;
  mutable std::vector<std::pair<std::size_t, std::function<double()>>> pending_;  // index, clock
};

}  // namespace srcc
