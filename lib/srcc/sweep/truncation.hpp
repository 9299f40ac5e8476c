#pragma once
// How many singular values to keep at a cut.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

namespace srcc {

// σ descending. Keeps the fewest values allowed by every given rule, and at least one:
//   cap     at most `cap` values (0 = no cap);
//   cutoff  drop σ_i < cutoff · σ_0;
//   tol     drop the longest tail with sqrt(Σ_tail σ²) <= tol · sqrt(Σ σ²).
template <class R>
std::size_t truncation_rank(const std::vector<R>& sigma, double cutoff, double tol,
                            std::size_t cap) {
  std::size_t rank = sigma.size();
  if (cap > 0 && cap < rank) rank = cap;
  if (cutoff > 0 && !sigma.empty()) {
    const double threshold = cutoff * static_cast<double>(sigma.front());
    std::size_t keep = 0;
    while (keep < sigma.size() && static_cast<double>(sigma[keep]) >= threshold) ++keep;
    if (keep < rank) rank = keep;
  }
  if (tol > 0) {
    double total = 0;
    for (R s : sigma) total += static_cast<double>(s) * static_cast<double>(s);
    const double allowed = tol * tol * total;
    double tail = 0;
    std::size_t keep = sigma.size();
    while (keep > 1) {
      const double s = static_cast<double>(sigma[keep - 1]);
      if (tail + s * s > allowed) break;
      tail += s * s;
      --keep;
    }
    if (keep < rank) rank = keep;
  }
  return rank == 0 ? 1 : rank;
}

// The relative size (to σ_max) at or below which a singular value is rounding noise in the
// element type R: 64·ε in double precision (1.4e-14), 4·ε in single (4.8e-7). A direction the
// sketch picked up from rounding carries far less in double (H² of the Ising chain: 1e-31),
// where real content of a product is rarely near it; in single precision real content lies
// close above the rounding, so the rule is tight there (8·ε lost 3e-5 of a product that the
// sweep otherwise keeps to 1e-5). max(m, n)·ε, NumPy's rank rule, would take even more.
template <class R> constexpr double numerical_zero() {
  return (sizeof(R) == 4 ? 4.0 : 64.0) * static_cast<double>(std::numeric_limits<R>::epsilon());
}

// The cutoff a cut uses: --cutoff, raised to the rounding level when numerically zero
// directions are dropped (the default; an explicit --cutoff 0 keeps them).
template <class R> double effective_cutoff(double cutoff, bool numerical_zeros) {
  return numerical_zeros ? std::max(cutoff, numerical_zero<R>()) : cutoff;
}

// sqrt(Σ_{i >= rank} σ_i²): the Frobenius error of keeping `rank` values.
template <class R> double discarded_norm(const std::vector<R>& sigma, std::size_t rank) {
  double tail = 0;
  for (std::size_t i = rank; i < sigma.size(); ++i)
    tail += static_cast<double>(sigma[i]) * static_cast<double>(sigma[i]);
  return std::sqrt(tail);
}

}  // namespace srcc
