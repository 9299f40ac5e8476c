#pragma once
// A block-sparse tensor for abelian charges: its legs (leg.hpp), and the blocks present, each a
// choice of one sector per leg (its key) stored row-major over those sectors' dimensions, all in
// one backend allocation at the offsets of an offset table, so that every block is a ready GEMM
// operand on any backend. Which blocks exist is decided where a tensor is made: a charge-
// conserving site keeps the keys its rule allows, a sketch environment (dense in its sketch leg)
// every key that arises. Each axis carries a label, by which contractions name their legs.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include "srcc/backend/backend.hpp"
#include "srcc/core/inline_vector.hpp"
#include "srcc/core/tensor.hpp"
#include "srcc/symmetric/leg.hpp"
#include "srcc/train/site_boxes.hpp"

namespace srcc {

using BlockKey = InlineVector<std::uint32_t, 8>;  // one sector per leg (more than 8 on the heap)

template <class T> struct BlockTensor {
  struct Block {
    BlockKey key;
    std::size_t offset = 0, size = 0;
  };
  std::vector<Leg> legs;
  std::vector<int> labels;    // per axis
  std::vector<Block> blocks;  // sorted by key
  std::size_t elements = 0;   // Σ block sizes
  Buffer<T> data;

  std::size_t rank() const { return legs.size(); }
  Shape block_shape(const BlockKey& key) const {
    Shape s;
    for (std::size_t k = 0; k < key.size(); ++k) s.push_back(legs[k].dims[key[k]]);
    return s;
  }
  // The product of the block `key`'s sizes along axes lo … hi − 1 (its rows or columns as a
  // matrix whose rows are those axes).
  std::size_t extent(const BlockKey& key, std::size_t lo, std::size_t hi) const {
    std::size_t v = 1;
    for (std::size_t k = lo; k < hi; ++k) v *= legs[k].dims[key[k]];
    return v;
  }
  // The block of `key`, or null.
  const Block* find(const BlockKey& key) const;
  std::size_t axis(int label) const;  // the axis labelled `label` (throws when none)
  T* at(const Block& b) { return data.data() + b.offset; }
  const T* at(const Block& b) const { return data.data() + b.offset; }
};

// t with its axes named `labels` instead (the data shared).
template <class T> BlockTensor<T> relabelled(BlockTensor<T> t, std::vector<int> labels) {
  t.labels = std::move(labels);
  return t;
}

// A tensor with blocks `keys` (any order; duplicates merged) laid out one after another and
// allocated on `K`, contents not set.
template <class T>
BlockTensor<T> allocate_blocks(Kernels<T>& K, std::vector<Leg> legs, std::vector<int> labels,
                               std::vector<BlockKey> keys);

// Every key of `legs` (all sector combinations) for which `keep` says yes (null: all).
std::vector<BlockKey> all_keys(const std::vector<Leg>& legs,
                               const std::function<bool(const BlockKey&)>& keep = nullptr);

// The blocks of a dense tensor whose axes are `legs` (dense index i of axis k lands at
// legs[k].sector_of[i], position_of[i]; dropped indices are skipped), keeping the keys `keep`
// allows. Elements outside the kept blocks are not looked at.
template <class T>
BlockTensor<T> blocks_of_dense(Kernels<T>& K, const Tensor<T>& dense, std::vector<Leg> legs,
                               std::vector<int> labels,
                               const std::function<bool(const BlockKey&)>& keep = nullptr);

// The same from a site given as boxes (train/site_boxes.hpp), its legs (l, r, u, d): each box's
// elements land in the blocks of their indices' sectors; elements at a dropped index must be zero
// and are not looked at, nor are those outside the kept blocks.
template <class T>
BlockTensor<T> blocks_of_boxes(Kernels<T>& K, const SiteBoxes<T>& site, std::vector<Leg> legs, std::vector<int> labels,
                               const std::function<bool(const BlockKey&)>& keep = nullptr);

// The dense tensor: axis k has legs[k].sector_of.size() indices where the leg knows its dense
// indices, else its sectors one after another; absent blocks are zero.
template <class T> Tensor<T> dense_of_blocks(Kernels<T>& K, const BlockTensor<T>& t);

// A site's blocks (legs l, r, u, d) as boxes of its dense form: one box per block, at the dense
// indices dense_of_blocks gives its sectors, its data as the block lies. blocks_of_boxes with
// the same legs gives the blocks back; nothing dense is formed.
template <class T> SiteBoxes<T> boxes_of_blocks(Kernels<T>& K, const BlockTensor<T>& t);

// b's numbers moved from `from`'s memory to `to`'s (a device's result to the host, factors back
// to the device): copied once; b itself where both are the same kernels or both compute in host
// memory.
template <class T> Buffer<T> moved_to(Kernels<T>& from, Kernels<T>& to, Buffer<T> b) {
  // Host memory is any host backend's to read: nothing to move between two of them.
  if (&from == &to || b.size() == 0 || (!from.moves_data() && !to.moves_data())) return b;
  return to.adopt(from.download(b, b.size()));
}
// The same for a tensor's numbers: the same tensor, its data moved.
template <class T> BlockTensor<T> moved_to(Kernels<T>& from, Kernels<T>& to, BlockTensor<T> t) {
  t.data = moved_to(from, to, std::move(t.data));
  return t;
}

}  // namespace srcc
