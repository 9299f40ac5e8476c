#pragma once
// The `distance` command: how far apart two trains stored in files are.
#include <string>

#include "srcc/core/dtype.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

// ⟨a|b⟩, the norms and ‖a − b‖ / ‖b‖ of two trains with equal legs.
struct Comparison {
  double norm_a = 0, norm_b = 0;
  cdouble overlap = 0;
  double relative_distance = 0;
  std::string to_json() const;
};

// Reads both trains in full (in the promoted type of the two) and compares them on the CPU.
// Throws InputError when their lengths or physical legs differ.
Comparison compare(const TrainRef& a, const TrainRef& b);

}  // namespace srcc
