#pragma once
// The memory model of the sweep's steps: for each site, the elements its left and right steps
// hold at once besides the environments' tiers — what make_plan sizes batches and peaks with,
// and what the sweep's left step sizes its per-thread pieces with. tests/plan/step_memory_test
// checks it against the buffers a sweep really holds.
#include <cstddef>
#include <vector>

#include "srcc/train/train.hpp"

namespace srcc {

// Elements per sketch column alive at once in the left step at site j (sweep/left_step.cpp): a
// single train's Khatri–Rao block; for a stack, V_a beside the two largest consecutive stages
// of E_a (the down leg's move counts as a stage).
std::size_t left_step_column_elements(const Stack& stack, std::size_t j);

// Sizes (in elements) at site j that do not depend on the tiers.
struct StepShape {
  std::size_t sites = 0;     // all layers' sites at j
  std::size_t env = 0;       // C_j
  std::size_t left_col = 0;  // per sketch column: the two largest consecutive stages of the left step
  std::size_t env_next = 0;  // C_{j+1}
  std::size_t right = 0;     // the right step apart from C_j
  std::size_t env_row = 0;   // one row of C_j (fused left bond)
  std::size_t dense_left = 0;   // the dense left step (sdc, sdcr, fit sweeps) apart from C_j, C_{j+1}
  std::size_t dense_svd = 0;    // … and sdc's SVD of M_j
  std::size_t dense_range = 0;  // … or sdcr's range of it (a fit's projection is within this)
};

// Site j with `s` sketch columns and output bond `bond` to its right.
StepShape step_shape(const Stack& stack, std::size_t j, std::size_t s, std::size_t bond);
// Every site's, with the largest output bonds `s` allows.
std::vector<StepShape> step_shapes(const Stack& stack, std::size_t s);

}  // namespace srcc
