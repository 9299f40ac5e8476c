#pragma once
// compare.hpp's figures for two trains that carry the same physical charges, computed in their
// charge blocks: the inner products through a block-sparse transfer matrix, and ‖a − b‖ from the
// difference train (bonds a ⊕ b, sector by sector) brought to canonical form from the right by a
// QR per sector, so that its norm is accurate to rounding relative to ‖a‖ + ‖b‖, as the dense
// path's is. Each site pair is taken at one power-of-two scale (the difference is then exactly
// a scalar times a − b), and every running tensor is kept at unit norm with its scale apart.
#include <vector>

#include "srcc/measure/overlap.hpp"
#include "srcc/symmetric/block_tensor.hpp"

namespace srcc {

struct ChargedComparison {
  Scaled aa, bb, ab;     // ⟨a|a⟩, ⟨b|b⟩, ⟨a|b⟩
  double log_distance;   // log ‖a − b‖ (−∞ when a = b)
};

// Both trains' cores (l, r, u, d) as block tensors of one charge rule, with equal physical legs;
// bonds as each train's own (a left boundary of charge 0).
template <class T>
ChargedComparison charged_comparison(Kernels<T>& K, const std::vector<BlockTensor<T>>& a,
                                     const std::vector<BlockTensor<T>>& b, const ChargeRule& rule);

// log ‖a‖ for cores as above (any form, sites of any size); −∞ for a zero train.
template <class T> double charged_log_norm(Kernels<T>& K, const std::vector<BlockTensor<T>>& a);

}  // namespace srcc
