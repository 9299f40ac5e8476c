#pragma once
// The sketched left environments between the two sweeps, in the tier the plan chose: kept in
// backend memory, moved to host memory (GPU runs), or spilled to a raw file in the run's private
// scratch directory; the last two are brought back in row batches. Every move is a row of the
// transfer log.
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "srcc/backend/backend.hpp"
#include "srcc/core/background.hpp"
#include "srcc/log/transfer_log.hpp"
#include "srcc/movement/mover.hpp"
#include "srcc/plan/plan.hpp"

namespace srcc {

// A private directory for one run (mkdtemp under `parent`), removed with everything in it when
// the object goes away: on success, on error and when a signal unwinds the run.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& parent);
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Removes the private scratch directories under `parent` left by runs of this user whose
// process no longer exists (a SIGKILL'd run cannot clean up); returns their paths.
std::vector<std::string> remove_stale_scratch(const std::string& parent);

template <class T> class EnvStore {
 public:
  using TierRule = std::function<Tier(std::size_t cut)>;  // where C_cut waits
  // Device moves go through `mover`, file reads and writes are logged in `log`.
  EnvStore(Mover<T>& mover, TransferLog& log, TierRule tier, std::string scratch_parent);

  // Takes C_j (rows × cols) of sketch block `block`. An environment leaving backend memory is
  // copied out (a device's download stream) and written by a background thread while the sweep
  // computes its next step; one such spill is in flight at a time (the plan counts it).
  void put(std::size_t block, std::size_t j, Buffer<T> env, std::size_t rows, std::size_t cols);
  // Calls f(pointer, first_row, count) over rows [0, rows) of C_j in batches of at most
  // `batch` rows (all at once when it is in memory). On a device backend the next batch is
  // uploaded while f works on the current one, so two batches are on the device at once (the
  // plan counts both).
  void for_rows(std::size_t block, std::size_t j, std::size_t rows, std::size_t batch,
                const std::function<void(const T*, std::size_t, std::size_t)>& f);
  void release(std::size_t block, std::size_t j);
  // C_j whole, back in backend memory, and out of the store (its file removed): for a caller
  // that needs the environment as one buffer (the charged sweep's block tensors).
  Buffer<T> take(std::size_t block, std::size_t j);
  // Waits for the spill in flight; rethrows its error.
  void settle() { spiller_.wait(); }
  bool spills() const { return scratch_ != nullptr; }

 private:
  struct Entry {
    Buffer<T> memory;
    std::vector<T> host;
    Tier tier = Tier::kMemory;
    std::filesystem::path file;
    std::size_t rows = 0, cols = 0;
  };
  // Host or scratch copy of an entry that left backend memory.
  void keep(Entry& e, std::vector<T>&& host, std::size_t block, std::size_t j);
  void write_file(Entry& e, const T* data, std::size_t n, std::size_t block, std::size_t j);
  // Rows [a0, a0 + count) of a spilled entry, read from its tier into `into`.
  void read_rows(Entry& e, std::FILE* file, std::size_t j, std::size_t a0, std::size_t count,
                 T* into);

  Mover<T>& mover_;
  TransferLog& log_;
  TierRule tier_;
  std::string parent_;
  std::unique_ptr<ScratchDir> scratch_;  // created on the first spill
  std::map<std::pair<std::size_t, std::size_t>, Entry> entries_;  // guarded: see put()
  std::mutex entries_mutex_;
  Background spiller_;  // last: stopped before the members its tasks use go away
};

}  // namespace srcc
