#pragma once
// The objects of a TeNPy file (tenpy.tools.hdf5_io) that reading and writing trains needs: every
// object is a group or dataset whose attribute `type` says what it is — "list" and "tuple"
// (members 0 … len−1), "simple_dict" (members named by the keys), "None" (a dataset), scalars as
// datasets, "instance" (attributes `class` and `module`) — and the np_conserved objects built
// from them: LegCharge (block boundaries and charges of one leg) and Array (blocks of a
// block-sparse tensor). docs/FORMAT.md describes the format; only code under io/ includes this.
#include <hdf5.h>

#include <optional>
#include <string>
#include <vector>

namespace srcc::tenpy {

// The `type` attribute of the object at `path` under `parent` ("" when it has none).
std::string type_of(hid_t parent, const std::string& path, const std::string& where);
// Whether the object at `path` is TeNPy's None.
bool is_none(hid_t parent, const std::string& path, const std::string& where);
// The length of a list or tuple group (its `len` attribute, checked against its members).
std::size_t list_length(hid_t group, const std::string& where, std::size_t most);
// The members of a list of strings (labels).
std::vector<std::string> string_list(hid_t parent, const std::string& path, const std::string& where);
// An integer or None (IdL, IdR entries).
std::optional<long long> int_or_none(hid_t parent, const std::string& path, const std::string& where);

// A charged leg: its blocks (slices[b] … slices[b+1]) and their charges (one row of
// num_charges values per block), with the direction qconj (+1 or −1).
struct LegCharge {
  std::vector<long long> slices;   // block_number + 1 values, from 0 to ind_len
  std::vector<long long> charges;  // block_number × num_charges
  std::size_t num_charges = 0;
  int qconj = 1;
  std::size_t ind_len() const { return slices.empty() ? 0 : static_cast<std::size_t>(slices.back()); }
  std::size_t blocks() const { return slices.empty() ? 0 : slices.size() - 1; }
};
// Reads a LegCharge instance in any of its formats (blocks, compact, flat); a LegPipe (grouped
// legs) is refused.
LegCharge read_leg(hid_t parent, const std::string& path, const std::string& where);

// The charges' moduli (ChargeInfo.U1_ZN: 1 = U(1), N = Z_N), one per charge.
std::vector<long long> read_charge_moduli(hid_t parent, const std::string& path, const std::string& where);

// An np_conserved Array's description (its blocks are read one at a time from blocks/B).
struct ArrayInfo {
  std::string path;                  // the Array's group
  std::vector<std::string> labels;   // per axis
  std::vector<LegCharge> legs;       // per axis
  std::vector<long long> block_inds; // nblocks × rank: each block's block number on each leg
  std::vector<long long> total_charge;
  std::vector<long long> moduli;     // of the charges (chinfo)
  std::size_t nblocks = 0;
  std::string dtype;                 // numpy's name: float64, complex128, …
  std::size_t rank() const { return legs.size(); }
};
// Reads the Array at `path`; checks that every block index is in range and that every block
// obeys the charge rule Σ qconj_k · charge_k = total_charge (mod each charge's modulus).
ArrayInfo read_array_info(hid_t parent, const std::string& path, const std::string& where);

// The Array descriptions this process has read (read_array_info keeps each once per file state),
// as bytes, and back: a read check's child reads every Array of its file, and its parent takes
// them from the pipe instead of reading them again (train_reader.cpp).
std::string known_arrays();
void learn_arrays(const std::string& bytes);
// The Arrays such bytes hold (what learn_arrays takes).
std::vector<ArrayInfo> arrays_in(const std::string& bytes);

}  // namespace srcc::tenpy
