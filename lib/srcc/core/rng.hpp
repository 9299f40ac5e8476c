#pragma once
// The seeded generator behind every random draw (sketches and generated inputs). Built from
// std::mt19937_64 plus our own uniform and Box–Muller transforms, because the standard
// distributions are implementation-defined: the same seed must give the same numbers with any
// compiler, backend and thread count.
#include <cstdint>
#include <random>

namespace srcc {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}
  double uniform();                          // in [0, 1), 53 random bits
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  double normal();                           // standard normal

  // A fresh seed from the operating system's entropy source (for runs without --seed).
  static std::uint64_t random_seed();
  // The seed of task `task` of a batch started from `base` (a splitmix64 step): tasks differ,
  // and a rerun of the same task repeats.
  static std::uint64_t derive_seed(std::uint64_t base, std::uint64_t task);

 private:
  std::mt19937_64 engine_;
  bool has_spare_ = false;
  double spare_ = 0.0;
};

}  // namespace srcc
