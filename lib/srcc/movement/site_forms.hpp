#pragma once
// The matrix forms in which the sweep's GEMMs consume a site. A site is stored (l, r, u, d);
// each contraction needs the contracted legs adjacent, so each form is one paid permutation of
// a (small) site, made once per site and sweep, never of an environment.
#include <array>
#include <string>

#include "srcc/core/tensor.hpp"
#include "srcc/log/transfer_log.hpp"
#include "srcc/train/layout.hpp"

namespace srcc {

enum class SiteForm {
  kUlRd,  // rows (u, l), cols (r, d): right sweep, every layer but the bottom one
  kRUld,  // rows (r), cols (u, l, d): right sweep bottom layer; left sweep of a single train
  kUrLd,  // rows (u, r), cols (l, d): left sweep, the layers between the top and the bottom
  kULdr,  // rows (u), cols (l, d, r): left sweep top layer (the sketch is contracted into it)
  kLUdr,  // rows (l), cols (u, d, r): left sweep bottom layer
  kLUrd,  // rows (l), cols (u, r, d): bottom layer of the deterministic left step (dense_left_step)
};

std::array<std::size_t, kSiteRank> form_permutation(SiteForm f);
std::string form_name(SiteForm f);

// The site in form `f` (a copy; a reshape where only size-1 legs move), logged as "host copy"
// or "stays in place".
template <class T>
std::vector<T> site_in_form(const Tensor<T>& site, SiteForm f, const std::string& what,
                            std::size_t site_index, TransferLog& log);

}  // namespace srcc
