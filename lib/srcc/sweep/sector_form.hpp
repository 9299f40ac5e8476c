#pragma once
// A result brought to the block structure of a library that conserves charges (TeNPy, ITensor
// with QNs), in B form with its Schmidt values: what their files require. Two sweeps of SVDs,
// each of them per charge sector, on the result as a sweep leaves it (cores 1 … n−1
// right-orthonormal, the norm in core 0):
//   1. left to right: at every cut the rows (l, u, d) are grouped by their charge (the left
//      bond's charges are known, the physical ones come from the template) and each group is
//      factorised on its own, which gives the next bond a charge per index; since the sites to
//      the right are orthonormal, the values are the cut's Schmidt values per sector and the
//      largest over all sectors are kept up to a quarter above the cut's bond before
//      (`max_bonds`), so the bond does not grow with the sectors. At the last site only the part of the template's total charge is kept: what
//      lies outside is the dropped weight;
//   2. right to left: at every cut one SVD per sector of the left bond, the largest singular
//      values over all sectors kept up to the cut's bond: the cores become right-orthonormal
//      (B form) and the values are the Schmidt values of the charged train.
// Factors move between sites by GEMMs: the cost is that of a few SVD sweeps at the result's
// bonds. Without charges (a rule of no charge) this is an SVD sweep to B form, nothing dropped.
#include <vector>

#include "srcc/backend/backend.hpp"
#include "srcc/train/sectors.hpp"

namespace srcc {

// `cores` in (l, r, u, d) order (any form: the result of a run); `max_bonds[j]` bounds the bond
// at cut j (between sites j−1 and j; entry 0 unused). Throws NumericalError when nothing of the
// train has the template's total charge.
template <class T>
SectorForm<T> sector_form(std::vector<Tensor<T>> cores, const SectorTemplate& tpl,
                          const std::vector<std::size_t>& max_bonds, Kernels<T>& K);

}  // namespace srcc
