#pragma once
// The example trains `generate` writes, one row each: name, kind, default group, the flags it
// takes, its bond, its element type; and site j of each (sites come one at a time, so a train
// never has to fit in memory). A new example is a value, a row and a case of example_site.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "srcc/core/dtype.hpp"
#include "srcc/core/rng.hpp"
#include "srcc/core/tensor.hpp"
#include "srcc/train/opsum.hpp"
#include "srcc/train/step_mpo.hpp"
#include "srcc/train/layout.hpp"
#include "srcc/train/sectors.hpp"

namespace srcc {

enum class Example {
  kRandomMps, kRandomMpo, kIdentity, kIsing, kIsingStep, kMagnetization, kProduct,
  kXxz, kNeel, kDomainWall, kChargedRandom, kOpsum, kHubbard, kStep
};

struct ExampleRow {
  Example example;
  std::string_view name;     // as `generate` takes it
  TrainKind kind;
  std::string_view group;    // the group written when -o names none
  bool random;               // drawn from --seed (takes --bond)
  bool spins;                // spins 1/2 only (--phys 2)
  bool conserves_sz;         // conserves S^z (with --phys 2): written with its U(1) charges
  std::string_view summary;  // for --help
};

const std::vector<ExampleRow>& example_table();
const ExampleRow& example_row(Example e);
// A kind's name; anything else is a UsageError listing the kinds.
Example parse_example(const std::string& name);

struct ExampleOptions {
  Example example = Example::kRandomMps;
  std::size_t sites = 10;     // >= 2
  std::size_t bond = 4;       // random trains: the inner bond
  std::size_t phys = 2;       // physical dimension (spins: 2)
  double coupling = 1.0;      // Ising J
  double field = 1.0;         // Ising h; xxz: the field along z
  double delta = 1.0;         // xxz: the anisotropy Δ
  double spread = 2.0;        // charged-random: the sectors' spread in 2S^z (> 0)
  std::optional<long long> total_charge;  // charged-random: total 2S^z (empty: n mod 2)
  std::string config;         // product: each site's basis index as u/d or a digit ("": all 0)
  double dt = 0;              // ising-step, step: the step's time (required; recorded on the MPO)
  bool imaginary = false;     // ising-step, step: e^{−dt H}
  std::uint64_t seed = 0;     // random trains
  std::optional<DType> dtype;  // empty: complex128 for a real-time step or a complex operator, else float64
  std::string site;                       // opsum, product: the site type (train/site_type.hpp; "": spin-half)
  std::string pattern;                    // product: "neel" or "domain-wall" ("": --config-state or all 0)
  std::vector<std::string> terms;         // opsum: terms as --term takes them
  std::string terms_file;                 // opsum: a file of terms
  bool translate = false;                 // opsum: each term at every position
  double interaction = 1.0;               // hubbard: U
  std::shared_ptr<const OpSumMpo> model;  // opsum, hubbard: set by prepare_example
  std::string from;                       // step: the Hamiltonian's train, as given
  StepApproximation approximation = StepApproximation::kSecond;  // step
  int order = 1;                          // step: 1, or 2 (the complex splitting)
  std::vector<Tensor<cdouble>> hamiltonian;  // step: its sites, read by the caller
  std::optional<PhysicalCharges> hamiltonian_charges;  // step: the charges it carries
  std::shared_ptr<const std::vector<Tensor<cdouble>>> step;  // step: set by prepare_example
  std::shared_ptr<const SiteType> product_site;  // product with --site or --pattern: set by prepare_example
  std::string basis_of;                     // opsum: --basis-of TRAIN, as given
  std::vector<std::string> template_basis;  // opsum: that train's basis names (read by the caller)
  std::vector<std::string> from_basis;      // step: the Hamiltonian's basis names (read by the caller)
};

// The names of the basis states an example's sites hold (the `basis` attribute it is written
// with), or none where they are not known (random trains, a --phys other than the kind's).
std::vector<std::string> example_basis(const ExampleOptions& o);

// Builds what a kind needs before its sites are made (the MPO of opsum and hubbard, with --phys
// set to its site's dimension; the step from `hamiltonian`); UsageError naming the flag, term or
// file that does not fit.
void prepare_example(ExampleOptions& o);

// Throws UsageError naming the flag when an option does not fit the kind.
void check_example(const ExampleOptions& o);
std::size_t example_bond(const ExampleOptions& o);  // the train's inner bond
DType example_dtype(const ExampleOptions& o);
// The charges an example is written with (its row conserves S^z and its spins are 1/2), or none.
std::optional<PhysicalCharges> example_charges(const ExampleOptions& o);
// Site j (internal (l, r, u, d)); random trains draw from `rng` in site order.
template <class T> Tensor<T> example_site(const ExampleOptions& o, std::size_t j, Rng& rng);

}  // namespace srcc
