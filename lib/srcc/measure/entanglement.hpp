#pragma once
// The entanglement of a state at every bond: its Schmidt values (by charge sector when it is
// computed on charges) and the entropies of their squares, the reduced density matrix's
// eigenvalues p_i = σ_i² / Σ σ². Natural logarithms, as TeNPy and ITensor report them.
#include <cstddef>
#include <optional>
#include <vector>

#include "srcc/symmetric/charged_truncation.hpp"

namespace srcc {

struct BondEntanglement {
  std::size_t bond = 0;           // the cut between sites bond − 1 and bond, 1 … n − 1
  double von_neumann = 0;         // −Σ p ln p
  std::optional<double> renyi;    // ln(Σ p^α) / (1 − α), when asked for
  std::vector<SectorValues> sectors;  // the Schmidt values, Σ σ² = 1, descending in each sector
                                      // (one sector with no charge for a dense state)
  std::size_t rank() const;       // the values that are not zero
};

// From each cut's Schmidt values (cuts 1 … n−1 in order), with the Rényi index α (> 0, ≠ 1).
std::vector<BondEntanglement> entanglement_of(const std::vector<std::vector<SectorValues>>& spectra,
                                              std::optional<double> renyi_alpha);

}  // namespace srcc
