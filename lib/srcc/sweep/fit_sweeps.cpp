// The fit sweeps (--fit-sweeps, --fit-tol): one-site variational sweeps run as the right sweep
// over the result's own left environments (docs/ALGORITHM.md, "Fit sweeps").
#include <cmath>
#include <limits>

#include "srcc/movement/site_forms.hpp"
#include "srcc/sweep/dense_left_step.hpp"
#include "srcc/sweep/sweeper.hpp"
#include "srcc/sweep/truncation_sweep.hpp"

namespace srcc::detail {

template <class T>
double Sweeper<T>::fit(SweepResult<T>& out) {
  const double start_norm = frobenius_norm(out.cores.front());
  const bool projection = out.estimated && !opt_.final_truncation();
  out.finish_sites();
  double error2 = projection ? std::pow(out.error_estimate * start_norm, 2) : 0.0;
  double prev2 = start_norm * start_norm;
  // The error left after a sweep, relative to ‖φ‖: what the start's estimate less the gains
  // leaves (NaN without an estimate to start from, or where the gains used it up).
  auto left = [&](double norm) {
    return projection && error2 > 0 && norm > 0 ? std::sqrt(error2) / norm : std::numeric_limits<double>::quiet_NaN();
  };
  for (std::size_t k = 0; k < opt_.fit_sweep_cap(); ++k) {
    check_interrupt_();
    const auto t0 = Clock::now();
    std::vector<Tensor<T>> phi = out.cores;
    left_canonicalize(phi, mover(), gemm());
    // Every term's environments against the same φ: F_j of the sum is the terms' added up.
    use_dense(dense_sweep([this, &phi](std::size_t j, std::vector<Buffer<T>>& m, std::size_t rows,
                                       const std::vector<std::size_t>& cols) {
      Buffer<T> p = adopt(site_in_form(phi[j], SiteForm::kLUdr, "fit core", j, log_), "fit core", j);
      std::vector<Reduced<T>> next;
      for (std::size_t k = 0; k < m.size(); ++k) next.push_back(reduce_by_core(ctx(), m[k], rows, cols[k], p, phi[j].shape[kLegR]));
      return next;
    }));
    right_sweep(out, {0, 0.0, false});
    const double norm = frobenius_norm(out.cores.front()), now2 = norm * norm;
    const double gain2 = now2 - prev2;
    error2 -= gain2;
    out.fit.push_back({norm, norm > 0 ? std::sqrt(std::abs(gain2)) / norm : 0.0, left(norm), since(t0)});
    reporter_.progress("fit sweep", k + 1, opt_.fit_sweep_cap());
    prev2 = now2;
    if (opt_.fit_tol > 0 && out.fit.back().gain <= opt_.fit_tol) break;
  }
  out.estimated = false;  // the per-cut figures of the last sweep are not error estimates
  return left(std::sqrt(prev2));
}

#define SRCC_INSTANTIATE(T) template double Sweeper<T>::fit(SweepResult<T>&);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc::detail
