#pragma once
// A sum of products Σ_k c_k A_k ψ_k, each term a stack (train.hpp). The terms are added as
// trains: their products must have the same sites and the same physical legs at each site,
// while their bonds may differ (the sum's bond is at most the sum of the terms' bonds).
#include <cstddef>
#include <vector>

#include "srcc/train/train.hpp"

namespace srcc {

// Throws InputError naming the term, its state's file and the site where two terms' products
// differ in length, kind (MPS or MPO) or a physical leg.
void validate_terms(const std::vector<const Stack*>& terms);

// Stack::bond_bounds for the sum: at each cut the smaller of the terms' fused bonds added up
// and the physical dimension on either side (saturating).
std::vector<std::size_t> sum_bond_bounds(const std::vector<const Stack*>& terms);
std::size_t sum_largest_bond(const std::vector<const Stack*>& terms);

}  // namespace srcc
