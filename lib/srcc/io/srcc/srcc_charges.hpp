#pragma once
// Our format's charge extension (docs/FORMAT.md, "Charges"): a train group may hold a subgroup
// `charges` with int64 datasets `moduli` (one per charge: 1 for U(1), N for Z_N), `up`
// (Σ_j u_j rows × charges: the charge of every up index, site after site) and `down` (the same
// for the down indices; an MPS's one index a site). The bonds' charges are not stored: they
// follow from the tensors (symmetric/charged_stack.hpp). Readers that do not know the extension
// see one more member of the group and ignore it. Only code under io/ includes this header.
#include <optional>
#include <string>

#include "srcc/io/h5/h5_writer.hpp"
#include "srcc/train/sectors.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

// The charges of the train `info` describes, or nothing when it has no `charges` member. Throws
// InputError naming the dataset when the member does not fit the train.
std::optional<PhysicalCharges> read_srcc_charges(const TrainInfo& info);

// Writes `c` as group/charges (the train's group written before).
void write_srcc_charges(H5Writer& w, const std::string& group, const PhysicalCharges& c);

}  // namespace srcc
