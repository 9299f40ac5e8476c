#pragma once
// ⟨bra| O_1 ⋯ O_k |ket⟩ of an MPS bra and ket and k MPOs (k = 0: the overlap; 1: a matrix
// element; 2: a second moment without forming O² — each O enters as its own layer), contracted
// exactly, site by site from the left through the environment E[a, …, b] (a: bond of the bra,
// b of the ket, and one bond w_i of each O_i between them, in an order that changes from site to
// site and is tracked). Three GEMMs per site and operator layer on the backend, the axes brought
// next to each other by swap_axes in between: no host copies, so that on a GPU the environment
// stays on the device. The environment is kept at unit norm, its scale aside (trains of norm
// 1e-800 are fine). Cores in (l, r, u, d) order; O_1 is the top layer (next to the bra), O_k
// acts on the ket first.
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
  double flops() const { return flops_; }  // real flops of the GEMMs so far (a complex multiply-add is 8)

 private:
  // A tensor on the backend with the name and size of each axis.
  struct Labeled {
    Buffer<T> data;
    std::vector<long> names;  // kBra, kKet, or i for the bond of O_i
    std::vector<std::size_t> sizes;
    std::size_t size() const;
  };
  static constexpr long kBra = -1, kKet = -2, kPhys = -3;

  // Moves axis `from` to position `to` (< from) or, for to > from, to just before `to`.
  Labeled moved(Labeled t, std::size_t from, std::size_t to);
  Buffer<T> upload(const Tensor<T>& t, const std::vector<std::size_t>& order);
  void gemm(Op op_a, std::size_t m, std::size_t n, std::size_t k, const T* a, const T* b, T* c);

  Kernels<T>& K_;
  std::size_t layers_;
  Labeled e_;
  double log_scale_ = 0;
  double flops_ = 0;
};

}  // namespace srcc
