#pragma once
// The train formats we read, one row each (docs/FORMAT.md): how a group in that format is told
// from its structure and how it is opened. Each format's code lives in its own folder (srcc/,
// tenpy/, itensor/); a new format is a folder, a TrainFormat value with its name (train/train.cpp)
// and a row here. Only code under io/ includes this header.
#include <hdf5.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "srcc/io/format_train.hpp"
#include "srcc/io/pinned_file.hpp"
#include "srcc/train/sectors.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

struct FormatRow {
  TrainFormat format;
  // Whether the open group `g`, whose `type` attribute is `type`, is a train of this format.
  bool (*is_train)(hid_t g, const std::string& type, const std::string& where);
  // The train at `group` of the open `file`, described.
  std::unique_ptr<FormatTrain> (*open)(hid_t file, const PinnedFile& pin, const std::string& group);
  // The charges of the described train's physical indices, or nothing where it has none.
  std::optional<PhysicalCharges> (*charges)(const TrainInfo& info);
};

// In the order formats are tried (the first that recognises a group has it).
const std::vector<FormatRow>& format_table();

}  // namespace srcc
