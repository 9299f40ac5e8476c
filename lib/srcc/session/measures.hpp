#pragma once
// The measurements as entry points (expect, distance): the trains named by files, computed where
// and with what `Execution` says (threads, budgets, device), as apply and evolve are.
#include <optional>
#include <vector>

#include "srcc/measure/compare.hpp"
#include "srcc/measure/expect.hpp"
#include "srcc/session/execution.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

struct ExpectOptions {
  TrainRef ket;                  // the state ψ (an MPS)
  std::vector<TrainRef> ops;     // the operators O (MPOs)
  std::optional<TrainRef> bra;   // φ for matrix elements ⟨φ|O|ψ⟩
  bool variance = false;         // also ⟨O²⟩ − ⟨O⟩² (not with a bra)
  bool charges = true;           // --symmetry auto: trains that carry charges, in their blocks
  StateRequest state;            // --entropy, --renyi, --site-op, --correlation, …
  Execution exec;
};
ExpectResult expect(const ExpectOptions& options);

struct DistanceOptions {
  TrainRef a, b;                 // ‖a − b‖ / ‖b‖
  bool charges = true;           // --symmetry auto: trains that carry the same charges, in their blocks
  Execution exec;
};
Comparison distance(const DistanceOptions& options);

}  // namespace srcc
