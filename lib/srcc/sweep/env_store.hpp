#pragma once
// The sketched left environments between the two sweeps, in the tier the plan chose: kept in
// backend memory, or spilled to a raw file in the run's private scratch directory and read back
// in row batches. Every spill and read-back is a row of the transfer log.
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <utility>

#include "srcc/backend/backend.hpp"
#include "srcc/log/transfer_log.hpp"

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

template <class T> class EnvStore {
 public:
  using SpillRule = std::function<bool(std::size_t cut)>;  // true: spill C_cut to scratch
  EnvStore(Kernels<T>& kernels, TransferLog& log, SpillRule spill, std::string scratch_parent);

  // Takes C_j (rows × cols) of sketch block `block`.
  void put(std::size_t block, std::size_t j, Buffer<T> env, std::size_t rows, std::size_t cols);
  // Calls f(pointer, first_row, count) over rows [0, rows) of C_j in batches of at most
  // `batch` rows (all at once when it is in memory).
  void for_rows(std::size_t block, std::size_t j, std::size_t rows, std::size_t batch,
                const std::function<void(const T*, std::size_t, std::size_t)>& f);
  void release(std::size_t block, std::size_t j);
  bool spills() const { return scratch_ != nullptr; }

 private:
  struct Entry {
    Buffer<T> memory;
    std::filesystem::path file;
    std::size_t rows = 0, cols = 0;
  };
  Kernels<T>& K_;
  TransferLog& log_;
  SpillRule spill_;
  std::string parent_;
  std::unique_ptr<ScratchDir> scratch_;  // created on the first spill
  std::map<std::pair<std::size_t, std::size_t>, Entry> entries_;
};

}  // namespace srcc
