#pragma once
// Runs on trains held in memory: the products, sums and truncations `apply`, `compress` and
// `truncate` compute from files, and the comparison `distance` makes, for programs that hold
// their trains (the xtensor interface, the Python module). The same stages as a file run (the
// options validated, χ̄ capped to what the product holds, budgets and plans, the sweep), minus
// the reading and writing.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "srcc/core/tensor.hpp"
#include "srcc/measure/compare.hpp"
#include "srcc/measure/overlap.hpp"
#include "srcc/plan/plan.hpp"
#include "srcc/plan/sweep_options.hpp"
#include "srcc/session/execution.hpp"
#include "srcc/session/run_options.hpp"
#include "srcc/session/write_back.hpp"
#include "srcc/sweep/sweep_data.hpp"
#include "srcc/train/sectors.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

// A train in memory: its sites in (l, r, u, d) order (an MPS has d = 1), whether it is an MPS,
// and the charges of its physical legs where it conserves some (its bonds' follow from them).
template <class T> struct MemoryTrain {
  TrainKind kind = TrainKind::kMps;
  std::vector<Tensor<T>> sites;
  std::optional<PhysicalCharges> charges;
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
// planning and starting the backend), the plans (one per term), the charges it computed on
// ("U(1)", …; "" for a dense run, with `symmetry_note` saying why where the inputs had some) and
// the result's physical charges when it did.
struct MemoryRunInfo {
  double sweep_seconds = 0;
  std::vector<Plan> plans;
  std::string symmetry, symmetry_note;
  std::optional<PhysicalCharges> charges;
};

// The compressed product (one term) or sum (several) with `options`, within `exec`'s budgets, on
// its threads and device, in the trains' charge blocks where they all carry charges that agree
// (`symmetry` kAuto, as --symmetry; see session/symmetric_run.hpp); `check_interrupt` is called
// between sites and throws to stop. The svd method truncates a single train exactly. The result's cores are right-canonical with the
// norm in core 0 (times e^{log_scale}); `info`, when given, receives the run's figures. Throws
// UsageError for options out of range, InputError for trains that do not fit together,
// ResourceError when even the smallest plan does not fit.
template <class T>
SweepResult<T> run_in_memory(const std::vector<MemoryTerm<T>>& terms, const SweepOptions& options,
                             const Execution& exec, const std::function<void()>& check_interrupt = [] {},
                             MemoryRunInfo* info = nullptr, Symmetry symmetry = Symmetry::kAuto);

// `distance`'s comparison of a and b (norms, overlap, ‖a − b‖/‖b‖), on exec's first device.
template <class T> Comparison compare_in_memory(const MemoryTrain<T>& a, const MemoryTrain<T>& b, const Execution& exec);

// A new file at `path` holding `train` (and its charges, where it carries some) at `group` in our
// format; an existing file is replaced only with `force` (OutputError).
template <class T> void write_memory_train(const std::string& path, const MemoryTrain<T>& train, const std::string& group,
                                           bool force);

// `train` written at `path` in the format of the train `like` (TeNPy's or ITensor's file, as
// --template: its sites, charges and indices; the same length, kind and physical legs), after an
// exact SVD sweep that brings it to the canonical form the writer takes (only rounding-level
// directions go). Returns what the writer dropped (weight outside the template's total charge)
// and truncated by sector. UsageError where `like` is a train of ours (write_memory_train).
template <class T>
WriteBack write_memory_train_like(const std::string& path, const MemoryTrain<T>& train, const TrainRef& like, bool force,
                                  const Execution& exec);

// ⟨bra| O_1 ⋯ O_k |ket⟩ contracted exactly (k = 0: the overlap), as value · e^log_scale.
template <class T>
Scaled sandwich_in_memory(const MemoryTrain<T>& bra, const std::vector<const MemoryTrain<T>*>& ops,
                          const MemoryTrain<T>& ket, const Execution& exec);

}  // namespace srcc
