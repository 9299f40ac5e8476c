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
  kUlRd,  // rows (u, l), cols (r, d): left sweep, every layer but the bottom one
  kRUld,  // rows (r), cols (u, l, d): left sweep bottom layer (transposed), right sweep top layer
  kUrLd,  // rows (u, r), cols (l, d): right sweep, every layer but the top one
};

std::array<std::size_t, kSiteRank> form_permutation(SiteForm f);
std::string form_name(SiteForm f);

// The site in form `f` (a copy; a reshape where only size-1 legs move), logged as "host copy"
// or "stays in place".
template <class T>
std::vector<T> site_in_form(const Tensor<T>& site, SiteForm f, const std::string& what,
                            std::size_t site_index, TransferLog& log);

}  // namespace srcc
