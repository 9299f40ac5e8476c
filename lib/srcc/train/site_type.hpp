#pragma once
// The kinds of site a model is written on: the local basis, the named operators on it (matrices
// ⟨out|O|in⟩), which of them are fermionic (odd: they anticommute between sites, and a product
// of them carries Jordan–Wigner strings), and the charges the basis states carry, so that a
// model's operators can be stored with charges and kept in their blocks.
//
//   spin-half   up, down                 Sz Sx Sy Sp Sm Id          charge 2Sz
//   spin-one    +1, 0, −1                Sz Sx Sy Sp Sm Id          charge 2Sz
//   fermion     empty, full              C Cdag N F Id              charge N
//   electron    empty, up, down, full    Cu Cdu Cd Cdd Nu Nd Ntot Sz Sp Sm F Id   charges (N, 2Sz)
//   boson:K     0 … K bosons             B Bdag N Id                charge N
//
// Spins order their basis from Sz = +S down, as ITensor and TeNPy's SpinHalfSite do (TeNPy's
// SpinSite for S ≥ 1 orders from −S). The electron's basis and operators are TeNPy's
// SpinHalfFermionSite's: Cd carries the on-site string of the up spin, so that all four
// anticommute on the site; F = (−1)^N.
#include <complex>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "srcc/train/sectors.hpp"

namespace srcc {

struct SiteOperator {
  std::string name;
  std::size_t dim = 0;
  std::vector<std::complex<double>> m;  // dim × dim, row-major: m[out·dim + in]
  bool fermionic = false;               // odd under the fermion parity
  std::complex<double> at(std::size_t out, std::size_t in) const { return m[out * dim + in]; }
  bool is_real() const;
};

// a·b (a after b), odd when exactly one of them is; named "a*b".
SiteOperator product(const SiteOperator& a, const SiteOperator& b);

struct SiteType {
  std::string name;  // as written (spin-half, boson:3, …)
  std::size_t dim = 0;
  ChargeRule rule;                    // the charges the basis carries
  std::vector<Charge> basis_charges;  // per basis state
  std::vector<SiteOperator> ops;
  bool has_fermions = false;          // F is the parity (−1)^N
  std::vector<std::string> basis_names;  // in canonical_state_name's spelling, where it has one

  // The operator named `name`; a UsageError listing this site's operators otherwise.
  const SiteOperator& op(const std::string& name) const;
  // The charge `o` adds (out − in, the same on every nonzero element), or none (Sx, say).
  std::optional<Charge> charge_of(const SiteOperator& o) const;
  // The parity string operator F (fermionic sites) or the identity.
  const SiteOperator& parity() const { return op(has_fermions ? "F" : "Id"); }
  std::string operator_names() const;
};

// An operator by name, or a product on one site written "A*B" (A after B).
SiteOperator named_operator(const SiteType& type, const std::string& spec);

// Where a file's basis states (`names`, in its order, as TrainInfo::basis gives them) lie in the
// type's basis: the file's state k is the type's state order[k]. Empty where the names say
// nothing (a name we do not know, a type without names); a UsageError where they name other
// states than the type's.
std::vector<std::size_t> basis_order(const SiteType& type, const std::vector<std::string>& names);
// `o` in a basis given by basis_order (unchanged for an empty order).
SiteOperator reordered(const SiteOperator& o, const std::vector<std::size_t>& order);
// The whole type in that basis: its operators, charges and names.
SiteType reordered(const SiteType& t, const std::vector<std::size_t>& order);

// The site type named `spec` for sites of dimension `dim` of the train `where`; "" is spin-half
// for dimension 2 and spin-one for 3. UsageError (naming --site) where there is no default or
// the type's dimension is another.
SiteType site_type_for(const std::string& spec, std::size_t dim, const std::string& where);

// Named operators (named_operator's names) of the site type `spec` (site_type_for) for the
// state `info`, written in its basis where the file names its states (basis_order), with the
// type's parity in that basis; UsageError where its sites differ in dimension.
struct StateOperators {
  SiteType type;
  std::vector<SiteOperator> ops;  // in the order of `names`
  SiteOperator parity;
  bool is_real = true;            // every operator real
};
struct TrainInfo;
StateOperators state_operators(const std::string& spec, const std::vector<std::string>& names, const TrainInfo& info);

// "spin-half", "spin-one", "fermion", "electron", "boson:K" (K ≥ 1); a UsageError naming the
// kinds otherwise.
SiteType site_type(const std::string& spec);
inline constexpr const char* kSiteTypeNames = "spin-half, spin-one, fermion, electron, boson:K";

}  // namespace srcc
