#include "srcc/symmetric/env_parking.hpp"

#include <utility>

namespace srcc {

template <class T>
EnvParking<T>::EnvParking(Kernels<T>& K, std::string device, TransferLog& log, const Plan& plan)
    : plan_(plan),
      mover_(K, &log, std::move(device)),
      store_(mover_, log, [&plan](std::size_t j) { return plan.tier(j); }, plan.budgets.scratch_dir) {}

template <class T> bool EnvParking<T>::needed(const Plan& plan) { return plan.memory_from > 1; }

template <class T> void EnvParking<T>::park(BlockTensor<T>& c, std::size_t j) {
  if (plan_.tier(j) == Tier::kMemory || !c.data.data()) return;
  const std::size_t n = c.data.size();
  store_.put(0, j, std::move(c.data), 1, n);
  c.data = Buffer<T>();
  parked_.insert(j);
}

template <class T> void EnvParking<T>::fetch(BlockTensor<T>& c, std::size_t j) {
  if (parked_.erase(j) == 0) return;
  c.data = store_.take(0, j);
}

#define SRCC_INSTANTIATE(T) template class EnvParking<T>;
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
