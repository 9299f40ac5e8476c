#pragma once
// Charges, for writing a result back to a library that conserves them (TeNPy's ChargeInfo,
// ITensor's QN): what the state's library requires of a train (SectorTemplate), and a train
// brought to that block structure (SectorForm). A tensor's charge rule, in our leg order, is
//     Q(l) + q(u) − q(d) − Q(r) = total (mod each charge's modulus),
// with Q a bond index's charge, q a physical index's and `total` the tensor's own (TeNPy's
// qtotal; 0 elsewhere). The sketch of SRC mixes sectors, so a result must be split by sector
// before it can be written that way (sweep/sector_form.hpp).
#include <algorithm>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "srcc/core/inline_vector.hpp"
#include "srcc/core/tensor.hpp"

namespace srcc {

using Charge = InlineVector<long long, 4>;  // one value per charge (more than 4 on the heap)

struct ChargeRule {
  std::vector<long long> moduli;  // per charge: ≤ 1 for U(1), N for Z_N
  std::size_t count() const { return moduli.size(); }
  // Each value brought into [0, N) for a Z_N charge.
  Charge reduce(Charge q) const {
    for (std::size_t c = 0; c < q.size() && c < moduli.size(); ++c)
      if (moduli[c] > 1) q[c] = ((q[c] % moduli[c]) + moduli[c]) % moduli[c];
    return q;
  }
  // Whether two lists of charges are the same under the rule (each reduced), index by index.
  bool same(const std::vector<Charge>& a, const std::vector<Charge>& b) const {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (reduce(a[i]) != reduce(b[i])) return false;
    return true;
  }
  // As messages, records and `inspect` name it: "U(1)", "Z2", "U(1)×Z2".
  std::string name() const {
    std::string s;
    for (long long m : moduli) {
      if (!s.empty()) s.append("×");
      s.append(m <= 1 ? "U(1)" : "Z" + std::to_string(m));
    }
    return s;
  }
};

// The order of sectors on a bond: TeNPy's (numpy.lexsort over the charges: the last charge
// decides first), so that the legs written claim `sorted` truthfully.
struct ChargeOrder {
  bool operator()(const Charge& a, const Charge& b) const {
    return std::lexicographical_compare(a.rbegin(), a.rend(), b.rbegin(), b.rend());
  }
};

struct SectorTemplate {
  ChargeRule rule;
  std::vector<std::vector<Charge>> up, down;  // per site, per index of u (of d; MPS: one zero)
  std::vector<Charge> site_total;             // per site, the tensor's own total charge
  Charge left;                                // the left boundary bond's charge
  Charge right;                               // the right boundary bond's: the train's total
};

// The charges of one train's physical indices in the site's own order, per site: up (u) and down
// (d; an MPS has one index of charge zero). With them the bonds' charges follow from the tensors
// (symmetric/charged_stack.hpp).
struct PhysicalCharges {
  ChargeRule rule;
  std::vector<std::vector<Charge>> up, down;
};

template <class T> struct SectorForm {
  std::vector<Tensor<T>> cores;              // (l, r, u, d); cores right-orthonormal, core 0 at unit norm
  // Where set, the cores are made one at a time as a writer takes them (a charged result's, from
  // its blocks: no whole dense train), core j of made_elements[j] numbers; `cores` is empty.
  std::function<Tensor<T>(std::size_t)> make;
  std::vector<std::size_t> made_elements;
  // Where set (a result kept in its charge blocks), core j's elements read where they lie, for a
  // writer that takes them block by block without making the core: for the dense index (l, r,
  // u, d), the element, `stride` the distance to the element at r + 1 and `run` how many indices
  // from r on lie in r's sector of the right bond (those elements one stride apart); null where
  // no block holds it (a zero; `run` still set). Core 0 is scaled by `first_scale` as `make`
  // scales it: the writer applies that factor.
  std::function<const T*(std::size_t j, const std::size_t (&index)[4], std::size_t& stride, std::size_t& run)> element;
  double first_scale = 1.0;
  std::vector<std::vector<Charge>> bonds;    // bonds 0 … n: each index's charge, sectors in order
  std::vector<std::vector<double>> schmidt;  // bonds 0 … n: Schmidt values (the outer bonds: [1])
  double norm = 0;                           // of the train written (after the projection)
  double dropped_weight = 0;                 // relative weight outside the template's total charge, at the last site
  double truncated_weight = 0;               // relative weight the truncations per sector discarded (both
                                             // sweeps; the first may discard weight of any charge)

  std::size_t sites() const { return make ? made_elements.size() : cores.size(); }
  // Core j: cores[j] itself, or, where `make` is set, made into `slot`, which then holds it.
  const Tensor<T>& core(std::size_t j, Tensor<T>& slot) const {
    if (!make) return cores.at(j);
    slot = make(j);
    return slot;
  }
  std::size_t core_bytes(std::size_t j) const { return (make ? made_elements.at(j) : cores.at(j).data.size()) * sizeof(T); }
};

}  // namespace srcc
