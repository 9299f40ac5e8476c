#pragma once
// Reading trains from HDF5 files (schema v1): descriptions from metadata only, tensor data
// lazily one site at a time.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "srcc/core/tensor.hpp"
#include "srcc/io/pinned_file.hpp"
#include "srcc/log/transfer_log.hpp"
#include "srcc/train/site_loader.hpp"
#include "srcc/train/sectors.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

// Every train in a file, of every format we read (io/train_discovery.hpp), described from its
// metadata; other groups are left out. A train whose description fails (a TeNPy iMPS, a damaged
// group) is listed with the reason instead of failing the whole list.
struct ListedTrain {
  std::string group;
  TrainFormat format = TrainFormat::kSrcc;
  std::optional<TrainInfo> info;  // empty when `refused` says why not
  std::string refused;
};
std::vector<ListedTrain> list_trains(const std::string& file);


// Keeps one input file open and reads the sites of one train from it.
class TrainReader {
 public:
  // Opens the file and describes the train without reading tensor data, in the format the
  // reference names or its structure shows. With an empty group the file must hold exactly one
  // train. Throws InputError naming file and group.
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
  // The same as the boxes of the blocks the file stores (site_boxes.hpp), already in the internal
  // order; nothing where its format stores dense sites.
  std::optional<AnyBoxes> read_site_boxes(std::size_t site, TransferLog& log) const;
  // Throws InputError when the file was modified in place since it was opened (what was read
  // may mix versions); a file replaced under its name is no concern: this one is read.
  void check_unchanged() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Readers for the trains a command reads, opened after a read check (read_probe.hpp): a child
// process describes each train (all its metadata), and its descriptions are used here, so the
// metadata is read once. Each file is pinned first (pinned_file.hpp): the child and every
// reader see the same file, whatever happens to its name meanwhile.
// Throws InputError naming a file that crashes the HDF5 library or gets it stuck.
std::vector<TrainReader> open_trains(const std::vector<TrainRef>& refs);

// The charges of a described train's physical indices as its file gives them (TeNPy's legs,
// ITensor's QN blocks, our format's extension), or nothing where it conserves none.
std::optional<PhysicalCharges> train_charges(const TrainInfo& info);

// Every site of `r` in the working type T, internal (l, r, u, d): a train held whole (a step's
// MPOs, an observable, an evolution's state).
template <class T> std::vector<Tensor<T>> read_whole(const TrainReader& r, TransferLog& log) {
  std::vector<Tensor<T>> out;
  for (std::size_t j = 0; j < r.info().length(); ++j) out.push_back(to_internal<T>(r.read_site(j, log), r.info(), j, log));
  return out;
}

}  // namespace srcc
