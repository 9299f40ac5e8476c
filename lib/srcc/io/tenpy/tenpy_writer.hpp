#pragma once
// Writing a result back as TeNPy wrote the state it came from, so that TeNPy's own
// hdf5_io.load reads it with the user's sites, charges and MPO: the template's group is copied
// (its sites, chinfo and everything TeNPy keeps there), then its tensors, singular values and
// canonical forms are replaced by the result's: np_conserved Arrays in B form, block by block,
// with the bonds' charges from sector_form. docs/FORMAT.md, "Writing TeNPy files".
// Only code under io/ includes this header.
#include <hdf5.h>

#include <string>

#include "srcc/train/sectors.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

// What the TeNPy train at `group` of `file` (an MPS or MPO of `kind`, the result's kind)
// requires of a result: its charge rule, the physical indices' charges (in the site's own basis
// order, as our reader gives the sites), each tensor's total charge, and the boundary bonds'.
SectorTemplate tenpy_sector_template(const std::string& file, const std::string& group, TrainKind kind);

// Writes `form` as a TeNPy MPS or MPO at `out_group` of the open output file `out`, from the
// template train at `group` of `file` (copied: sites, chinfo, …). The root group gets TeNPy's
// `type` (simple_dict) so that hdf5_io.load(out) returns every member.
template <class T>
void write_tenpy_train(hid_t out, const std::string& out_group, TrainKind kind, const SectorForm<T>& form,
                       const std::string& file, const std::string& group, const std::string& label);

// Marks `path` (our /log) as a member TeNPy's loader skips (type "ignore").
void mark_ignored_by_tenpy(hid_t out, const std::string& path, const std::string& label);

}  // namespace srcc
