#pragma once
// Trains (MPS/MPO) and stacks of them, described by their shapes; the tensor data is loaded
// site by site (see site_loader.hpp) so that a description never requires the data in memory.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "srcc/core/dtype.hpp"
#include "srcc/train/layout.hpp"

namespace srcc {

using SiteDims = std::array<std::size_t, kSiteRank>;  // internal (l, r, u, d)

// The file formats a train may be stored in (docs/FORMAT.md): ours, TeNPy's (hdf5_io) and
// ITensor's (ITensorMPS.jl / C++ ITensor h5write). kAuto: told from the group's structure.
enum class TrainFormat { kAuto, kSrcc, kTenpy, kItensor };
std::string_view train_format_name(TrainFormat f);  // "auto", "srcc", "tenpy", "itensor"
// Throws UsageError naming `flag` and listing the formats.
TrainFormat parse_train_format(std::string_view text, std::string_view flag);

// "FILE.h5:/group" or "FILE.h5" (the file's only train) as given on the command line.
struct TrainRef {
  std::string file;
  std::string group;                         // "" = the only train in the file
  TrainFormat format = TrainFormat::kAuto;   // --format
};
TrainRef parse_train_ref(std::string_view arg);

struct TrainInfo {
  std::string file;
  std::string group;                        // resolved, e.g. "/psi"
  TrainFormat format = TrainFormat::kSrcc;  // as stored (never kAuto once described)
  TrainKind kind = TrainKind::kMps;
  std::string layout;                       // leg letters of the full-rank site datasets
  bool layout_assumed = false;              // no `layout` attribute: the kind's default order
  std::vector<std::string> dataset_letters; // per site: letters present in its dataset
  std::vector<std::vector<std::size_t>> dataset_shapes;  // per site, as stored
  std::vector<DType> dtypes;                // per site, as stored
  std::vector<SiteDims> dims;               // per site, internal (l, r, u, d)
  // Per site: where in the file the dataset's values lie, when they can be copied out as they
  // are (contiguous, little-endian IEEE, real part first); -1 where HDF5 must convert them.
  std::vector<std::int64_t> raw_offsets;
  // Per site, where in the file its data lies ("/psi/tensors/3"); empty: GROUP/j (our format).
  std::vector<std::string> site_paths;
  // Per site, the physical basis states in the order of the u (and d) leg as the file names
  // them, in a common spelling ("up", "down", "empty", "full", …); empty where the file does not
  // say. Used to check that a product's trains agree (basis_mismatch in train.hpp).
  std::vector<std::vector<std::string>> basis;
  // The train is e^{log_scale} times what its sites make (our format's optional attribute, for
  // norms a double cannot hold); to_internal spreads it evenly over the sites as they are read.
  double log_scale = 0;
  // A time step's MPO: the time it stands for, as generate step recorded it (our format's `dt`
  // attribute); 0 where the file does not say.
  double step_dt = 0;

  std::size_t length() const { return dims.size(); }
  std::string where() const { return file + ":" + group; }
  std::string where(std::size_t site) const;  // "in.h5:/psi/3"
  std::string dataset_path(std::size_t site) const;  // "/psi/3"
  DType dtype() const;                      // promoted over the sites
  std::size_t max_bond() const;
};

// Layers from top (applied last) to bottom (the state); only the bottom may be an MPS.
struct Stack {
  std::vector<TrainInfo> layers;

  std::size_t depth() const { return layers.size(); }
  std::size_t length() const { return layers.empty() ? 0 : layers.front().length(); }
  TrainKind result_kind() const { return layers.back().kind; }
  DType dtype() const;  // promoted over all layers
  std::size_t up_dim(std::size_t site) const { return layers.front().dims[site][kLegU]; }
  std::size_t down_dim(std::size_t site) const { return layers.back().dims[site][kLegD]; }
  // The size of leg `leg` (kLegL … kLegD) of layer `layer` at a site.
  std::size_t dim(std::size_t layer, std::size_t site, std::size_t leg) const { return layers[layer].dims[site][leg]; }
  // Product of the layers' left (right) bonds at a site: the fused bond of the stack.
  std::size_t fused_left(std::size_t site) const;
  std::size_t fused_right(std::size_t site) const;
  // The largest bond the product can have at the cut left of each site j (index j = 1 … n−1;
  // entry 0 is 1): the smaller of the fused bond there and the physical dimension on either
  // side (saturating, never overflowing). A sketch wider than this cannot see more.
  std::vector<std::size_t> bond_bounds() const;
  // The physical part of that bound alone: the smaller of the dimensions on either side.
  std::vector<std::size_t> physical_bounds() const;
  // The largest of them: the largest bond the product can have at any cut.
  std::size_t largest_bond() const;
};

// The basis every site of `t` names alike, or empty (none named, or sites that differ).
std::vector<std::string> uniform_basis(const TrainInfo& t);

// A basis state's name in the common spelling of TrainInfo::basis ("Up", "↑" → "up"; "Dn",
// "down", "↓" → "down"; "Emp", "empty" → "empty"; "Occ", "full", "UpDn", "↑↓" → "full"), or ""
// for a name we do not know (then the basis is not checked).
std::string canonical_state_name(std::string_view name);

// What a product's physical bases say about it: a mismatch (two trains that name their basis
// states in different orders at a contracted leg) throws InputError naming both; a contracted
// leg where only one side (or neither) names its states cannot be checked, and a note says so
// (returned, for the run's log). Sizes are checked by validate_stack.
std::vector<std::string> check_bases(const Stack& stack);

// Checks that a stack can be contracted: equal lengths, at least one site, bonds matching
// between neighbours, size-1 outer bonds, d of each layer equal to u of the next, only the
// bottom layer an MPS. Throws InputError naming the file, dataset and the mismatch.
void validate_stack(const Stack& stack);

}  // namespace srcc
