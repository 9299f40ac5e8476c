#pragma once
// Options of the SRC sweep: the accuracy controls (ALGORITHM.md). Units, defaults and valid
// ranges are documented here and nowhere else; the CLI's --help repeats them.
#include <cstddef>
#include <cstdint>

namespace srcc {

struct SweepOptions {
  std::size_t chi = 0;       // max output bond χ̄ (= sketch columns s); required, >= 1
  double cutoff = 0.0;       // relative singular-value cutoff in [0, 1); keep σ >= cutoff·σ_max
  std::uint64_t seed = 0;    // seed of the Gaussian test tensors; same seed → same result
};

// Throws UsageError naming the flag when an option is out of range.
void validate(const SweepOptions& o);

}  // namespace srcc
