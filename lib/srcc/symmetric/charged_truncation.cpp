#include "srcc/symmetric/charged_truncation.hpp"

#include "srcc/core/interrupt.hpp"
#include "srcc/sweep/truncation.hpp"
#include "srcc/symmetric/block_ops.hpp"
#include "srcc/symmetric/charged_stack.hpp"
#include "srcc/symmetric/sector_svd.hpp"

namespace srcc {

namespace {

// Left to right: each core but the last factorised by sectors over (l, u, d) as `how` says, keeping
// what choose_ranks(chi, cut, tol) keeps; its left factor becomes the core (left-orthonormal), the
// rest goes into the next core. The relative norm dropped at cut j lands in truncated[j] (when given).
template <class T>
void left_to_right(Kernels<T>& K, std::vector<BlockTensor<T>>& cores, const ChargeRule& rule, Factorization how,
                   std::size_t chi, double cut, double tol, std::vector<double>* truncated,
                   std::vector<std::vector<SectorValues>>* spectra = nullptr) {
  using namespace axis;
  const std::vector<int> core{kCoreL, kCoreR, kCoreU, kCoreD};
  for (std::size_t j = 0; j + 1 < cores.size(); ++j) {
    poll_interrupt();  // a stop (SIGTERM, --max-time) between sites, as the dense truncation
    SectorSvd<T> svd = sector_svd(K, cores[j], {kCoreL, kCoreU, kCoreD}, {+1, +1, -1}, rule, how);
    double total = 0;
    const double dropped = choose_ranks(svd, chi, cut, tol, total);
    if (spectra) {
      spectra->emplace_back();
      for (const auto& g : svd.groups) spectra->back().push_back({g.charge, std::vector<double>(g.sigma.begin(), g.sigma.end())});
    }
    if (truncated) (*truncated)[j + 1] = total > 0 ? dropped / total : 0.0;
    const auto charges = group_charges(svd, rule);
    cores[j] = relabelled(permute_to(K, left_factor(K, svd, kNew, charges), {kCoreL, kNew, kCoreU, kCoreD}), core);
    BlockTensor<T> sv = relabelled(right_factor(K, svd, kNew, charges), {kNew, kCoreL});
    cores[j + 1] = relabelled(contract(K, sv, cores[j + 1], {kCoreL}), core);
  }
}

// Right to left, cores 1 … n−1 made right-orthonormal, the norm carried into core 0: by QRs,
// keeping everything, or (`how` kSvd) by an SVD per sector of each left bond, keeping the values
// above `cutoff`·σ_max of the cut, whose kept values then land in `spectra[j]` (by the bond's
// charge as the cores to its left carry it) and whose dropped norm² in `dropped2`.
template <class T>
void to_b_form(Kernels<T>& K, std::vector<BlockTensor<T>>& cores, const ChargeRule& rule,
               Factorization how = Factorization::kQr, double cutoff = 0.0,
               std::vector<std::vector<SectorValues>>* spectra = nullptr, double* dropped2 = nullptr) {
  using namespace axis;
  const std::vector<int> core{kCoreL, kCoreR, kCoreU, kCoreD};
  if (spectra) spectra->assign(cores.size(), {});
  for (std::size_t j = cores.size(); j-- > 1;) {
    poll_interrupt();
    SectorSvd<T> svd = sector_svd(K, cores[j], {kCoreR, kCoreU, kCoreD}, {-1, +1, -1}, rule, how);
    double total = 0;
    const double dropped = choose_ranks(svd, 0, cutoff, 0.0, total);
    if (dropped2) *dropped2 += dropped * dropped;
    const auto charges = group_charges(svd, rule, true);
    if (spectra)
      for (std::size_t g = 0; g < svd.groups.size(); ++g)
        if (svd.groups[g].keep > 0)
          (*spectra)[j].push_back({charges[g], std::vector<double>(svd.groups[g].sigma.begin(),
                                                                   svd.groups[g].sigma.begin() + static_cast<std::ptrdiff_t>(svd.groups[g].keep))});
    BlockTensor<T> u = left_factor(K, svd, kCoreL, charges);
    BlockTensor<T> sv = relabelled(right_factor(K, svd, kNew, charges), {kNew, kCoreR});
    cores[j] = std::move(u);
    cores[j - 1] = relabelled(permute_to(K, contract(K, cores[j - 1], sv, {kCoreR}), {kCoreL, kNew, kCoreU, kCoreD}), core);
  }
}

}  // namespace

template <class T>
std::vector<BlockTensor<T>> symmetric_truncate(Kernels<T>& K, std::vector<BlockTensor<T>> cores, std::size_t chi,
                                               double cutoff, double tol, bool numerical_zeros, std::vector<double>& truncated,
                                               const ChargeRule& rule, bool from_b_form, SchmidtForm* schmidt) {
  truncated.assign(cores.size(), 0.0);
  if (!from_b_form) to_b_form(K, cores, rule);
  left_to_right(K, cores, rule, Factorization::kSvd, chi, effective_cutoff<real_t<T>>(cutoff, numerical_zeros), tol, &truncated);
  if (schmidt) {
    *schmidt = SchmidtForm{};
    to_b_form(K, cores, rule, Factorization::kSvd, kSchmidtRounding, &schmidt->spectra, &schmidt->dropped2);
  } else {
    to_b_form(K, cores, rule);
  }
  return cores;
}

template <class T>
std::vector<std::vector<SectorValues>> schmidt_spectra(Kernels<T>& K, std::vector<BlockTensor<T>> cores,
                                                       const ChargeRule& rule, bool from_b_form) {
  std::vector<std::vector<SectorValues>> out;
  if (!from_b_form) to_b_form(K, cores, rule);
  left_to_right(K, cores, rule, Factorization::kSvd, 0, 0.0, 0.0, nullptr, &out);
  return out;
}

template <class T>
void left_orthonormalize(Kernels<T>& K, std::vector<BlockTensor<T>>& cores, const ChargeRule& rule) {
  left_to_right(K, cores, rule, Factorization::kQr, 0, 0.0, 0.0, nullptr);
}

template <class T>
void right_orthonormalize(Kernels<T>& K, std::vector<BlockTensor<T>>& cores, const ChargeRule& rule) {
  to_b_form(K, cores, rule);
}

template <class T> SchmidtForm schmidt_b_form(Kernels<T>& K, std::vector<BlockTensor<T>>& cores, const ChargeRule& rule) {
  SchmidtForm out;
  left_orthonormalize(K, cores, rule);
  to_b_form(K, cores, rule, Factorization::kSvd, kSchmidtRounding, &out.spectra, &out.dropped2);
  return out;
}

#define SRCC_INSTANTIATE(T)                                                                                    \
  template std::vector<BlockTensor<T>> symmetric_truncate(Kernels<T>&, std::vector<BlockTensor<T>>, std::size_t, \
                                                          double, double, bool, std::vector<double>&,            \
                                                          const ChargeRule&, bool, SchmidtForm*);                 \
  template void left_orthonormalize(Kernels<T>&, std::vector<BlockTensor<T>>&, const ChargeRule&);             \
  template void right_orthonormalize(Kernels<T>&, std::vector<BlockTensor<T>>&, const ChargeRule&);            \
  template SchmidtForm schmidt_b_form(Kernels<T>&, std::vector<BlockTensor<T>>&, const ChargeRule&);            \
  template std::vector<std::vector<SectorValues>> schmidt_spectra(Kernels<T>&, std::vector<BlockTensor<T>>,     \
                                                                  const ChargeRule&, bool);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
