#pragma once
// Runs on trains held in memory: the products, sums and truncations `apply`, `compress` and
// `truncate` compute from files, and the comparison `distance` makes, for programs that hold
// their trains (the xtensor interface, the Python module). The same stages as a file run (the
// options validated, χ̄ capped to what the product holds, budgets and plans, the sweep), minus
// the reading and writing; trains are computed dense (charges live in files).
#include <functional>
#include <vector>

#include "srcc/core/tensor.hpp"
#include "srcc/measure/compare.hpp"
#include "srcc/measure/overlap.hpp"
#include "srcc/plan/plan.hpp"
#include "srcc/plan/sweep_options.hpp"
#include "srcc/session/execution.hpp"
#include "srcc/sweep/sweep_data.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

// A train in memory: its sites in (l, r, u, d) order (an MPS has d = 1) and whether it is an MPS.
template <class T> struct MemoryTrain {
  TrainKind kind = TrainKind::kMps;
  std::vector<Tensor<T>> sites;
};

// One term c · A_1 ⋯ A_k ψ of a run: its weight and its trains, top (A_1) first, the state last.
template <class T> struct MemoryTerm {
  T weight = T(1);
  std::vector<const MemoryTrain<T>*> trains;
};

// What `trains` is as a stack, layer i named "memory:PREFIX/layer<i>" in errors (each site checked: rank, finite
// values, bonds that meet). Throws InputError.
template <class T> Stack memory_stack(const std::vector<const MemoryTrain<T>*>& trains, const std::string& prefix);

// What a run in memory reports beside its result: the sweep's own time (the rest is checking,
// planning and starting the backend) and the plans (one per term).
struct MemoryRunInfo {
  double sweep_seconds = 0;
  std::vector<Plan> plans;
};

// The compressed product (one term) or sum (several) with `options`, within `exec`'s budgets, on
// its threads and device; `check_interrupt` is called between sites and throws to stop. The
// svd method truncates a single train exactly. The result's cores are right-canonical with the
// norm in core 0 (times e^{log_scale}); `info`, when given, receives the run's figures. Throws
// UsageError for options out of range, InputError for trains that do not fit together,
// ResourceError when even the smallest plan does not fit.
template <class T>
SweepResult<T> run_in_memory(const std::vector<MemoryTerm<T>>& terms, const SweepOptions& options,
                             const Execution& exec, const std::function<void()>& check_interrupt = [] {},
                             MemoryRunInfo* info = nullptr);

// `distance`'s comparison of a and b (norms, overlap, ‖a − b‖/‖b‖), on exec's first device.
template <class T> Comparison compare_in_memory(const MemoryTrain<T>& a, const MemoryTrain<T>& b, const Execution& exec);

// ⟨bra| O_1 ⋯ O_k |ket⟩ contracted exactly (k = 0: the overlap), as value · e^log_scale.
template <class T>
Scaled sandwich_in_memory(const MemoryTrain<T>& bra, const std::vector<const MemoryTrain<T>*>& ops,
                          const MemoryTrain<T>& ket, const Execution& exec);

}  // namespace srcc
