#pragma once
// Writing a result back as ITensor wrote the state it came from (ITensorMPS.jl's `h5write`
// layout, strings and integers encoded as HDF5.jl encodes them), so that `h5read(f, "psi", MPS)`
// gives an MPS on the user's own site indices (the template's ids, tags and QN blocks) with fresh
// links. Without QNs the cores are written Dense as they are (site 1 carries the norm: llim 0,
// rlim 2); with QNs as BlockSparse from the bonds' charges of sector_form. docs/FORMAT.md,
// "Writing ITensor files". Only code under io/ includes this header.
#include <hdf5.h>

#include <string>
#include <vector>

#include "srcc/train/sectors.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

// What the ITensor train at `group` of `file` requires of a result: its charges (the QN names of
// its site indices, each a charge) when its indices carry QNs; a rule of no charge otherwise.
SectorTemplate itensor_sector_template(const std::string& file, const std::string& group, TrainKind kind);

// Writes the cores (l, r, u, d; site 0 carrying the norm, the rest right-orthonormal) as an ITensor
// MPS or MPO at `out_group` of `out`, on the site indices of the template train at `group` of
// `file`. `form` (from sector_form) is given when the template has QNs: then BlockSparse, its cores
// (SectorForm::core, one at a time) written and `cores` not read.
template <class T>
void write_itensor_train(hid_t out, const std::string& out_group, TrainKind kind,
                         const std::vector<Tensor<T>>& cores, const SectorForm<T>* form,
                         const std::string& file, const std::string& group, const std::string& label);

}  // namespace srcc
