#include "srcc/measure/charged_sandwich.hpp"

#include <cmath>

#include "srcc/symmetric/block_ops.hpp"

namespace srcc {

namespace {

// E's axes and the sites': the bra's bond, the ket's, each operator's; their right-hand
// versions; the physical legs between layers (X(0) the bra's, X(k) the ket's) and the states'
// unit down legs.
constexpr int kA = 1, kB = 2, kAR = 3, kBR = 4, kD = 5;
int W(std::size_t i) { return 100 + static_cast<int>(i); }
int WR(std::size_t i) { return 200 + static_cast<int>(i); }
int X(std::size_t i) { return 300 + static_cast<int>(i); }

}  // namespace

template <class T>
void ChargedSandwich<T>::add(const BlockTensor<T>& bra, const std::vector<const BlockTensor<T>*>& ops,
                             const BlockTensor<T>& ket) {
  const std::size_t k = layers_;
  std::vector<int> bonds{kA}, next{kAR};
  for (std::size_t i = 0; i < k; ++i) {
    bonds.push_back(W(i));
    next.push_back(WR(i));
  }
  bonds.push_back(kB);
  next.push_back(kBR);
  if (!started_) {
    std::vector<Leg> legs{bra.legs[0]};
    for (const auto* o : ops) legs.push_back(o->legs[0]);
    legs.push_back(ket.legs[0]);
    e_ = allocate_blocks(K_, legs, bonds, all_keys(legs));
    e_.data = K_.adopt(std::vector<T>(e_.elements, T(1)));
    started_ = true;
  }
  if (zero_) return;
  // The ket laid out (b, x, b', d), so that t comes out as (a, W(0) … W(k−1), X(k), b', d) and
  // each operator, bottom up, takes the place of its run (W(i), X(i+1)) with (X(i), W'(i)): t is
  // never permuted between layers (contract_in_place).
  BlockTensor<T> t = contract(K_, e_, permute_to(K_, relabelled(ket, {kB, kBR, X(k), kD}), {kB, X(k), kBR, kD}), {kB});
  for (std::size_t i = k; i-- > 0;)
    t = contract_in_place(K_, t, relabelled(*ops[i], {W(i), WR(i), X(i), X(i + 1)}), {W(i), X(i + 1)}, {X(i), WR(i)});
  t = contract(K_, conj_of(K_, relabelled(bra, {kA, kAR, X(0), kD})), t, {kA, X(0), kD});
  e_ = relabelled(permute_to(K_, t, next), bonds);
  const double norm = norm_of(K_, e_);
  if (!(norm > 0)) {
    zero_ = true;  // no block left: the charges make the element vanish
    return;
  }
  scale_by(K_, e_, 1 / norm);
  log_scale_ += std::log(norm);
}

template <class T> Scaled ChargedSandwich<T>::value() const {
  if (zero_ || e_.blocks.empty()) return Scaled{0, 0};
  return Scaled{cdouble(dense_of_blocks(K_, e_).data.at(0)), log_scale_};
}

#define SRCC_INSTANTIATE(T) template class ChargedSandwich<T>;
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
