#pragma once
// A stack of trains kept in their charge blocks: each layer's sites as block-sparse tensors
// (l, r, u, d), their legs' sectors known. A file gives the charges of the physical indices
// (TeNPy's LegCharges, ITensor's QN blocks, our own format's extension); the bonds' charges then
// follow from the tensors themselves, site by site from the left: an index of the right bond
// takes Q(r) = Q(l) + q(u) − q(d) from any non-zero element, and every non-zero element must
// agree (else the input breaks its own charges: refused, naming the file, site and element). A
// bond index that no element reaches carries nothing of the product and is left out. The
// convention makes every tensor's own total charge zero (bond charges absorb TeNPy's qtotal and
// ITensor's flux) and the left boundary neutral, so trains of one library combine as they are.
#include <string>
#include <vector>

#include "srcc/symmetric/block_tensor.hpp"
#include "srcc/train/site_source.hpp"

namespace srcc {

// The axis labels of the symmetric sweep: layer i's bonds L(i), R(i); the physical leg between
// layers i−1 and i, X(i) (X(0) the top's up leg, X(k) the bottom's down leg); the sketch leg;
// the output's right bond and the new left bond a factorisation makes.
namespace axis {
inline constexpr int kSketch = 1, kOut = 2, kNew = 3;
// The bottom layer's down leg of any stack (X(k) for k layers), where stacks of several depths meet.
inline constexpr int kDown = 4;
// A result's cores: (l, r, u, d).
inline constexpr int kCoreL = 11, kCoreR = 12, kCoreU = 13, kCoreD = 14;
inline int L(std::size_t i) { return 1000 + static_cast<int>(i); }
inline int R(std::size_t i) { return 2000 + static_cast<int>(i); }
inline int X(std::size_t i) { return 3000 + static_cast<int>(i); }
}  // namespace axis

template <class T> struct ChargedStack {
  ChargeRule rule;
  // sites[i][j]: layer i at site j, labels (L(i), R(i), X(i), X(i+1)).
  std::vector<std::vector<BlockTensor<T>>> sites;
  std::size_t depth() const { return sites.size(); }
  std::size_t length() const { return sites.empty() ? 0 : sites.front().size(); }
  const Leg& top_up(std::size_t j) const { return sites.front()[j].legs[2]; }
  const Leg& bottom_down(std::size_t j) const { return sites.back()[j].legs[3]; }
};

template <class T> class EnvParking;

// One term w·(stack) of a sum, and where its left environments wait between the sweeps (null:
// in memory; symmetric/env_parking.hpp).
template <class T> struct ChargedTerm {
  const ChargedStack<T>* stack = nullptr;
  T weight = T(1);
  EnvParking<T>* parking = nullptr;
};

// Layer `layer` of a stack from its dense sites (l, r, u, d) and the charges of their physical
// indices; `where` names the train for messages ("file:/group"). Throws InputError where an
// element breaks the charges, or when the train is zero.
template <class T>
std::vector<BlockTensor<T>> charged_layer(Kernels<T>& K, const std::vector<Tensor<T>>& dense,
                                          const PhysicalCharges& charges, std::size_t layer, const std::string& where);

// The stack of `layers` (their charges; `where` names each for messages) from its sites, read one
// site index at a time from `source`: only one site of each layer is ever dense at once.
template <class T>
ChargedStack<T> charged_stack(Kernels<T>& K, SiteSource<T>& source, std::size_t sites,
                              const std::vector<PhysicalCharges>& layers, const std::vector<std::string>& where);

// Whether layer below's up charges equal layer above's down charges at every site, and the rules
// agree: what a stack of charged trains needs. Returns "" when they do, else why not.
std::string charges_compatible(const std::vector<PhysicalCharges>& layers);

// Whether two states (a bra and a ket, a reference and the state) carry the same physical charges
// under the same rule: what their overlap in blocks needs.
bool same_state_charges(const PhysicalCharges& a, const PhysicalCharges& b);

}  // namespace srcc
