#pragma once
// Reading trains from HDF5 files (schema v1): descriptions from metadata only, tensor data
// lazily one site at a time.
#include <memory>
#include <string>
#include <vector>

#include "srcc/core/tensor.hpp"
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
  // Opens the file for a train already described (by the read check).
  TrainReader(const TrainRef& ref, TrainInfo described);
  ~TrainReader();
  TrainReader(TrainReader&&) noexcept;
  TrainReader& operator=(TrainReader&&) noexcept;

  const TrainInfo& info() const;
  // Reads dataset `site` in its stored element type and leg order, checks that every value is
  // finite, and records a "file read" row in `log`.
  AnyTensor read_site(std::size_t site, TransferLog& log) const;

 private:
  void read_raw(const std::string& where, std::int64_t offset, void* out, std::size_t bytes) const;

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Readers for the trains a command reads, opened after a read check (read_probe.hpp): a child
// process describes each train (all its metadata), and its descriptions are used here, so the
// metadata is read once.
// Throws InputError naming a file that crashes the HDF5 library or gets it stuck.
std::vector<TrainReader> open_trains(const std::vector<TrainRef>& refs);

}  // namespace srcc
