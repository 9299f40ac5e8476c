#pragma once
// Options of the SRC sweep: the accuracy controls (docs/ALGORITHM.md). Units, defaults and valid
// ranges of the fields are here; the flags that set them are described in core/options.hpp.
#include <cstddef>
#include <cstdint>
#include <string>

#include "srcc/plan/methods.hpp"

namespace srcc {

// The largest --chi (and sketch block) accepted: BLAS indexes with 32-bit integers, and a sketch
// that wide would not fit in memory anyway.
inline constexpr std::size_t kMaxChi = std::size_t{1} << 30;
inline constexpr double kMaxOversample = 1000;  // --oversample factors above this are refused
// Tolerance mode sketches each cut to this fraction of --tol, leaving the rest to the
// truncation sweep: the cut's error is then at most about √(1 + 1/9)·tol ≈ 1.054·tol. A third
// rather than a tenth: the sketch a cut needs for tol/10 is a few blocks wider (416 columns
// against 368 for a bond of 255), and every column is swept to the cut and kept through the
// right sweep; on the same bonds, runs were 1.1–1.25× faster and their errors up to 1.2% larger
// (docs/PERFORMANCE.md, "Tolerance mode").
inline constexpr double kSketchTolFraction = 1.0 / 3.0;

// The fit sweeps' cap when only --fit-tol is given.
inline constexpr std::size_t kDefaultFitSweeps = 20;

struct SweepOptions {
  // Max output bond χ̄. Fixed mode (tol = 0): required, >= 1, and the sketch has s = χ̄
  // columns. Tolerance mode: optional cap (0 = none).
  std::size_t chi = 0;
  // Relative singular-value cutoff in [0, 1): keep σ >= cutoff·σ_max at every cut.
  double cutoff = 0.0;
  // Also drop the directions whose singular values are rounding noise, σ <= 64ε·σ_max (4ε in
  // single precision; sweep/truncation.hpp): a rank-deficient product gets its numerical rank, not χ̄. At full
  // rank nothing changes and nothing is computed (the sketch's QR shows it). An explicit
  // --cutoff 0 turns it off.
  bool numerical_zeros = true;
  // Oversampling factor (paper §3.4): 0 = off, else >= 1. Sketch with
  // s = max(⌈oversample·χ̄⌉, χ̄ + 10) columns, then one SVD truncation sweep down to χ̄.
  double oversample = 0.0;
  // Tolerance mode (paper Appendix C) when > 0: per-bond relative Frobenius tolerance in
  // (0, 1). Each cut's sketch grows in blocks until the leave-one-out error estimate is
  // <= kSketchTolFraction·tol·(norm estimate), or the sketch reaches its cap (exact, or --chi);
  // then the truncation sweep truncates every cut at tol, so that the bonds are the smallest
  // that meet it for the train the sketch found (not multiples of the block).
  double tol = 0.0;
  std::size_t block_start = 16;  // tolerance mode: first sketch block, columns >= 1
  std::size_t block_step = 16;   // tolerance mode: columns added per round, >= 1
  std::uint64_t seed = 0;        // seed of the Gaussian test tensors; same seed → same result
  Method method = Method::kSrc;  // plan/methods.hpp; the deterministic ones ignore the seed
  // One-site variational sweeps after the method (0 = none), at most this many; with fit_tol
  // > 0 they stop once a sweep's gain √(‖φ_k‖² − ‖φ_{k−1}‖²) is <= fit_tol·‖φ_k‖.
  std::size_t fit_sweeps = 0;
  double fit_tol = 0.0;  // in (0, 1) when set; 0 = run all fit_sweeps

  bool tolerance_mode() const { return tol > 0.0; }
  bool oversampling() const { return oversample > 0.0; }
  // sdc, sdcr: the left step keeps M_j whole and reduces it; no leave-one-out estimate.
  bool dense_left() const { return method_row(method).dense_left; }
  // The fit sweeps to run at most (--fit-tol alone caps them at kDefaultFitSweeps).
  std::size_t fit_sweep_cap() const { return fit_sweeps > 0 ? fit_sweeps : (fit_tol > 0 ? kDefaultFitSweeps : 0); }
  // Whether an SVD truncation sweep follows the SRC sweep (oversampling, tolerance mode): the
  // SRC sweep then keeps its whole sketch and the truncation applies χ̄, cutoff and tol.
  bool final_truncation() const { return oversampling() || tolerance_mode(); }
  // Columns of a fixed-mode sketch (s); in tolerance mode the cap of a cut's sketch from
  // --chi (0 = no cap).
  std::size_t sketch_columns() const;
};

// Throws UsageError naming the flag when an option is out of range. A fixed-size sketch needs
// --chi (or --tol); a method whose row does not require it (truncate's svd) takes --cutoff alone.
void validate(const SweepOptions& o);

// The --oversample factor given as text ("" = off, 0): a real in [1, kMaxOversample], else a
// UsageError. The range is checked here and by validate() alike.
double parse_oversample(const std::string& text);

}  // namespace srcc
