#pragma once
// sandwich.hpp's ⟨bra| O_1 ⋯ O_k |ket⟩ for trains that carry charges, in their blocks: the
// environment E[a, w_1 … w_k, b] is block-sparse (one sector per bond), each site taken in by one
// contraction per layer, kept at unit norm with its scale apart. An operator that changes the
// charge (a right boundary of non-zero charge) gives 0 exactly, as it should.
#include <vector>

#include "srcc/measure/overlap.hpp"
#include "srcc/symmetric/block_tensor.hpp"

namespace srcc {

template <class T> class ChargedSandwich {
 public:
  ChargedSandwich(Kernels<T>& kernels, std::size_t layers) : K_(kernels), layers_(layers) {}
  // Site j of the bra, of each operator (top first) and of the ket, cores (l, r, u, d) of one
  // charge rule, j = 0, 1, … in order.
  void add(const BlockTensor<T>& bra, const std::vector<const BlockTensor<T>*>& ops, const BlockTensor<T>& ket);
  Scaled value() const;  // after the last site

 private:
  Kernels<T>& K_;
  std::size_t layers_;
  BlockTensor<T> e_;
  bool started_ = false, zero_ = false;
  double log_scale_ = 0;
};

}  // namespace srcc
