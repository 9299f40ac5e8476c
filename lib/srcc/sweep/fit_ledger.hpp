#pragma once
// The figures of the fit sweeps (--fit-sweeps, --fit-tol), whatever sweeps them: each sweep's
// norm and gain, and the error left. A one-site fit sweep projects the product on the result's
// own bonds, so ‖φ_k‖² grows by what it recovers: where the method's estimate was that of a
// projection (src without a final truncation), error² ≈ ‖Aψ − φ_0‖² less the gains.
#include <cmath>
#include <limits>

#include "srcc/sweep/sweep_data.hpp"

namespace srcc {

class FitLedger {
 public:
  // ‖φ_0‖ and the method's relative error estimate when it is a projection's (NaN otherwise).
  FitLedger(double start_norm, double start_error)
      : projection_(std::isfinite(start_error)),
        error2_(projection_ ? std::pow(start_error * start_norm, 2) : 0.0),
        prev2_(start_norm * start_norm) {}

  // Records a sweep that left φ at `norm` in `seconds`; true when its gain is within `fit_tol`
  // (> 0) and the sweeps should stop.
  template <class T> bool record(SweepResult<T>& out, double norm, double seconds, double fit_tol) {
    const double now2 = norm * norm, gain2 = now2 - prev2_;
    error2_ -= gain2;
    out.fit.push_back({norm, norm > 0 ? std::sqrt(std::abs(gain2)) / norm : 0.0, left(norm), seconds});
    prev2_ = now2;
    return fit_tol > 0 && out.fit.back().gain <= fit_tol;
  }

  // The relative error left after the last sweep (NaN without an estimate to start from, or
  // where the gains used it up).
  double left() const { return left(std::sqrt(prev2_)); }

 private:
  double left(double norm) const {
    return projection_ && error2_ > 0 && norm > 0 ? std::sqrt(error2_) / norm : std::numeric_limits<double>::quiet_NaN();
  }
  bool projection_;
  double error2_, prev2_;
};

}  // namespace srcc
