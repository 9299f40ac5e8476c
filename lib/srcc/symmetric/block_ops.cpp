#include "srcc/symmetric/block_ops.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>

namespace srcc {

namespace {

// A transposition of two axes as swap_axes takes it: out[p, y, q, x, r] = in[p, x, q, y, r].
struct Swap {
  std::size_t p, x, q, y, r;
};

// A block's dimensions and the transpositions that move it, kept inside their objects: a
// permutation takes them for every block, and blocks a few indices wide cost no more than
// the heap allocations that vectors of them made.
using BlockDims = InlineVector<std::size_t, 8>;
using Swaps = InlineVector<Swap, 8>;

// The transpositions that bring a row-major array of `shape` to the axis order `perm`
// (out axis i = in axis perm[i]), leaving out those that move no element.
Swaps swaps_for(BlockDims shape, const std::vector<std::size_t>& perm) {
  BlockDims cur;
  for (std::size_t i = 0; i < shape.size(); ++i) cur.push_back(i);
  Swaps out;
  for (std::size_t i = 0; i < perm.size(); ++i) {
    const std::size_t p = static_cast<std::size_t>(std::find(cur.begin(), cur.end(), perm[i]) - cur.begin());
    if (p == i) continue;
    auto prod = [&](std::size_t lo, std::size_t hi) {
      std::size_t v = 1;
      for (std::size_t k = lo; k < hi; ++k) v *= shape[k];
      return v;
    };
    const Swap s{prod(0, i), shape[i], prod(i + 1, p), shape[p], prod(p + 1, shape.size())};
    const bool moves = !(s.x == 1 && s.y == 1) && !(s.q == 1 && (s.x == 1 || s.y == 1));
    if (moves) out.push_back(s);
    std::swap(cur[i], cur[p]);
    std::swap(shape[i], shape[p]);
  }
  return out;
}

}  // namespace

template <class T> BlockTensor<T> permute_to(Kernels<T>& K, const BlockTensor<T>& t, const std::vector<int>& labels) {
  if (labels == t.labels) return t;
  std::vector<std::size_t> perm;
  for (int l : labels) perm.push_back(t.axis(l));
  if (perm.size() != t.rank()) throw std::logic_error("permute_to: not a permutation of the tensor's labels");
  std::vector<Leg> legs;
  for (std::size_t k : perm) legs.push_back(t.legs[k]);
  std::vector<BlockKey> keys;
  for (const auto& b : t.blocks) {
    BlockKey key;
    for (std::size_t k : perm) key.push_back(b.key[k]);
    keys.push_back(std::move(key));
  }
  BlockTensor<T> out = allocate_blocks(K, std::move(legs), labels, keys);
  if (t.blocks.empty()) return out;
  std::size_t largest = 0;
  for (const auto& b : t.blocks) largest = std::max(largest, b.size);
  // Block i moved by its transpositions, through two scratch blocks (made when first needed)
  // where it takes more than one.
  auto one = [&](std::size_t i, Buffer<T>* tmp) {
    const auto& b = t.blocks[i];
    const auto* dst = out.find(keys[i]);
    BlockDims dims;
    for (std::size_t k = 0; k < t.rank(); ++k) dims.push_back(t.legs[k].dims[b.key[k]]);
    const Swaps swaps = swaps_for(dims, perm);
    if (swaps.empty()) {
      K.copy(b.size, t.at(b), out.at(*dst));
      return;
    }
    for (std::size_t s = 0; s + 1 < swaps.size() && s < 2; ++s)
      if (tmp[s].size() < b.size) tmp[s] = K.allocate(largest);
    const T* src = t.at(b);
    for (std::size_t s = 0; s < swaps.size(); ++s) {
      T* to = s + 1 == swaps.size() ? out.at(*dst) : tmp[s % 2].data();
      K.swap_axes(swaps[s].p, swaps[s].x, swaps[s].q, swaps[s].y, swaps[s].r, src, to);
      src = to;
    }
  };
  // The blocks in runs of about equal size, one task each with its own scratch (the copies are
  // the memory's: threads add bandwidth); one run on one thread.
  const std::size_t runs = K.concurrency() > 1 ? std::min(t.blocks.size(), 2 * K.concurrency()) : 1;
  std::vector<std::size_t> first{0};
  for (std::size_t i = 0, done = 0; i < t.blocks.size(); ++i) {
    done += t.blocks[i].size;
    if (first.size() < runs && done * runs >= t.elements * first.size()) first.push_back(i + 1);
  }
  if (first.back() != t.blocks.size()) first.push_back(t.blocks.size());
  auto run = [&](std::size_t r) {
    Buffer<T> tmp[2];
    for (std::size_t i = first[r]; i < first[r + 1]; ++i) one(i, tmp);
  };
  if (first.size() > 2) K.for_each_task(first.size() - 1, run);
  else run(0);
  return out;
}

namespace {

// One operand of a contraction, laid out as a matrix per block: its free and contracted axes
// as stored, or permuted into (free…, contracted…) / (contracted…, free…) order when neither
// is a contiguous run (then held here; else the caller's tensor is read in place). Each block's
// free and contracted sectors and its matrix's rows (free) and columns (contracted) are taken
// once, not per product.
template <class T> struct Operand {
  BlockTensor<T> permuted;                 // when the caller's order would not do
  const BlockTensor<T>* given = nullptr;   // else the caller's tensor
  const BlockTensor<T>& t() const { return given != nullptr ? *given : permuted; }
  std::size_t free = 0;      // free axes (excluding a batch axis)
  bool contracted_first = false;
  std::vector<BlockKey> free_key, contracted_key;  // per block
  std::vector<std::size_t> free_size, contracted_size;
};

// `t` as an operand: `batch` (0 or 1 leading batch axes kept in place), then either order of
// its free axes and the contracted `over` (in that order); `free_first` is the order preferred
// when a permutation is needed.
template <class T>
Operand<T> operand(Kernels<T>& K, const BlockTensor<T>& t, const std::vector<int>& over, std::size_t batch,
                   bool free_first) {
  std::vector<int> head(t.labels.begin(), t.labels.begin() + static_cast<std::ptrdiff_t>(batch)), fr;
  for (std::size_t k = batch; k < t.rank(); ++k)
    if (std::find(over.begin(), over.end(), t.labels[k]) == over.end()) fr.push_back(t.labels[k]);
  std::vector<int> free_then = head, then_free = head;
  free_then.insert(free_then.end(), fr.begin(), fr.end());
  free_then.insert(free_then.end(), over.begin(), over.end());
  then_free.insert(then_free.end(), over.begin(), over.end());
  then_free.insert(then_free.end(), fr.begin(), fr.end());
  Operand<T> o;
  o.free = fr.size();
  if (t.labels == free_then) {
    o.given = &t;
  } else if (t.labels == then_free) {
    o.given = &t;
    o.contracted_first = true;
  } else {
    o.permuted = permute_to(K, t, free_first ? free_then : then_free);
    o.contracted_first = !free_first;
  }
  const std::size_t nc = over.size();
  const std::size_t first_free = batch + (o.contracted_first ? nc : 0), first_contracted = batch + (o.contracted_first ? 0 : o.free);
  auto part = [&](const BlockKey& key, std::size_t first, std::size_t count, std::vector<BlockKey>& keys,
                  std::vector<std::size_t>& sizes) {
    keys.emplace_back(key.begin() + static_cast<std::ptrdiff_t>(first),
                      key.begin() + static_cast<std::ptrdiff_t>(first + count));
    sizes.push_back(o.t().extent(key, first, first + count));
  };
  const std::size_t nb = o.t().blocks.size();
  o.free_key.reserve(nb);
  o.contracted_key.reserve(nb);
  o.free_size.reserve(nb);
  o.contracted_size.reserve(nb);
  for (const auto& b : o.t().blocks) {
    part(b.key, first_free, o.free, o.free_key, o.free_size);
    part(b.key, first_contracted, nc, o.contracted_key, o.contracted_size);
  }
  return o;
}

// The leg labelled `label` of both operands of a contraction (`what`) has the same sectors (a
// logic error naming both otherwise: the caller paired the wrong legs).
inline void require_same_sectors(const char* what, int label, const Leg& a, const Leg& b) {
  if (!a.same_sectors(b))
    throw std::logic_error(std::string(what) + ": the legs labelled " + std::to_string(label) + " differ: " + a.describe() +
                           " and " + b.describe());
}

// A pair of operand blocks (a's, b's) and the output block they meet in. A contraction's pairs
// are kept in one flat list (a map of lists made two heap allocations per output block, most
// of the time a charged sweep with blocks a few indices wide spent outside its products).
struct BlockPair {
  BlockKey out;
  std::size_t a, b;
};
using BlockPairs = std::vector<BlockPair>;

// Indices 0 … keys.size() − 1 by their key: sorted by key, equal keys in index order.
struct KeyIndex {
  std::vector<std::pair<BlockKey, std::size_t>> sorted;
  explicit KeyIndex(std::vector<BlockKey> keys) {
    sorted.reserve(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i) sorted.emplace_back(std::move(keys[i]), i);
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  }
  // The entries of key `k`, in index order.
  auto of(const BlockKey& k) const {
    return std::equal_range(sorted.begin(), sorted.end(), std::pair<BlockKey, std::size_t>(k, 0),
                            [](const auto& x, const auto& y) { return x.first < y.first; });
  }
};

// The tensor whose blocks are the keys of `pairs`, each made by the GEMMs `product(out, pair)`
// describes over its pairs in order (the first overwrites, the rest accumulate): one chain per
// output block, all handed to the backend at once (Kernels::gemm_chains), their flops added to
// `flops`.
template <class T, class Product>
BlockTensor<T> made_by_pairs(Kernels<T>& K, std::vector<Leg> legs, std::vector<int> labels, BlockPairs pairs,
                             const Product& product, double* flops) {
  // By output block; an output block's pairs in the order they were found, which is the order
  // they are summed in.
  std::stable_sort(pairs.begin(), pairs.end(), [](const BlockPair& x, const BlockPair& y) { return x.out < y.out; });
  std::vector<BlockKey> keys;
  std::vector<std::size_t> first;  // each output block's first pair
  for (std::size_t i = 0; i < pairs.size(); ++i)
    if (i == 0 || pairs[i].out != pairs[i - 1].out) {
      keys.push_back(pairs[i].out);
      first.push_back(i);
    }
  first.push_back(pairs.size());
  BlockTensor<T> out = allocate_blocks(K, std::move(legs), std::move(labels), std::move(keys));
  std::vector<std::vector<GemmCall<T>>> chains(out.blocks.size());
  for (std::size_t o = 0; o < out.blocks.size(); ++o) {  // keys sorted: out's blocks in their order
    chains[o].reserve(first[o + 1] - first[o]);
    for (std::size_t p = first[o]; p < first[o + 1]; ++p) {
      GemmCall<T> g = product(out.at(out.blocks[o]), std::pair<std::size_t, std::size_t>(pairs[p].a, pairs[p].b));
      g.beta = p == first[o] ? T(0) : T(1);
      if (flops) *flops += gemm_flops<T>(g.m, g.n, g.k, g.batch);
      chains[o].push_back(g);
    }
  }
  K.gemm_chains(chains);
  return out;
}

template <class T>
BlockTensor<T> contract_impl(Kernels<T>& K, const BlockTensor<T>& a, const BlockTensor<T>& b, const std::vector<int>& over,
                             std::size_t batch, double* flops) {
  for (int l : over) require_same_sectors("contract", l, a.legs[a.axis(l)], b.legs[b.axis(l)]);
  const Operand<T> ap = operand(K, a, over, batch, true), bp = operand(K, b, over, batch, false);
  const BlockTensor<T>& at = ap.t();
  const BlockTensor<T>& bt = bp.t();
  // The result: the batch axis, a's free axes, b's free axes, each in its operand's order.
  std::vector<int> out_labels;
  std::vector<Leg> out_legs;
  for (std::size_t k = 0; k < batch; ++k) {
    out_labels.push_back(at.labels[k]);
    out_legs.push_back(at.legs[k]);
  }
  auto add_free = [&](const Operand<T>& o) {
    const std::size_t first = batch + (o.contracted_first ? over.size() : 0);
    for (std::size_t k = first; k < first + o.free; ++k) {
      out_labels.push_back(o.t().labels[k]);
      out_legs.push_back(o.t().legs[k]);
    }
  };
  add_free(ap);
  add_free(bp);

  const KeyIndex b_by_contracted(bp.contracted_key);
  BlockPairs pairs;
  for (std::size_t i = 0; i < at.blocks.size(); ++i)
    for (auto [it, end] = b_by_contracted.of(ap.contracted_key[i]); it != end; ++it) {
      const std::size_t jb = it->second;
      BlockKey key(at.blocks[i].key.begin(), at.blocks[i].key.begin() + static_cast<std::ptrdiff_t>(batch));
      key.insert(key.end(), ap.free_key[i].begin(), ap.free_key[i].end());
      key.insert(key.end(), bp.free_key[jb].begin(), bp.free_key[jb].end());
      pairs.push_back({std::move(key), i, jb});
    }
  const std::size_t nb = batch ? at.legs[0].size() : 1;
  // A stored (m × k) or, contracted first, (k × m); B stored (k × n) or (n × k).
  const Op op_a = ap.contracted_first ? Op::kTrans : Op::kNone, op_b = bp.contracted_first ? Op::kNone : Op::kTrans;
  auto product = [&](T* c, std::pair<std::size_t, std::size_t> pair) {
    const auto [ia, ib] = pair;
    const std::size_t m = ap.free_size[ia], kk = ap.contracted_size[ia], n = bp.free_size[ib];
    const std::size_t lda = ap.contracted_first ? m : kk, ldb = bp.contracted_first ? n : kk;
    return GemmCall<T>{op_a, op_b, m, n, kk, at.at(at.blocks[ia]), lda, m * kk, bt.at(bt.blocks[ib]), ldb, kk * n, T(0), c, n,
                       m * n, nb};
  };
  return made_by_pairs(K, std::move(out_legs), std::move(out_labels), std::move(pairs), product, flops);
}

}  // namespace

template <class T>
BlockTensor<T> contract(Kernels<T>& K, const BlockTensor<T>& a, const BlockTensor<T>& b, const std::vector<int>& over,
                        double* flops) {
  return contract_impl(K, a, b, over, 0, flops);
}

template <class T>
BlockTensor<T> contract_batched(Kernels<T>& K, const BlockTensor<T>& a, const BlockTensor<T>& b,
                                const std::vector<int>& over, double* flops) {
  if (a.rank() == 0 || b.rank() == 0 || a.labels[0] != b.labels[0] || a.legs[0].sectors() != 1 ||
      !a.legs[0].same_sectors(b.legs[0]))
    throw std::logic_error("contract_batched: both operands need the same one-sector batch axis first");
  return contract_impl(K, a, b, over, 1, flops);
}

template <class T>
BlockTensor<T> contract_in_place(Kernels<T>& K, const BlockTensor<T>& t, const BlockTensor<T>& op,
                                 const std::vector<int>& over, const std::vector<int>& op_free, double* flops) {
  const std::size_t first = t.axis(over.front()), nc = over.size();
  for (std::size_t i = 0; i < nc; ++i) {
    if (first + i >= t.rank() || t.labels[first + i] != over[i])
      throw std::logic_error("contract_in_place: the contracted axes are not one run of the tensor's");
    require_same_sectors("contract_in_place", over[i], t.legs[first + i], op.legs[op.axis(over[i])]);
  }
  std::vector<int> op_order = over;
  op_order.insert(op_order.end(), op_free.begin(), op_free.end());
  const BlockTensor<T> w = permute_to(K, op, op_order);  // (c…, g…): small
  const auto run = static_cast<std::ptrdiff_t>(first), after = static_cast<std::ptrdiff_t>(first + nc);
  std::vector<int> labels(t.labels.begin(), t.labels.begin() + run);
  std::vector<Leg> legs(t.legs.begin(), t.legs.begin() + run);
  for (std::size_t k = nc; k < w.rank(); ++k) {
    labels.push_back(w.labels[k]);
    legs.push_back(w.legs[k]);
  }
  labels.insert(labels.end(), t.labels.begin() + after, t.labels.end());
  legs.insert(legs.end(), t.legs.begin() + after, t.legs.end());
  std::vector<BlockKey> contracted;  // op's blocks' contracted keys
  contracted.reserve(w.blocks.size());
  for (const auto& b : w.blocks) contracted.emplace_back(b.key.begin(), b.key.begin() + static_cast<std::ptrdiff_t>(nc));
  const KeyIndex w_by_c(std::move(contracted));
  BlockPairs pairs;  // (t's block, op's block) and their output key
  for (std::size_t i = 0; i < t.blocks.size(); ++i) {
    const BlockKey& key = t.blocks[i].key;
    for (auto [it, end] = w_by_c.of(BlockKey(key.begin() + run, key.begin() + after)); it != end; ++it) {
      const std::size_t iw = it->second;
      BlockKey out(key.begin(), key.begin() + run);
      out.insert(out.end(), w.blocks[iw].key.begin() + static_cast<std::ptrdiff_t>(nc), w.blocks[iw].key.end());
      out.insert(out.end(), key.begin() + after, key.end());
      pairs.push_back({std::move(out), i, iw});
    }
  }
  auto product = [&](T* c, std::pair<std::size_t, std::size_t> pair) {
    const auto& tb = t.blocks[pair.first];
    const auto& wb = w.blocks[pair.second];
    const std::size_t lead = t.extent(tb.key, 0, first), kc = t.extent(tb.key, first, first + nc),
                      trail = t.extent(tb.key, first + nc, t.rank()), ng = wb.size / kc;
    // Per index before the run: (n_g × trail) += op's blockᵀ (n_g × k_c) · t's (k_c × trail).
    return GemmCall<T>{Op::kTrans, Op::kNone, ng, trail, kc, w.at(wb), ng, 0, t.at(tb), trail, kc * trail, T(0), c, trail,
                       ng * trail, lead};
  };
  return made_by_pairs(K, std::move(legs), std::move(labels), std::move(pairs), product, flops);
}

template <class T> BlockTensor<T> khatri_rao(Kernels<T>& K, const BlockTensor<T>& env, const BlockTensor<T>& omega) {
  if (omega.rank() != 3 || env.rank() < 1 || env.legs[0].size() != omega.legs[0].size())
    throw std::logic_error("khatri_rao: a sketch environment (a, L…) and a test tensor (a, x, y) of the same columns");
  const std::size_t s = env.legs[0].size();
  std::vector<Leg> legs{env.legs[0], omega.legs[1]};
  std::vector<int> labels{env.labels[0], omega.labels[1]};
  for (std::size_t k = 1; k < env.rank(); ++k) {
    legs.push_back(env.legs[k]);
    labels.push_back(env.labels[k]);
  }
  legs.push_back(omega.legs[2]);
  labels.push_back(omega.labels[2]);
  std::vector<BlockKey> keys;
  for (const auto& e : env.blocks)
    for (const auto& w : omega.blocks) {
      BlockKey key{0, w.key[1]};
      key.insert(key.end(), e.key.begin() + 1, e.key.end());
      key.push_back(w.key[2]);
      keys.push_back(std::move(key));
    }
  BlockTensor<T> out = allocate_blocks(K, std::move(legs), std::move(labels), keys);
  // One task per pair of blocks: each writes its own output block (environment-sized in all, so
  // threads add memory bandwidth).
  const std::size_t nw = omega.blocks.size();
  auto pair = [&](std::size_t i) {
    const auto& e = env.blocks[i / nw];
    const auto& w = omega.blocks[i % nw];
    const std::size_t nx = omega.legs[1].dims[w.key[1]], ny = omega.legs[2].dims[w.key[2]];
    K.khatri_rao(s, e.size / s, nx, ny, env.at(e), omega.at(w), out.at(*out.find(keys[i])));
  };
  const std::size_t pairs = env.blocks.size() * nw;
  if (K.concurrency() > 1 && pairs > 1) {
    K.for_each_task(pairs, pair);
  } else {
    for (std::size_t i = 0; i < pairs; ++i) pair(i);
  }
  return out;
}

template <class T>
BlockTensor<T> add_blocks(Kernels<T>& K, const std::vector<std::pair<const BlockTensor<T>*, double>>& parts) {
  const BlockTensor<T>& first = *parts.front().first;
  std::vector<BlockKey> keys;
  for (const auto& [t, alpha] : parts) {
    if (t->labels != first.labels)
      throw std::logic_error("add_blocks: tensors with different axes");
    for (std::size_t k = 0; k < t->rank(); ++k)
      if (!t->legs[k].same_sectors(first.legs[k]))
        throw std::logic_error("add_blocks: the legs labelled " + std::to_string(first.labels[k]) + " differ: " +
                               first.legs[k].describe() + " and " + t->legs[k].describe());
    for (const auto& b : t->blocks) keys.push_back(b.key);
  }
  BlockTensor<T> out = allocate_blocks(K, first.legs, first.labels, keys);
  K.zero(out.elements, out.data.data());
  for (const auto& [t, alpha] : parts)
    for (const auto& b : t->blocks) K.add(b.size, static_cast<real_t<T>>(alpha), t->at(b), out.at(*out.find(b.key)));
  return out;
}

template <class T> BlockTensor<T> stack_first(Kernels<T>& K, const std::vector<const BlockTensor<T>*>& parts) {
  const BlockTensor<T>& first = *parts.front();
  std::map<Charge, std::size_t, ChargeOrder> dims;
  std::vector<std::vector<std::size_t>> at(parts.size());  // per part and sector: its first row in the merged sector
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const BlockTensor<T>& t = *parts[i];
    if (t.labels != first.labels) throw std::logic_error("stack_first: tensors with different axes");
    for (std::size_t k = 1; k < t.rank(); ++k)
      if (!t.legs[k].same_sectors(first.legs[k])) throw std::logic_error("stack_first: legs differ beyond the first");
    for (std::size_t s = 0; s < t.legs[0].sectors(); ++s) {
      std::size_t& d = dims[t.legs[0].charges[s]];
      at[i].push_back(d);
      d += t.legs[0].dims[s];
    }
  }
  Leg leg;
  for (const auto& [q, d] : dims) {
    leg.charges.push_back(q);
    leg.dims.push_back(d);
  }
  auto merged_key = [&](const BlockTensor<T>& t, BlockKey key) {
    key[0] = static_cast<std::uint32_t>(leg.find(t.legs[0].charges[key[0]]));
    return key;
  };
  std::vector<BlockKey> keys;
  for (const auto* t : parts)
    for (const auto& b : t->blocks) keys.push_back(merged_key(*t, b.key));
  std::vector<Leg> legs = first.legs;
  legs[0] = leg;
  BlockTensor<T> out = allocate_blocks(K, std::move(legs), first.labels, std::move(keys));
  K.zero(out.elements, out.data.data());
  for (std::size_t i = 0; i < parts.size(); ++i)
    for (const auto& b : parts[i]->blocks) {
      // Row-major with the first axis slowest: the part's block is a run of the merged one.
      const std::size_t row = b.size / parts[i]->legs[0].dims[b.key[0]];
      K.copy(b.size, parts[i]->at(b), out.at(*out.find(merged_key(*parts[i], b.key))) + at[i][b.key[0]] * row);
    }
  return out;
}

template <class T>
BlockTensor<T> fuse_leading(Kernels<T>& K, const BlockTensor<T>& t, std::size_t count, const std::vector<int>& signs,
                            const ChargeRule& rule) {
  const std::vector<Leg> head(t.legs.begin(), t.legs.begin() + static_cast<std::ptrdiff_t>(count));
  std::map<BlockKey, std::pair<Charge, std::size_t>> place;  // combination → its charge, first index in the sector
  std::map<Charge, std::size_t, ChargeOrder> dims;
  for (const BlockKey& c : all_keys(head)) {
    Charge q(rule.count(), 0);
    std::size_t size = 1;
    for (std::size_t i = 0; i < count; ++i) {
      q = add_charge(rule, q, head[i].charges[c[i]], signs[i]);
      size *= head[i].dims[c[i]];
    }
    std::size_t& d = dims[q];
    place.emplace(c, std::make_pair(q, d));
    d += size;
  }
  Leg leg;
  for (const auto& [q, d] : dims) {
    leg.charges.push_back(q);
    leg.dims.push_back(d);
  }
  const auto split = static_cast<std::ptrdiff_t>(count);
  auto fused = [&](const BlockKey& key) {
    BlockKey out{static_cast<std::uint32_t>(leg.find(place.at(BlockKey(key.begin(), key.begin() + split)).first))};
    out.insert(out.end(), key.begin() + split, key.end());
    return out;
  };
  std::vector<BlockKey> keys;  // each block's key in the fused tensor
  for (const auto& b : t.blocks) keys.push_back(fused(b.key));
  std::vector<Leg> legs{leg};
  legs.insert(legs.end(), t.legs.begin() + split, t.legs.end());
  std::vector<int> labels{t.labels.front()};
  labels.insert(labels.end(), t.labels.begin() + split, t.labels.end());
  BlockTensor<T> out = allocate_blocks(K, std::move(legs), std::move(labels), keys);
  K.zero(out.elements, out.data.data());
  for (std::size_t i = 0; i < t.blocks.size(); ++i) {
    // Row-major with the fused axes slowest: the block is a run of rows of the fused one.
    const auto& b = t.blocks[i];
    std::size_t rows = 1;
    for (std::size_t a = 0; a < count; ++a) rows *= head[a].dims[b.key[a]];
    const std::size_t first = place.at(BlockKey(b.key.begin(), b.key.begin() + split)).second;
    K.copy(b.size, t.at(b), out.at(*out.find(keys[i])) + first * (b.size / rows));
  }
  return out;
}

template <class T> BlockTensor<T> conj_of(Kernels<T>& K, const BlockTensor<T>& t) {
  if constexpr (!is_complex_v<T>) {
    return t;
  } else {
    BlockTensor<T> out = t;
    out.data = K.allocate(std::max<std::size_t>(t.elements, 1));
    K.conj(t.elements, t.data.data(), out.data.data());
    return out;
  }
}

template <class T> double norm_of(Kernels<T>& K, const BlockTensor<T>& t) {
  return static_cast<double>(K.norm(t.elements, t.data.data()));
}

template <class T> void scale_by(Kernels<T>& K, BlockTensor<T>& t, double alpha) {
  K.scale(t.elements, static_cast<real_t<T>>(alpha), t.data.data());
}

#define SRCC_INSTANTIATE(T)                                                                                   \
  template BlockTensor<T> permute_to(Kernels<T>&, const BlockTensor<T>&, const std::vector<int>&);            \
  template BlockTensor<T> contract(Kernels<T>&, const BlockTensor<T>&, const BlockTensor<T>&,                 \
                                   const std::vector<int>&, double*);                                         \
  template BlockTensor<T> contract_batched(Kernels<T>&, const BlockTensor<T>&, const BlockTensor<T>&,         \
                                           const std::vector<int>&, double*);                                 \
  template BlockTensor<T> khatri_rao(Kernels<T>&, const BlockTensor<T>&, const BlockTensor<T>&);              \
  template BlockTensor<T> contract_in_place(Kernels<T>&, const BlockTensor<T>&, const BlockTensor<T>&,        \
                                            const std::vector<int>&, const std::vector<int>&, double*);       \
  template BlockTensor<T> add_blocks(Kernels<T>&, const std::vector<std::pair<const BlockTensor<T>*, double>>&); \
  template BlockTensor<T> stack_first(Kernels<T>&, const std::vector<const BlockTensor<T>*>&);                \
  template BlockTensor<T> fuse_leading(Kernels<T>&, const BlockTensor<T>&, std::size_t, const std::vector<int>&,       \
                                        const ChargeRule&);                                                          \
  template BlockTensor<T> conj_of(Kernels<T>&, const BlockTensor<T>&);                                        \
  template double norm_of(Kernels<T>&, const BlockTensor<T>&);                                                \
  template void scale_by(Kernels<T>&, BlockTensor<T>&, double);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
