#pragma once
// How many singular values to keep at a cut.
#include <cstddef>
#include <vector>

namespace srcc {

// Keeps σ_i >= cutoff · σ_0 (σ descending), at least one and at most `cap`.
template <class R>
std::size_t truncation_rank(const std::vector<R>& sigma, double cutoff, std::size_t cap) {
  std::size_t rank = 0;
  const double threshold = cutoff * (sigma.empty() ? 0.0 : static_cast<double>(sigma.front()));
  while (rank < sigma.size() && rank < cap &&
         (rank == 0 || static_cast<double>(sigma[rank]) >= threshold))
    ++rank;
  return rank == 0 ? 1 : rank;
}

}  // namespace srcc
