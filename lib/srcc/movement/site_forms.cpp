#include "srcc/movement/site_forms.hpp"

#include <chrono>

#include "srcc/core/permute.hpp"

namespace srcc {

std::array<std::size_t, kSiteRank> form_permutation(SiteForm f) {
  switch (f) {
    case SiteForm::kUlRd: return {kLegU, kLegL, kLegR, kLegD};
    case SiteForm::kRUld: return {kLegR, kLegU, kLegL, kLegD};
    case SiteForm::kULdr: return {kLegU, kLegL, kLegD, kLegR};
    case SiteForm::kLUdr: return {kLegL, kLegU, kLegD, kLegR};
    case SiteForm::kLUrd: return {kLegL, kLegU, kLegR, kLegD};
    case SiteForm::kUrLd: break;
  }
  return {kLegU, kLegR, kLegL, kLegD};
}

std::string form_name(SiteForm f) {
  switch (f) {
    case SiteForm::kUlRd: return "(u,l|r,d)";
    case SiteForm::kRUld: return "(r|u,l,d)";
    case SiteForm::kULdr: return "(u|l,d,r)";
    case SiteForm::kLUdr: return "(l|u,d,r)";
    case SiteForm::kLUrd: return "(l|u,r,d)";
    case SiteForm::kUrLd: break;
  }
  return "(u,r|l,d)";
}

template <class T>
std::vector<T> site_in_form(const Tensor<T>& site, SiteForm f, const std::string& what,
                            std::size_t site_index, TransferLog& log) {
  const auto p = form_permutation(f);
  const std::vector<std::size_t> perm(p.begin(), p.end());
  const std::string dt(dtype_name(dtype_of<T>));
  TransferRecord rec{.what = what, .site = static_cast<std::int64_t>(site_index),
                     .source = "host", .target = "host", .dtype_from = dt, .dtype_to = dt};
  if (permutation_is_reshape(site.shape, perm)) {
    rec.mechanism = mechanism::kStaysInPlace;
    log.add(rec);
    return site.data;
  }
  const auto t0 = std::chrono::steady_clock::now();
  Tensor<T> out = permute(site, perm);
  rec.mechanism = mechanism::kHostCopy;
  rec.declined = std::string(mechanism::kStaysInPlace) + ": GEMM needs " + form_name(f) +
                 " order, stored (l,r,u,d)";
  rec.bytes = static_cast<std::int64_t>(out.bytes());
  rec.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  log.add(rec);
  return std::move(out.data);
}

#define SRCC_INSTANTIATE(T)                                                                  \
  template std::vector<T> site_in_form(const Tensor<T>&, SiteForm, const std::string&,       \
                                       std::size_t, TransferLog&);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
