#pragma once
// The `expect` command: expectation values ⟨ψ|O|ψ⟩/⟨ψ|ψ⟩ of operators (MPOs) in a state (MPS)
// stored in files, or matrix elements ⟨φ|O|ψ⟩, contracted exactly (no compression), with the
// variance ⟨O²⟩ − ⟨O⟩² from ⟨ψ|O O|ψ⟩ without forming O²; for a density operator (an MPO
// state ρ, e^{−βH} say) Tr(ρ O)/Tr ρ and Tr ρ. One site of every train at a time.
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

// ⟨O_i⟩ at every site.
struct SiteValues {
  std::string op;
  std::vector<cdouble> values;
};
// ⟨A_i B_j⟩ (minus ⟨A_i⟩⟨B_j⟩ when connected) for first ≤ i, j < first + count, row-major.
struct CorrelationTable {
  std::string a, b;
  std::size_t first = 0, count = 0;
  bool connected = false;
  std::vector<cdouble> values;
};

struct ExpectResult {
  double log10_norm = 0;     // log10 ‖ψ‖ (NaN for an MPO state)
  std::optional<cdouble> trace;  // an MPO state ρ: Tr ρ / |Tr ρ| (its phase; ρ ≥ 0 has 1)
  double log10_trace = 0;        // … and log10 |Tr ρ|
  std::optional<cdouble> overlap;  // ⟨φ|ψ⟩ with a bra
  std::vector<Expectation> rows;
  std::vector<std::string> notes;  // what could not be checked (check_bases), as apply warns of it
  std::vector<BondEntanglement> entanglement;  // with StateRequest::entropy: bonds 1 … n − 1
  std::string site_type;                       // the site type the named operators are of
  std::vector<SiteValues> site_values;         // per StateRequest::site_ops
  std::vector<CorrelationTable> correlations;  // per StateRequest::correlations
  std::string to_json() const;
};

// Throws InputError when lengths, physical legs or named bases do not match; UsageError when a
// state is not an MPS or an operator not an MPO.
// Contracted on the backend `make` gives once the inputs are open (any: the sites are uploaded
// one at a time; measure/compare.hpp says why it is made late). With `charges`, trains that all
// carry charges agreeing where they meet are contracted in their blocks on the host
// (charged_sandwich.hpp), each held whole where their dense sizes fit the host budget
// (`host_memory` bytes, 0 = detected).
// What is measured of the state alone, held whole (its dense size within the host budget, else
// ResourceError): its entanglement at every bond (entanglement.hpp; Rényi entropies with
// `renyi_alpha`), and local observables of named site operators (local_observables.hpp):
// ⟨O_i⟩ at every site, correlations ⟨A_i B_j⟩ of sites [first, last) (connected: minus
// ⟨A_i⟩⟨B_j⟩). Operators are those of the site type `site` (train/site_type.hpp; "": spin-half
// for sites of dimension 2, spin-one for 3), "A*B" their product on one site, written in the
// state's basis where the file names its states (TeNPy's SpinSite orders spins (down, up)).
struct StateRequest {
  bool entropy = false;
  std::optional<double> renyi_alpha;  // > 0, ≠ 1
  std::string site;
  std::vector<std::string> site_ops;
  std::vector<std::pair<std::string, std::string>> correlations;
  std::size_t first = 0, last = 0;  // last 0: the last site
  bool connected = false;
  bool trace = false;  // Tr ρ of an MPO state, operators or not (an MPS state is refused)
  bool local() const { return !site_ops.empty() || !correlations.empty(); }
  bool whole() const { return entropy || local(); }
};
ExpectResult expect(const TrainRef& ket, const std::vector<TrainRef>& ops, const std::optional<TrainRef>& bra,
                    bool variance, const BackendMaker& make, std::uint64_t host_memory = 0, bool charges = true,
                    const StateRequest& state = {});

}  // namespace srcc
