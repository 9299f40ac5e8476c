#pragma once
// Trains TeNPy wrote (tenpy.tools.hdf5_io: hdf5_io.save, a Simulation's output): finite MPS and
// MPO groups of np_conserved Arrays (docs/FORMAT.md, "TeNPy files"). Each site is made dense
// exactly from its blocks, or (for a charged run) read as the boxes of its blocks, no dense site
// formed; an MPS's canonical forms are resolved with its singular values and
// its norm (the state is norm · S_0 Γ_0 S_1 … Γ_{L−1} S_L, and the stored tensor i is
// S_i^νL Γ_i S_{i+1}^νR); an MPO's outer bonds are projected at IdL[0] and IdR[L], and
// `explicit_plus_hc` is applied (W + W†). Where sites conserve charges, TeNPy stores the
// physical basis sorted by charge: it is put back in the site's own order (Site.perm), so that
// files with and without conservation agree. Infinite and segment states, purifications and
// grouped sites are refused, saying what is read.
#include "srcc/io/format_train.hpp"
#include "srcc/io/tenpy/tenpy_objects.hpp"

namespace srcc {

class TenpyTrain final : public FormatTrain {
 public:
  TenpyTrain(hid_t file, const std::string& file_name, const std::string& group);
  AnyTensor read_site(std::size_t j, TransferLog& log) const override;
  std::optional<AnyBoxes> read_site_boxes(std::size_t j, TransferLog& log) const override;

  // How stored index values map to the dense site: per TeNPy axis the internal leg it is, and
  // the factors and projections applied.
  struct Site {
    tenpy::ArrayInfo array;
    std::vector<std::size_t> role;         // per TeNPy axis: kLegL, kLegR, kLegU or kLegD
    std::vector<double> left, right;       // MPS: factor per index of vL / vR (empty: 1)
    double factor = 1;                     // the MPS's norm, on site 0
    long long keep_left = -1, keep_right = -1;  // MPO: the index kept of wL / wR at the ends
    std::vector<std::size_t> perm;         // physical: stored index k is the site's state perm[k]
  };

 private:
  // The ctor's parts: an MPS's forms, singular values and norm; an MPO's outer indices and +h.c.;
  // then every site's dims, types and basis (group `g`, named `where`, n sites).
  void read_mps_members(hid_t g, const std::string& where, std::size_t n);
  void read_mpo_members(hid_t g, const std::string& where, std::size_t n);
  void describe_sites(hid_t g, const std::string& where, std::size_t n);
  // Where the indices of one stored block go: per TeNPy axis, each index's place on its internal
  // leg (−1: an outer index the projection drops) and the factor it takes.
  struct BlockPlaces {
    Shape shape;
    std::vector<std::vector<long long>> at;
    std::vector<std::vector<double>> scale;
  };
  // f(block values as stored, places) for each stored block of a site read as T (a complex block
  // in a real Array is refused).
  template <class T, class F> void for_each_block(const Site& s, F&& f) const;
  template <class T> Tensor<T> assemble(const Site& s) const;
  template <class T> SiteBoxes<T> boxes(const Site& s) const;

  hid_t file_;
  std::vector<Site> sites_;
  bool plus_hc_ = false;  // MPO: the operator is W + W†
};

// Whether the open group `g` (its `type` attribute `type`) is a TeNPy MPS or MPO: type
// "instance", a `class` ending in MPS or MPO (subclasses such as PurificationMPS too: the reader
// refuses them with a reason) and a `module` of tenpy.
bool is_tenpy_train(hid_t g, const std::string& type, const std::string& where);

}  // namespace srcc
