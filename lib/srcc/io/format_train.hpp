#pragma once
// One train of one file format in an open file: its description (from metadata only) and its
// sites, one at a time, each in its stored element type with the axes its description's
// dataset_letters name. What each format stores is in docs/FORMAT.md; the readers live beside
// this header (srcc_train, tenpy_train, itensor_train). Only code under io/ includes it.
#include <hdf5.h>

#include <memory>
#include <optional>
#include <string>

#include "srcc/core/tensor.hpp"
#include "srcc/io/pinned_file.hpp"
#include "srcc/log/transfer_log.hpp"
#include "srcc/train/site_boxes.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

class FormatTrain {
 public:
  virtual ~FormatTrain() = default;
  const TrainInfo& info() const { return info_; }
  // Site `j` as described (dataset_shapes[j] in dataset_letters[j] order, dtypes[j]), every
  // value checked finite, with its "file read" rows in `log`. Throws InputError naming the
  // file, group and site.
  virtual AnyTensor read_site(std::size_t j, TransferLog& log) const = 0;
  // Site `j` as the boxes of the blocks the file stores, in the internal (l, r, u, d) order,
  // checked and logged as read_site's; nothing where the format stores dense sites.
  virtual std::optional<AnyBoxes> read_site_boxes(std::size_t /*j*/, TransferLog& /*log*/) const { return std::nullopt; }

 protected:
  TrainInfo info_;
};

// The train at `group` of the open `file` (pinned as `pin`) in `format` (not kAuto), described.
std::unique_ptr<FormatTrain> open_format_train(hid_t file, const PinnedFile& pin,
                                               const std::string& group, TrainFormat format);

// Our own format from a description made elsewhere (the read check's child), without reading
// the metadata again.
std::unique_ptr<FormatTrain> srcc_train_from(hid_t file, const PinnedFile& pin, TrainInfo described);

}  // namespace srcc
