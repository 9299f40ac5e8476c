#pragma once
// A --taylor step of evolve: Σ_{m≤K} c_m H^m ψ with c_m = (−i·dt)^m/m! (imaginary time:
// (−dt)^m/m!), compressed as one sum of K+1 products in one sweep. Its stacks, its weights and
// the source that serves term m's sites from the evolution's memory.
#include <complex>
#include <cstddef>
#include <vector>

#include "srcc/core/tensor.hpp"
#include "srcc/plan/plan.hpp"
#include "srcc/session/evolution_state.hpp"
#include "srcc/session/run_options.hpp"
#include "srcc/train/site_source.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

// The stacks of a step of order K from the step's stack (H's MPOs over the state): term m is
// H^m ψ, H's layers m times over the state.
std::vector<Stack> taylor_stacks(const Stack& step, std::size_t order);

// A step's terms for the state in `step`: their stacks, the options fitted to their sum (χ̄
// capped at what the sum can hold) and a plan per term for its share of `budgets`. The plans and
// stacks stay where they are when the struct moves (a sweep's terms point at them).
struct TaylorPlan {
  std::vector<Stack> stacks;
  RunOptions options;
  std::vector<Plan> plans;
};
TaylorPlan plan_taylor_step(const Stack& step, std::size_t order, const RunOptions& ro, DType dtype,
                            const Budgets& budgets);

// c_0 … c_K: c_m = c_{m−1}·(−i dt)/m, or (−dt)/m in imaginary time.
std::vector<std::complex<double>> taylor_weights(std::size_t order, double dt, bool imaginary_time);

// Term m of a --taylor step, H^m ψ (a product step: m = 1): the Hamiltonian's layers m times
// over, then the state, served site by site from the evolution's memory (no copy of a whole
// train per term); a state held in blocks goes to a charged run as boxes, never dense.
template <class T> class RepeatedLayers final : public SiteSource<T> {
 public:
  RepeatedLayers(const std::vector<std::vector<Tensor<T>>>& op, std::size_t times, const EvolutionState<T>& state,
                 Kernels<T>& K)
      : op_(op), times_(times), state_(state), K_(K) {}
  std::vector<Tensor<T>> site(std::size_t j) override {
    std::vector<Tensor<T>> out = operators(j);
    out.push_back(state_.dense_site(K_, j));
    return out;
  }
  std::vector<StoredSite<T>> stored_site(std::size_t j) override {
    std::vector<StoredSite<T>> out;
    for (auto& t : operators(j)) out.emplace_back(std::move(t));
    out.push_back(state_.stored_site(K_, j));
    return out;
  }

 private:
  std::vector<Tensor<T>> operators(std::size_t j) const {
    std::vector<Tensor<T>> out;
    for (std::size_t r = 0; r < times_; ++r)
      for (const auto& layer : op_) out.push_back(layer[j]);
    return out;
  }
  const std::vector<std::vector<Tensor<T>>>& op_;
  std::size_t times_;
  const EvolutionState<T>& state_;
  Kernels<T>& K_;
};

}  // namespace srcc
