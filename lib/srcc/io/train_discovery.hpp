#pragma once
// Which groups of a file are trains, and in which format, told from their structure
// (docs/FORMAT.md): ours have `type` "MPS"/"MPO" and datasets 0 … n−1; ITensor's the same `type`
// with subgroups MPS[1] … (MPO[1] …); TeNPy's `type` "instance", a `class` MPS or MPO and a
// `module` of tenpy. Every other group — TeNPy's and ITensor's own objects, a run's /log — is no
// train. Only code under io/ includes this header.
#include <hdf5.h>

#include <string>
#include <vector>

#include "srcc/train/train.hpp"

namespace srcc {

// The format of the group at `path` when it is a train we read, kAuto when it is no train.
// Throws InputError (naming `where`) when its `type` attribute is damaged.
TrainFormat detect_format(hid_t file, const std::string& path, const std::string& where);

struct FoundTrain {
  std::string group;   // "/psi"
  TrainFormat format;  // never kAuto
};
// Every train in the file, each once (hard links to one group count once), in name order.
std::vector<FoundTrain> find_trains(hid_t file, const std::string& file_name);

}  // namespace srcc
