#pragma once
// Reading trains from HDF5 files (schema v1): descriptions from metadata only, tensor data
// lazily one site at a time.
#include <memory>
#include <string>
#include <vector>

#include "srcc/core/tensor.hpp"
#include "srcc/io/pinned_file.hpp"
#include "srcc/log/transfer_log.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

// Every train (group with a "type" attribute) in a file, described from its metadata.
std::vector<TrainInfo> list_trains(const std::string& file);


// Keeps one input file open and reads the sites of one train from it.
class TrainReader {
 public:
  // Opens the file and describes the train without reading tensor data. With an empty group
  // the file must hold exactly one train. Throws InputError naming file and group.
  explicit TrainReader(const TrainRef& ref);
  // The same on a file already pinned (the train's file).
  TrainReader(const TrainRef& ref, std::shared_ptr<const PinnedFile> pin);
  // Opens the pinned file for a train already described (by the read check).
  TrainReader(const TrainRef& ref, TrainInfo described, std::shared_ptr<const PinnedFile> pin);
  ~TrainReader();
  TrainReader(TrainReader&&) noexcept;
  TrainReader& operator=(TrainReader&&) noexcept;

  const TrainInfo& info() const;
  // Reads dataset `site` in its stored element type and leg order, checks that every value is
  // finite, and records a "file read" row in `log`.
  AnyTensor read_site(std::size_t site, TransferLog& log) const;
  // Throws InputError when the file was modified in place since it was opened (what was read
  // may mix versions); a file replaced under its name is no concern: this one is read.
  void check_unchanged() const;

 private:
  void read_raw(const std::string& where, std::int64_t offset, void* out, std::size_t bytes) const;

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Readers for the trains a command reads, opened after a read check (read_probe.hpp): a child
// process describes each train (all its metadata), and its descriptions are used here, so the
// metadata is read once. Each file is pinned first (pinned_file.hpp): the child and every
// reader see the same file, whatever happens to its name meanwhile.
// Throws InputError naming a file that crashes the HDF5 library or gets it stuck.
std::vector<TrainReader> open_trains(const std::vector<TrainRef>& refs);

}  // namespace srcc
