#pragma once
// Trains in our own format (docs/FORMAT.md, "Trains"): a group of datasets 0 … n−1 with attributes
// type, layout and length. Sites stored contiguously as little-endian IEEE values are read with
// one pread at the offset HDF5 reports, without HDF5 on the path.
#include "srcc/io/format_train.hpp"

namespace srcc {

class SrccTrain final : public FormatTrain {
 public:
  // Describes the train at `group` from its metadata.
  SrccTrain(hid_t file, const PinnedFile& pin, const std::string& group);
  // A train described before.
  SrccTrain(hid_t file, const PinnedFile& pin, TrainInfo described);
  AnyTensor read_site(std::size_t j, TransferLog& log) const override;

 private:
  void read_raw(const std::string& where, std::int64_t offset, void* out, std::size_t bytes) const;

  hid_t file_;
  const PinnedFile& pin_;
};

// Whether the open group `g` (its `type` attribute `type`) is one of our trains: type "MPS" or
// "MPO" (ITensor's, which share them, are told apart first: io/formats.cpp).
bool is_srcc_train(hid_t g, const std::string& type, const std::string& where);

}  // namespace srcc
