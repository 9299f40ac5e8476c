// The fit sweeps (--fit-sweeps, --fit-tol): one-site variational sweeps run as the right sweep
// over the result's own left environments (docs/ALGORITHM.md, "Fit sweeps").
#include <limits>

#include "srcc/movement/site_forms.hpp"
#include "srcc/sweep/dense_left_step.hpp"
#include "srcc/sweep/fit_ledger.hpp"
#include "srcc/sweep/sweeper.hpp"
#include "srcc/sweep/truncation_sweep.hpp"

namespace srcc::detail {

template <class T>
double Sweeper<T>::fit(SweepResult<T>& out) {
  const double start_norm = frobenius_norm(out.cores.front());
  out.finish_sites();
  FitLedger ledger(start_norm, out.estimated && !opt_.final_truncation() ? out.error_estimate
                                                                         : std::numeric_limits<double>::quiet_NaN());
  for (std::size_t k = 0; k < opt_.fit_sweep_cap(); ++k) {
    check_interrupt_();
    const auto t0 = Clock::now();
    std::vector<Tensor<T>> phi = out.cores;
    left_canonicalize(phi, mover(), gemm());
    // Every term's environments against the same φ: F_j of the sum is the terms' added up.
    use_dense(dense_sweep([this, &phi](std::size_t j, std::vector<Buffer<T>>& m, std::size_t rows,
                                       const std::vector<std::size_t>& cols, const std::vector<double>&) {
      Buffer<T> p = adopt(site_in_form(phi[j], SiteForm::kLUdr, "fit core", j, log_), "fit core", j);
      std::vector<Reduced<T>> next;
      for (std::size_t k = 0; k < m.size(); ++k) next.push_back(reduce_by_core(ctx(), m[k], rows, cols[k], p, phi[j].shape[kLegR]));
      return next;
    }));
    right_sweep(out, {0, 0.0, false});
    const bool done = ledger.record(out, frobenius_norm(out.cores.front()), since(t0), opt_.fit_tol);
    reporter_.progress("fit sweep", k + 1, opt_.fit_sweep_cap());
    if (done) break;
  }
  out.estimated = false;  // the per-cut figures of the last sweep are not error estimates
  return ledger.left();
}

#define SRCC_INSTANTIATE(T) template double Sweeper<T>::fit(SweepResult<T>&);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc::detail
