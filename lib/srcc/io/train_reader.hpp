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

// Reads the trains a command will read once in a child process first (see read_probe.hpp):
// all their metadata and one element of every site, through the same type conversion as the
// real read (a full second read of the data would cost more than it finds). Throws InputError
// naming a file that crashes the HDF5 library.
void probe_trains(const std::vector<TrainRef>& refs);

// Keeps one input file open and reads the sites of one train from it.
class TrainReader {
 public:
  // Opens the file and describes the train without reading tensor data. With an empty group
  // the file must hold exactly one train. Throws InputError naming file and group.
  explicit TrainReader(const TrainRef& ref);
  ~TrainReader();
  TrainReader(TrainReader&&) noexcept;
  TrainReader& operator=(TrainReader&&) noexcept;

  const TrainInfo& info() const;
  // Reads dataset `site` in its stored element type and leg order, checks that every value is
  // finite, and records a "file read" row in `log`.
  AnyTensor read_site(std::size_t site, TransferLog& log) const;
  // Reads only the first element of a site (for probe_trains).
  void touch_site(std::size_t site) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace srcc
