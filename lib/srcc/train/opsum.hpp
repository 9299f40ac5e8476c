#pragma once
// A Hamiltonian (or any operator) as a sum of products of site operators, Σ_t c_t O_{t,1}(i_1)
// O_{t,2}(i_2) …, built into an MPO by a finite automaton: at each bond a term that has started
// and not finished is in the state named by what it still has to apply (operators and sites), so
// that terms that end alike share their state (Σ_i J S^z_i S^z_{i+1} needs one, not one per i):
// an XXZ chain's bond is 5, a J1–J2 chain's 8. Its coefficient is applied with a term's first
// operator. Fermionic operators get their Jordan–Wigner strings: the sites between and the
// earlier operators carry the parity F of the odd operators still to come, after reordering the
// term by site with the sign of each exchange of two odd operators.
#include <complex>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "srcc/core/tensor.hpp"
#include "srcc/train/site_type.hpp"
#include "srcc/train/sectors.hpp"

namespace srcc {

struct OpTerm {
  std::complex<double> coefficient = 1;
  std::vector<std::pair<std::string, long long>> ops;  // (operator, site) as written, left to right
  std::string text;                                    // as given, for messages
};

// "COEF OP SITE [OP SITE …]" (COEF as apply --term's weights: 0.5, 2j, 1-0.5i); several terms one per line,
// '#' starting a comment. `where` names the source in errors.
std::vector<OpTerm> parse_terms(const std::string& text, const std::string& where);

// Each term repeated at every shift that keeps it on the chain of `sites` (open ends): its sites
// are offsets from the first of them.
std::vector<OpTerm> translated(const std::vector<OpTerm>& terms, std::size_t sites);

class OpSumMpo {
 public:
  // Throws UsageError naming the term when an operator is unknown, a site is off the chain or a
  // term is odd in fermions.
  OpSumMpo(SiteType site, std::size_t sites, const std::vector<OpTerm>& terms);
  std::size_t sites() const { return n_; }
  const SiteType& site_type() const { return type_; }
  std::size_t bond(std::size_t b) const { return states_[b]; }  // bonds 0 … n (outer: 1)
  std::size_t max_bond() const;
  bool is_real() const;
  // The charges the sites carry when every term conserves them (each operator adds a definite
  // charge and each term's add up to 0), else none.
  std::optional<PhysicalCharges> charges() const;
  // Site j, internal (l, r, u, d).
  template <class T> Tensor<T> site(std::size_t j) const;

 private:
  struct Entry {
    std::size_t from, to;
    std::vector<std::complex<double>> m;  // d × d
  };
  SiteType type_;
  std::size_t n_;
  std::vector<std::size_t> states_;
  std::vector<std::vector<Entry>> entries_;  // per site
  bool conserves_ = true;
};

}  // namespace srcc
