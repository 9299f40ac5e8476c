#pragma once
// Charged trains brought to canonical form and truncated, a sector at a time: the SVD truncation
// sweep (truncate, and the last step of --oversample and --tol on charges) and the left-
// orthonormal form the fit sweeps project on. Cores (l, r, u, d) labelled kCoreL … kCoreD.
#include <vector>

#include "srcc/symmetric/block_tensor.hpp"

namespace srcc {

// Each cut's Schmidt values by charge sector: the charge of the bond's sector (as the cores to its
// left carry it), its values descending.
struct SectorValues {
  Charge charge;
  std::vector<double> values;
};

// Schmidt values at or below this fraction of the largest one at their cut are rounding: the B
// form with Schmidt bases drops them (a library's file stores no such bond).
inline constexpr double kSchmidtRounding = 1e-14;

// A train's cores in the B form whose bonds are Schmidt bases (schmidt_b_form's), with what that
// form found: each cut's values by sector and the norm² of those it dropped as rounding.
struct SchmidtForm {
  std::vector<std::vector<SectorValues>> spectra;
  double dropped2 = 0;
};

// The SVD truncation of a charged train (cores (l, r, u, d), any form) to at most `chi` (0: no
// cap) per cut with `cutoff` and `tol` (truncation.hpp's rules over all sectors at once): a right-to-left sweep to B form, then left to right truncating each
// cut on its Schmidt values per sector, then back to B form (cores 1 … n−1 right-orthonormal).
// Per cut, the relative norm truncated lands in `truncated[j]` (cut j between sites j−1 and j).
// With `schmidt`, the way back is by an SVD per sector instead of a QR, which leaves the B form
// with Schmidt bases (values ≤ kSchmidtRounding·σ_max dropped) and its figures in `schmidt`: a
// writer that stores that form (TeNPy's) then takes it as it is, instead of two more sweeps.
template <class T>
std::vector<BlockTensor<T>> symmetric_truncate(Kernels<T>& K, std::vector<BlockTensor<T>> cores, std::size_t chi,
                                               double cutoff, double tol, bool numerical_zeros, std::vector<double>& truncated,
                                               const ChargeRule& rule, bool from_b_form, SchmidtForm* schmidt = nullptr);
// The Schmidt values of a charged train (cores (l, r, u, d) of any form) at cuts 1 … n−1, by
// sector: to B form (unless `from_b_form`: the cores are in it already), then left to right by
// an SVD per sector, nothing truncated (the cores are changed, the train they represent is not).
template <class T>
std::vector<std::vector<SectorValues>> schmidt_spectra(Kernels<T>& K, std::vector<BlockTensor<T>> cores,
                                                       const ChargeRule& rule, bool from_b_form = false);

// The cores brought to right-orthonormal form (cores 1 … n−1), the norm in core 0: a QR per
// sector, site by site from the right, nothing truncated.
template <class T>
void right_orthonormalize(Kernels<T>& K, std::vector<BlockTensor<T>>& cores, const ChargeRule& rule);

// The cores brought to left-orthonormal form (cores 0 … n−2), the norm in the last: a QR per
// sector, site by site from the left, nothing truncated.
template <class T>
void left_orthonormalize(Kernels<T>& K, std::vector<BlockTensor<T>>& cores, const ChargeRule& rule);

// The cores brought to the B form whose bonds are Schmidt bases, as TeNPy's files hold a state
// (cores 1 … n−1 right-orthonormal, the norm in core 0): left-orthonormal by a QR per sector, then
// right to left an SVD per sector of every left bond, values at or below kSchmidtRounding·σ_max of
// their cut dropped. Its spectra hold each cut's kept values by sector (cut j between sites j−1
// and j; entry 0 empty), each sector by the charge of the new bond's sector.
template <class T>
SchmidtForm schmidt_b_form(Kernels<T>& K, std::vector<BlockTensor<T>>& cores, const ChargeRule& rule);

}  // namespace srcc
