#pragma once
// The Gaussian test tensors Ω_j of shape (s, u_j, d_j), drawn on the host from one seeded
// generator in site order, so that a seed gives the same draws on every backend.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "srcc/core/dtype.hpp"
#include "srcc/core/rng.hpp"

namespace srcc {

// sdcr's Gaussian tests, apart from the sketch blocks' streams (Rng::derive_seed(seed, b)): each
// cut's from its own stream of Rng::derive_seed(seed, kRangeStreams),
// in the dense sweep and on charges alike.
inline constexpr std::uint64_t kRangeStreams = 0x5dc5;

// The seed of sketch block `block`: block 0 uses the run's seed itself, so that a fixed-size
// sketch draws Ω_0, Ω_1, … straight from it; later blocks (tolerance mode) get their own streams.
inline std::uint64_t sketch_block_seed(std::uint64_t seed, std::size_t block) {
  return block == 0 ? seed : Rng::derive_seed(seed, block);
}

// Entries N(0, 1) for real types, (x + iy)/√2 with x, y ~ N(0, 1) for complex types.
template <class T> std::vector<T> draw_gaussian(Rng& rng, std::size_t count) {
  std::vector<T> out(count);
  for (auto& v : out) {
    if constexpr (is_complex_v<T>) {
      const double re = rng.normal(), im = rng.normal();
      constexpr double kHalf = 0.70710678118654752440;
      v = T(static_cast<real_t<T>>(re * kHalf), static_cast<real_t<T>>(im * kHalf));
    } else {
      v = static_cast<T>(rng.normal());
    }
  }
  return out;
}

}  // namespace srcc
