#pragma once
// A quantity an evolution measures on its state after a step (evolve --measure, --overlap): it
// names its columns of the trajectory, its entry in the fingerprint a resumed run must share and
// its part of the step's line, and measures a state. A new one is a unit of its own
// (observable_*.cpp) and one row of make_observables (observables.cpp).
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "srcc/backend/backend.hpp"
#include "srcc/core/tensor.hpp"
#include "srcc/session/evolve_record.hpp"
#include "srcc/symmetric/block_tensor.hpp"
#include "srcc/train/sectors.hpp"

namespace srcc {

// The state a step computed on charges, in its blocks: its cores (B form, core 0 carrying the
// norm), labelled kCoreL … kCoreD, the charges of its physical legs (with their rule), and the
// same cores made dense, made on the first call (an observable without a charged form).
template <class T> struct ChargedState {
  const std::vector<BlockTensor<T>>& cores;
  const PhysicalCharges& charges;
  const std::function<const std::vector<Tensor<T>>&()>& dense;
};

template <class T> class Observable {
 public:
  virtual ~Observable() = default;
  // Its columns of /trajectory, in order (their names are the file's contract: docs/FORMAT.md).
  virtual std::vector<TrajectoryColumn> columns() const = 0;
  // Its "key=value" entry of the fingerprint: what it measures, by content.
  virtual std::pair<std::string, std::string> fingerprint() const = 0;
  // The columns' values for the state e^{scale}·cores (cores 1 … n−1 right-orthonormal, core 0
  // carrying the norm), contracted exactly on `K`.
  virtual std::vector<double> measure(const std::vector<Tensor<T>>& cores, double scale, Kernels<T>& K) = 0;
  // The same where the step computed on charges (the state e^{scale}·state.cores): an observable
  // that can measures the state in its blocks (about the sectors' share of the work); by
  // default the dense cores.
  virtual std::vector<double> measure_charged(const ChargedState<T>& state, double scale, Kernels<T>& K) {
    return measure(state.dense(), scale, K);
  }
  // What the step's line shows of those values ("  H 0.25").
  virtual std::string shown(const std::vector<double>& values) const = 0;
  double flops() const { return flops_; }  // real flops of its GEMMs so far

 protected:
  double flops_ = 0;
};

}  // namespace srcc
