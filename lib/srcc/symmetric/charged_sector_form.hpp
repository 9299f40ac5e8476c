#pragma once
// A result computed on charges, brought to the block structure its state's library writes
// (sweep/sector_form.hpp's SectorForm) from its own blocks: its bonds already carry their
// charges, so every factorisation is one per sector of the bond's own sector dimensions — no
// dense core re-split by charge, nothing outside the total charge to drop. B form with the
// Schmidt values at every cut (charged_truncation.hpp's schmidt_b_form), each bond's sectors laid
// out in the template's charge order, the charges moved into the template's gauge (its left
// boundary's charge and the tensors' own totals).
#include <optional>
#include <vector>

#include "srcc/symmetric/block_tensor.hpp"
#include "srcc/symmetric/charged_truncation.hpp"
#include "srcc/train/sectors.hpp"

namespace srcc {

// A result computed on charges: its cores (l, r, u, d), labelled kCoreL … kCoreD, and the
// physical charges they were computed with; `schmidt` where the cores are in that form already
// (a run that ended in a truncation sweep asked for it), else it is made here; `b_form` where
// the cores are in B form (cores 1 … n−1 right-orthonormal, the norm in core 0: a sweep's result).
template <class T> struct ChargedCores {
  std::vector<BlockTensor<T>> cores;
  PhysicalCharges physical;
  std::optional<SchmidtForm> schmidt;
  bool b_form = false;
};

// Whether the template's charges are the result's (the same physical charges, the same total):
// else the dense sector form decides, and says why where it must.
template <class T> bool fits_template(const ChargedCores<T>& result, const SectorTemplate& tpl);

// The result in the template's block structure (fits_template must hold). Without `schmidt` (a
// writer that stores no Schmidt values: ITensor's), a result in B form is taken in the form it has,
// its bonds laid out in the template's order and `SectorForm::schmidt` left empty at the inner
// bonds.
template <class T>
SectorForm<T> charged_sector_form(Kernels<T>& K, ChargedCores<T> result, const SectorTemplate& tpl, bool schmidt = true);

}  // namespace srcc
