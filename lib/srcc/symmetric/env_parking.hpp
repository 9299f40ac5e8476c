#pragma once
// Where the charged sweep's left environments wait between its two sweeps. They are as large as
// the dense sweep's (dense in the sketch column), so the dense run's plan says which cuts wait
// on scratch disk under --host-memory (plan/plan.hpp, Plan::tier): there an environment's
// numbers go to the run's private scratch directory (movement/env_store.hpp, each move a row of
// /log/transfers) while its legs and block table stay in memory, and they come back bit for bit
// when the right sweep reaches the cut.
#include <cstddef>
#include <set>
#include <string>

#include "srcc/movement/env_store.hpp"
#include "srcc/movement/mover.hpp"
#include "srcc/plan/plan.hpp"
#include "srcc/symmetric/block_tensor.hpp"

namespace srcc {

template <class T> class EnvParking {
 public:
  // `device` names the backend in the log (Backend::name).
  EnvParking(Kernels<T>& K, std::string device, TransferLog& log, const Plan& plan);
  // Whether `plan` puts any environment out of memory (else there is nothing to park).
  static bool needed(const Plan& plan);

  // C_j, which the left sweep is done with: to scratch where the plan says (its data let go).
  void park(BlockTensor<T>& c, std::size_t j);
  // C_j whole again, before the right sweep uses it (nothing to do when it stayed in memory).
  void fetch(BlockTensor<T>& c, std::size_t j);

 private:
  const Plan& plan_;
  Mover<T> mover_;
  EnvStore<T> store_;
  std::set<std::size_t> parked_;
};

}  // namespace srcc
