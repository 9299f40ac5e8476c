#include "srcc/symmetric/block_tensor.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <stdexcept>

namespace srcc {

template <class T> const typename BlockTensor<T>::Block* BlockTensor<T>::find(const BlockKey& key) const {
  const auto it = std::lower_bound(blocks.begin(), blocks.end(), key,
                                   [](const Block& b, const BlockKey& k) { return b.key < k; });
  return it != blocks.end() && it->key == key ? &*it : nullptr;
}

template <class T> std::size_t BlockTensor<T>::axis(int label) const {
  for (std::size_t k = 0; k < labels.size(); ++k)
    if (labels[k] == label) return k;
  throw std::logic_error("block tensor: no axis labelled " + std::to_string(label));
}

namespace {

// n rounded up to a size with only its three leading bits set (at most 25% more): the backends
// reuse freed blocks by exact size, and block structures change a little from site to site.
std::size_t size_class(std::size_t n) {
  if (n <= 64) return 64;
  std::size_t shift = 0;
  while ((n >> shift) >= 8) ++shift;
  const std::size_t top = (n + (std::size_t{1} << shift) - 1) >> shift;
  return top << shift;
}

}  // namespace

// The blocks `keys` (any order; duplicates merged) laid out one after another, no data.
template <class T>
BlockTensor<T> laid_out(std::vector<Leg> legs, std::vector<int> labels, std::vector<BlockKey> keys) {
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  BlockTensor<T> t;
  t.legs = std::move(legs);
  t.labels = std::move(labels);
  t.blocks.reserve(keys.size());
  for (auto& key : keys) {
    typename BlockTensor<T>::Block b;
    b.size = t.extent(key, 0, key.size());
    b.offset = t.elements;
    b.key = std::move(key);
    t.elements += b.size;
    t.blocks.push_back(std::move(b));
  }
  return t;
}

template <class T>
BlockTensor<T> allocate_blocks(Kernels<T>& K, std::vector<Leg> legs, std::vector<int> labels,
                               std::vector<BlockKey> keys) {
  BlockTensor<T> t = laid_out<T>(std::move(legs), std::move(labels), std::move(keys));
  t.data = K.allocate(size_class(t.elements));
  return t;
}

std::vector<BlockKey> all_keys(const std::vector<Leg>& legs, const std::function<bool(const BlockKey&)>& keep) {
  std::vector<BlockKey> out;
  BlockKey key(legs.size(), 0);
  for (const auto& l : legs)
    if (l.sectors() == 0) return out;
  while (true) {
    if (!keep || keep(key)) out.push_back(key);
    std::size_t k = legs.size();
    while (k > 0) {
      --k;
      if (++key[k] < legs[k].sectors()) break;
      key[k] = 0;
      if (k == 0) return out;
    }
    if (legs.empty()) return out;
  }
}

namespace {

// Per axis, the dense index of each position of each sector (legs without a dense map: the
// sectors one after another).
std::vector<std::vector<std::vector<std::size_t>>> dense_indices(const std::vector<Leg>& legs) {
  std::vector<std::vector<std::vector<std::size_t>>> out(legs.size());
  for (std::size_t k = 0; k < legs.size(); ++k) {
    const Leg& l = legs[k];
    out[k].resize(l.sectors());
    for (std::size_t s = 0; s < l.sectors(); ++s) out[k][s].assign(l.dims[s], 0);
    if (l.sector_of.empty()) {
      std::size_t i = 0;
      for (std::size_t s = 0; s < l.sectors(); ++s)
        for (std::size_t p = 0; p < l.dims[s]; ++p) out[k][s][p] = i++;
    } else {
      for (std::size_t i = 0; i < l.sector_of.size(); ++i)
        if (l.sector_of[i] != Leg::kDropped) out[k][l.sector_of[i]][l.position_of[i]] = i;
    }
  }
  return out;
}

// Calls f(block element e, dense offset) for every element of the block `key`.
template <class F>
void for_each_element(const std::vector<std::vector<std::vector<std::size_t>>>& idx, const Shape& dense_shape,
                      const BlockKey& key, const Shape& shape, F&& f) {
  const std::size_t rank = key.size();
  std::vector<std::size_t> stride(rank, 1);
  for (std::size_t k = rank; k-- > 1;) stride[k - 1] = stride[k] * dense_shape[k];
  std::vector<std::size_t> at(rank, 0);
  const std::size_t n = shape_size(shape);
  for (std::size_t e = 0; e < n; ++e) {
    std::size_t off = 0;
    for (std::size_t k = 0; k < rank; ++k) off += idx[k][key[k]][at[k]] * stride[k];
    f(e, off);
    for (std::size_t k = rank; k-- > 0;) {
      if (++at[k] < shape[k]) break;
      at[k] = 0;
    }
  }
}

}  // namespace

template <class T>
BlockTensor<T> blocks_of_dense(Kernels<T>& K, const Tensor<T>& dense, std::vector<Leg> legs,
                               std::vector<int> labels, const std::function<bool(const BlockKey&)>& keep) {
  Shape dense_shape;
  for (const auto& l : legs) dense_shape.push_back(l.dense_size());
  if (dense_shape != dense.shape)
    throw std::logic_error("blocks_of_dense: legs of " + shape_string(dense_shape) + " for a tensor of " +
                           shape_string(dense.shape));
  const auto idx = dense_indices(legs);
  std::vector<BlockKey> keys = all_keys(legs, keep);
  // Gathered on the host and handed over once: the backend allocates nothing else for it.
  BlockTensor<T> t = laid_out<T>(std::move(legs), std::move(labels), std::move(keys));
  std::vector<T> host(t.elements);
  for (const auto& b : t.blocks)
    for_each_element(idx, dense_shape, b.key, t.block_shape(b.key),
                     [&](std::size_t e, std::size_t off) { host[b.offset + e] = dense.data[off]; });
  t.data = K.adopt(std::move(host));
  return t;
}

template <class T>
BlockTensor<T> blocks_of_boxes(Kernels<T>& K, const SiteBoxes<T>& site, std::vector<Leg> legs, std::vector<int> labels,
                               const std::function<bool(const BlockKey&)>& keep) {
  if (legs.size() != kSiteRank) throw std::logic_error("blocks_of_boxes: a site has four legs");
  for (std::size_t k = 0; k < kSiteRank; ++k)
    if (legs[k].sector_of.empty() || legs[k].sector_of.size() != site.dims[k])
      throw std::logic_error("blocks_of_boxes: leg " + std::to_string(k) + " does not map the site's " +
                             std::to_string(site.dims[k]) + " indices");
  BlockTensor<T> t = laid_out<T>(legs, std::move(labels), all_keys(legs, keep));
  std::vector<T> host(t.elements, T(0));
  for (const auto& box : site.boxes) {
    // Per leg, the box's positions by sector (a dropped index in none) and their places there.
    std::array<std::map<std::size_t, std::vector<std::pair<std::size_t, std::size_t>>>, kSiteRank> by_sector;
    for (std::size_t k = 0; k < kSiteRank; ++k)
      for (std::size_t i = 0; i < box.index[k].size(); ++i) {
        const std::size_t dense = box.index[k][i];
        const Leg& l = legs[k];
        if (l.sector_of[dense] == Leg::kDropped) continue;
        by_sector[k][l.sector_of[dense]].emplace_back(i, l.position_of[dense]);
      }
    const std::size_t nu = box.index[2].size(), nd = box.index[3].size(), nr = box.index[1].size();
    for (const auto& [sl, pl] : by_sector[0])
      for (const auto& [sr, pr] : by_sector[1])
        for (const auto& [su, pu] : by_sector[2])
          for (const auto& [sd, pd] : by_sector[3]) {
            const auto* b = t.find(BlockKey{static_cast<std::uint32_t>(sl), static_cast<std::uint32_t>(sr),
                                            static_cast<std::uint32_t>(su), static_cast<std::uint32_t>(sd)});
            if (!b) continue;
            const Shape shape = t.block_shape(b->key);
            T* dst = host.data() + b->offset;
            for (const auto& [il, ql] : pl)
              for (const auto& [ir, qr] : pr)
                for (const auto& [iu, qu] : pu)
                  for (const auto& [id, qd] : pd)
                    dst[((ql * shape[1] + qr) * shape[2] + qu) * shape[3] + qd] =
                        box.data[((il * nr + ir) * nu + iu) * nd + id];
          }
  }
  t.data = K.adopt(std::move(host));
  return t;
}

template <class T> Tensor<T> dense_of_blocks(Kernels<T>& K, const BlockTensor<T>& t) {
  Shape dense_shape;
  for (const auto& l : t.legs) dense_shape.push_back(l.dense_size());
  Tensor<T> out(dense_shape);
  std::fill(out.data.begin(), out.data.end(), T(0));
  const std::vector<T> host = K.download(t.data, t.elements);
  const auto idx = dense_indices(t.legs);
  for (const auto& b : t.blocks)
    for_each_element(idx, dense_shape, b.key, t.block_shape(b.key),
                     [&](std::size_t e, std::size_t off) { out.data[off] = host[b.offset + e]; });
  return out;
}

template <class T> SiteBoxes<T> boxes_of_blocks(Kernels<T>& K, const BlockTensor<T>& t) {
  if (t.rank() != kSiteRank) throw std::logic_error("boxes_of_blocks: a site has four legs");
  SiteBoxes<T> out;
  for (std::size_t k = 0; k < kSiteRank; ++k) out.dims[k] = t.legs[k].dense_size();
  const std::vector<T> host = K.download(t.data, t.elements);
  const auto idx = dense_indices(t.legs);
  for (const auto& b : t.blocks) {
    typename SiteBoxes<T>::Box box;
    for (std::size_t k = 0; k < kSiteRank; ++k) box.index[k] = idx[k][b.key[k]];
    box.data.assign(host.begin() + static_cast<std::ptrdiff_t>(b.offset),
                    host.begin() + static_cast<std::ptrdiff_t>(b.offset + b.size));
    out.boxes.push_back(std::move(box));
  }
  return out;
}

#define SRCC_INSTANTIATE(T)                                                                                  \
  template struct BlockTensor<T>;                                                                            \
  template BlockTensor<T> allocate_blocks(Kernels<T>&, std::vector<Leg>, std::vector<int>, std::vector<BlockKey>); \
  template BlockTensor<T> blocks_of_dense(Kernels<T>&, const Tensor<T>&, std::vector<Leg>, std::vector<int>,     \
                                          const std::function<bool(const BlockKey&)>&);                         \
  template BlockTensor<T> blocks_of_boxes(Kernels<T>&, const SiteBoxes<T>&, std::vector<Leg>, std::vector<int>,      \
                                          const std::function<bool(const BlockKey&)>&);                         \
  template Tensor<T> dense_of_blocks(Kernels<T>&, const BlockTensor<T>&);                                    \
  template SiteBoxes<T> boxes_of_blocks(Kernels<T>&, const BlockTensor<T>&);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
