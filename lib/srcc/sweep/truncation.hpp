#pragma once
// How many singular values to keep at a cut.
#include <cmath>
#include <cstddef>
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

// sqrt(Σ_{i >= rank} σ_i²): the Frobenius error of keeping `rank` values.
template <class R> double discarded_norm(const std::vector<R>& sigma, std::size_t rank) {
  double tail = 0;
  for (std::size_t i = rank; i < sigma.size(); ++i)
    tail += static_cast<double>(sigma[i]) * static_cast<double>(sigma[i]);
  return std::sqrt(tail);
}

}  // namespace srcc
