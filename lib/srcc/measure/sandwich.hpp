#pragma once
// ⟨bra| O_1 ⋯ O_k |ket⟩ of an MPS bra and ket and k MPOs (k = 0: the overlap; 1: a matrix
// element; 2: a second moment without forming O² — each O enters as its own layer), contracted
// exactly, site by site from the left through the environment E[a, w_1 … w_k, b] (a: bond of the
// bra, w_i of O_i, b of the ket) with GEMMs. The environment is kept at unit norm, its scale
// aside (trains of norm 1e-800 are fine). Cores in (l, r, u, d) order; O_1 is the top layer
// (next to the bra), O_k acts on the ket first.
#include <vector>

#include "srcc/backend/backend.hpp"
#include "srcc/core/tensor.hpp"
#include "srcc/measure/overlap.hpp"

namespace srcc {

template <class T> class Sandwich {
 public:
  Sandwich(Kernels<T>& kernels, std::size_t layers);
  // Site j of the bra, of each operator (top first) and of the ket, in order j = 0, 1, …
  void add(const Tensor<T>& bra, const std::vector<const Tensor<T>*>& ops, const Tensor<T>& ket);
  Scaled value() const;  // after the last site

 private:
  std::vector<T> product(Op op_a, std::size_t m, std::size_t n, std::size_t k,
                         std::vector<T> a, std::vector<T> b) const;

  Kernels<T>& K_;
  std::size_t layers_;
  Tensor<T> e_;  // (a, w_1, …, w_k, b)
  double log_scale_ = 0;
};

}  // namespace srcc
