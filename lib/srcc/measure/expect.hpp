#pragma once
// The `expect` command: expectation values ⟨ψ|O|ψ⟩/⟨ψ|ψ⟩ of operators (MPOs) in a state (MPS)
// stored in files, or matrix elements ⟨φ|O|ψ⟩, contracted exactly (no compression), with the
// variance ⟨O²⟩ − ⟨O⟩² from ⟨ψ|O O|ψ⟩ without forming O². One site of every train at a time.
#include <optional>
#include <string>
#include <vector>

#include "srcc/backend/backend.hpp"
#include "srcc/measure/compare.hpp"
#include "srcc/measure/entanglement.hpp"
#include "srcc/core/dtype.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

struct Expectation {
  std::string op;            // the operator as given (FILE.h5:/group)
  cdouble value = 0;         // ⟨O⟩ (or ⟨φ|O|ψ⟩)
  std::optional<double> variance;  // ⟨O²⟩ − |⟨O⟩|² (real part of ⟨O O⟩ − ⟨O⟩²), when asked for
};

struct ExpectResult {
  double log10_norm = 0;     // log10 ‖ψ‖
  std::optional<cdouble> overlap;  // ⟨φ|ψ⟩ with a bra
  std::vector<Expectation> rows;
  std::vector<std::string> notes;  // what could not be checked (check_bases), as apply warns of it
  std::vector<BondEntanglement> entanglement;  // with EntropyRequest::on: bonds 1 … n − 1
  std::string to_json() const;
};

// Throws InputError when lengths, physical legs or named bases do not match; UsageError when a
// state is not an MPS or an operator not an MPO.
// Contracted on the backend `make` gives once the inputs are open (any: the sites are uploaded
// one at a time; measure/compare.hpp says why it is made late). With `charges`, trains that all
// carry charges agreeing where they meet are contracted in their blocks on the host
// (charged_sandwich.hpp), each held whole where their dense sizes fit the host budget
// (`host_memory` bytes, 0 = detected).
// With `entropy`, also the state's entanglement at every bond (entanglement.hpp; Rényi entropies
// with `renyi_alpha`): the state is held whole, its dense size within the host budget
// (ResourceError otherwise).
struct EntropyRequest {
  bool on = false;
  std::optional<double> renyi_alpha;  // > 0, ≠ 1
};
ExpectResult expect(const TrainRef& ket, const std::vector<TrainRef>& ops, const std::optional<TrainRef>& bra,
                    bool variance, const BackendMaker& make, std::uint64_t host_memory = 0, bool charges = true,
                    const EntropyRequest& entropy = {});

}  // namespace srcc
