#pragma once
// An evolution's state between steps. Read from a file it is dense; an evolution on charges
// splits it into its blocks once and keeps each step's result in its blocks, making it dense
// only where something needs it dense (a checkpoint's write, an observable that has no charged
// form), one copy at a time: a dense copy beside the sweep's environments would add the whole
// dense state to every step's peak.
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "srcc/backend/backend.hpp"
#include "srcc/core/tensor.hpp"
#include "srcc/symmetric/block_tensor.hpp"
#include "srcc/train/sectors.hpp"
#include "srcc/train/site_source.hpp"

namespace srcc {

template <class T> struct EvolutionState {
  std::vector<Tensor<T>> dense;        // the cores, where the state is dense
  std::vector<BlockTensor<T>> blocks;  // else the cores in their blocks (legs l, r, u, d)

  bool in_blocks() const { return !blocks.empty(); }
  std::size_t length() const { return in_blocks() ? blocks.size() : dense.size(); }
  // Site j's dense dimensions (l, r, u, d).
  std::array<std::size_t, kSiteRank> dims(std::size_t j) const;
  // Site j as a charged run takes it: the dense core, or its blocks as boxes (never dense).
  StoredSite<T> stored_site(Kernels<T>& K, std::size_t j) const;
  Tensor<T> dense_site(Kernels<T>& K, std::size_t j) const;
  std::vector<Tensor<T>> dense_cores(Kernels<T>& K) const;
  std::size_t bytes() const;  // what its cores hold
  double core0_norm(Kernels<T>& K) const;  // ‖core 0‖ (the state's norm in B form)
  double log_norm(Kernels<T>& K) const;    // log ‖state‖ in any form, contracted
  // Dense → blocks by the physical charges `pc` (checked; `where` names the train in errors).
  void split(Kernels<T>& K, const PhysicalCharges& pc, const std::string& where);
  void scale_core0(Kernels<T>& K, double alpha);
};

}  // namespace srcc
