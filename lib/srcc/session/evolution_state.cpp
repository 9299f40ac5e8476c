#include "srcc/session/evolution_state.hpp"

#include "srcc/measure/charged_compare.hpp"
#include "srcc/measure/overlap.hpp"
#include "srcc/symmetric/block_ops.hpp"
#include "srcc/symmetric/charged_stack.hpp"

namespace srcc {

template <class T> std::array<std::size_t, kSiteRank> EvolutionState<T>::dims(std::size_t j) const {
  std::array<std::size_t, kSiteRank> d{};
  for (std::size_t k = 0; k < kSiteRank; ++k) d[k] = in_blocks() ? blocks[j].legs[k].dense_size() : dense[j].shape[k];
  return d;
}

template <class T> StoredSite<T> EvolutionState<T>::stored_site(Kernels<T>& K, std::size_t j) const {
  if (in_blocks()) return boxes_of_blocks(K, blocks[j]);
  return dense[j];
}

template <class T> Tensor<T> EvolutionState<T>::dense_site(Kernels<T>& K, std::size_t j) const {
  return in_blocks() ? dense_of_blocks(K, blocks[j]) : dense[j];
}

template <class T> std::vector<Tensor<T>> EvolutionState<T>::dense_cores(Kernels<T>& K) const {
  if (!in_blocks()) return dense;
  std::vector<Tensor<T>> out;
  for (const auto& b : blocks) out.push_back(dense_of_blocks(K, b));
  return out;
}

template <class T> std::size_t EvolutionState<T>::bytes() const {
  std::size_t elements = 0;
  for (const auto& b : blocks) elements += b.elements;
  for (const auto& c : dense) elements += c.size();
  return elements * sizeof(T);
}

template <class T> double EvolutionState<T>::core0_norm(Kernels<T>& K) const {
  return in_blocks() ? norm_of(K, blocks.front()) : frobenius_norm(dense.front());
}

template <class T> double EvolutionState<T>::log_norm(Kernels<T>& K) const {
  if (in_blocks()) return charged_log_norm(K, blocks);
  InnerProduct<T> norm(K);
  for (const auto& c : dense) norm.add(c, c);
  return 0.5 * norm.value().log_abs();
}

template <class T> void EvolutionState<T>::split(Kernels<T>& K, const PhysicalCharges& pc, const std::string& where) {
  if (in_blocks()) return;
  blocks = charged_layer(K, dense, pc, 0, where);
  for (auto& b : blocks) b.labels = {axis::kCoreL, axis::kCoreR, axis::kCoreU, axis::kCoreD};
  dense.clear();
}

template <class T> void EvolutionState<T>::scale_core0(Kernels<T>& K, double alpha) {
  if (in_blocks()) {
    scale_by(K, blocks.front(), alpha);
    return;
  }
  const auto a = static_cast<real_t<T>>(alpha);
  for (auto& v : dense.front().data) v *= a;
}

#define SRCC_INSTANTIATE(T) template struct EvolutionState<T>;
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
