#include "srcc/symmetric/sector_svd.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <stdexcept>

#include "srcc/backend/cpu/cpu_backend.hpp"
#include "srcc/sweep/truncation.hpp"
#include "srcc/symmetric/block_ops.hpp"

namespace srcc {

namespace {

// Each group's matrix, made by gather(group) (A) or gather_adjoint(group) (Aᴴ), factorised as
// `how` says. The sectors are independent: one task each — its matrix gathered, factorised and
// let go — the largest first, so that threads share the many small SVDs of a cut (inside a task
// LAPACK runs on its one thread; the same calls, so the same numbers, on any number of threads).
template <class T, class Gather, class GatherAdjoint>
void factorize_groups(Kernels<T>& K, SectorSvd<T>& out, const Gather& gather, const GatherAdjoint& gather_adjoint,
                      Factorization how, const std::vector<bool>& mine) {
  auto one = [&](std::size_t i) {
    auto& g = out.groups[i];
    const std::size_t k = std::min(g.m, g.n);
    if (how == Factorization::kQr) {
      Buffer<T> a = gather(i);
      g.vt = K.allocate(k * g.n);
      g.sigma.assign(k, real_t<T>(1));
      K.qr(g.m, g.n, a.data(), g.vt.data());
      g.u = std::move(a);
    } else if ((how == Factorization::kSvdLeft && g.m < g.n) || how == Factorization::kAdjointR) {
      // Only U and σ: A = R^H Q^H from the QR of A^H (n × m), then the SVD of the m × m R^H. No
      // n-long right factor is formed, and the values are as accurate as A's own SVD (a Gram
      // matrix, cheaper still, loses every σ below √ε·σ_max: the very values a truncation of a
      // physical state decides on).
      const std::size_t rows = std::min(g.n, g.m);
      Buffer<T> ah = gather_adjoint(i), r = K.allocate(rows * g.m);
      K.qr_r(g.n, g.m, ah.data(), r.data());
      ah = Buffer<T>();
      if (how == Factorization::kAdjointR) g.vt = std::move(r);
      else left_svd_of_adjoint(K, g, r, rows);
    } else if (how == Factorization::kSvdLeft) {
      Buffer<T> a = gather(i);
      g.u = K.allocate(g.m * k);
      g.sigma.resize(k);
      K.left_svd(g.m, g.n, a.data(), g.u.data(), g.sigma.data());
    } else {
      Buffer<T> a = gather(i);
      g.u = K.allocate(g.m * k);
      g.vt = K.allocate(k * g.n);
      g.sigma.resize(k);
      K.svd(g.m, g.n, a.data(), g.u.data(), g.sigma.data(), g.vt.data());
    }
  };
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < out.groups.size(); ++i)
    if (mine.empty() || mine[i]) order.push_back(i);
  auto cost = [&](std::size_t i) { return sector_cost<T>(out.groups[i]); };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return cost(x) > cost(y); });
  if (order.size() > 1 && K.concurrency() > 1)
    K.for_each_task(order.size(), [&](std::size_t t) { one(order[t]); });
  else
    for (std::size_t i : order) one(i);
}

}  // namespace

template <class T>
void left_svd_of_adjoint(Kernels<T>& K, typename SectorSvd<T>::Group& g, const Buffer<T>& b, std::size_t rows) {
  const std::size_t k = std::min(rows, g.m);
  Buffer<T> bh = K.allocate(g.m * rows);
  K.swap_axes(1, rows, 1, g.m, 1, b.data(), bh.data());  // Bᵀ, column-major m × rows
  K.conj(g.m * rows, bh.data(), bh.data());
  g.u = K.allocate(g.m * k);
  g.sigma.resize(k);
  K.left_svd(g.m, rows, bh.data(), g.u.data(), g.sigma.data());
}

template <class T>
SectorSvd<T> sector_svd(Kernels<T>& K, const BlockTensor<T>& t, const std::vector<int>& row_labels,
                        const std::vector<int>& row_signs, const ChargeRule& rule, Factorization how,
                        const SectorShare<T>& share) {
  if (K.moves_data()) {
    // A device's sectors are factorised on the host: a cut's tens of SVDs and QRs of a few dozen
    // to a few hundred rows are each a sequence of launches and a synchronisation on a GPU, where
    // the host's LAPACK takes them in well under a millisecond. The tensor goes down once, the
    // factors come up.
    std::unique_lock<std::recursive_mutex> lock;
    Kernels<T>& H = host_kernels(K, lock);
    SectorSvd<T> out = sector_svd(H, moved_to(K, H, t), row_labels, row_signs, rule, how, share);
    for (auto& g : out.groups) {
      g.u = moved_to(H, K, std::move(g.u));
      g.vt = moved_to(H, K, std::move(g.vt));
    }
    return out;
  }
  SectorSvd<T> out;
  out.row_labels = row_labels;
  for (std::size_t k = 0; k < t.rank(); ++k)
    if (std::find(row_labels.begin(), row_labels.end(), t.labels[k]) == row_labels.end())
      out.col_labels.push_back(t.labels[k]);
  // Each block, columns first, is a column-major (rows × columns) piece of its sector's matrix;
  // rows first, a piece of its adjoint's. Where the adjoints are factorised (kSvdLeft — mostly
  // sectors with fewer rows than columns — and kAdjointR) the tensor is laid out rows first
  // (the sweep's sketches already lie so), else columns first.
  const bool adjoint_layout = how == Factorization::kSvdLeft || how == Factorization::kAdjointR;
  std::vector<int> order = adjoint_layout ? row_labels : out.col_labels;
  const std::vector<int>& then = adjoint_layout ? out.col_labels : row_labels;
  order.insert(order.end(), then.begin(), then.end());
  const BlockTensor<T> p = permute_to(K, t, order);
  const std::size_t nc = out.col_labels.size(), nr = row_labels.size();
  // Block keys as (columns…, rows…), whichever way p lies.
  auto cols_rows = [&](const BlockKey& key) {
    if (!adjoint_layout) return key;
    BlockKey out_key(key.begin() + static_cast<std::ptrdiff_t>(nr), key.end());
    out_key.insert(out_key.end(), key.begin(), key.begin() + static_cast<std::ptrdiff_t>(nr));
    return out_key;
  };
  for (std::size_t k = 0; k < nc; ++k) out.col_legs.push_back(p.legs[adjoint_layout ? nr + k : k]);
  for (std::size_t k = 0; k < nr; ++k) out.row_legs.push_back(p.legs[adjoint_layout ? k : nc + k]);

  const std::size_t nq = rule.count();
  std::map<Charge, std::size_t, ChargeOrder> index;
  std::vector<std::vector<std::size_t>> members;
  for (std::size_t i = 0; i < p.blocks.size(); ++i) {
    const BlockKey key = cols_rows(p.blocks[i].key);
    Charge q(nq, 0);
    for (std::size_t r = 0; r < row_labels.size(); ++r)
      q = add_charge(rule, q, out.row_legs[r].charges[key[nc + r]], row_signs[r]);
    const auto [it, fresh] = index.emplace(q, index.size());
    if (fresh) members.emplace_back();
    members[it->second].push_back(i);
  }
  // Per group, where each of its blocks goes in its matrix: the block, its first row and column, its rows.
  struct Piece {
    std::size_t block, row, col, rows;
  };
  std::vector<std::vector<Piece>> pieces;
  for (const auto& [q, gi] : index) {
    typename SectorSvd<T>::Group g;
    g.charge = q;
    std::map<BlockKey, std::size_t> rows, cols;
    for (std::size_t i : members[gi]) {
      const BlockKey key = cols_rows(p.blocks[i].key);
      cols.emplace(BlockKey(key.begin(), key.begin() + static_cast<std::ptrdiff_t>(nc)), 0);
      rows.emplace(BlockKey(key.begin() + static_cast<std::ptrdiff_t>(nc), key.end()), 0);
    }
    auto lay_out = [](std::map<BlockKey, std::size_t>& m, const std::vector<Leg>& legs,
                      std::vector<BlockKey>& keys, std::vector<std::size_t>& offsets) {
      std::size_t at = 0;
      for (auto& [key, off] : m) {
        off = at;
        keys.push_back(key);
        offsets.push_back(at);
        std::size_t size = 1;
        for (std::size_t k = 0; k < key.size(); ++k) size *= legs[k].dims[key[k]];
        at += size;
      }
      return at;
    };
    g.m = lay_out(rows, out.row_legs, g.row_keys, g.row_offset);
    g.n = lay_out(cols, out.col_legs, g.col_keys, g.col_offset);
    auto& list = pieces.emplace_back();
    for (std::size_t i : members[gi]) {
      const BlockKey key = cols_rows(p.blocks[i].key);
      const BlockKey ck(key.begin(), key.begin() + static_cast<std::ptrdiff_t>(nc));
      const BlockKey rk(key.begin() + static_cast<std::ptrdiff_t>(nc), key.end());
      std::size_t rb = 1;
      for (std::size_t k = 0; k < rk.size(); ++k) rb *= out.row_legs[k].dims[rk[k]];
      list.push_back({i, rows.at(rk), cols.at(ck), rb});
    }
    out.groups.push_back(std::move(g));
  }
  // A group's column-major matrix from its blocks (absent ones zero) as p lies: A (m × n) from
  // columns-first blocks, Aᵀ (n × m) from rows-first ones.
  auto gather_as_lies = [&](std::size_t gi) {
    const auto& g = out.groups[gi];
    Buffer<T> a = K.allocate(g.m * g.n);
    K.zero(g.m * g.n, a.data());
    for (const Piece& x : pieces[gi]) {
      const auto& b = p.blocks[x.block];
      if (adjoint_layout) {
        const std::size_t cols = b.size / x.rows;
        K.copy_runs(x.rows, cols, p.at(b), cols, a.data() + x.row * g.n + x.col, g.n);
      } else {
        K.copy_runs(b.size / x.rows, x.rows, p.at(b), x.rows, a.data() + x.col * g.m + x.row, g.m);
      }
    }
    return a;
  };
  // The other of A and Aᵀ from the one gathered: a transposition (Aᵀ, n × m, to A, or A to Aᵀ).
  auto transposed = [&](std::size_t gi, const Buffer<T>& a) {
    const auto& g = out.groups[gi];
    Buffer<T> at = K.allocate(g.m * g.n);
    if (adjoint_layout) K.swap_axes(1, g.m, 1, g.n, 1, a.data(), at.data());
    else K.swap_axes(1, g.n, 1, g.m, 1, a.data(), at.data());
    return at;
  };
  auto gather = [&](std::size_t gi) {
    Buffer<T> a = gather_as_lies(gi);
    return adjoint_layout ? transposed(gi, a) : a;
  };
  auto gather_adjoint = [&](std::size_t gi) {
    const auto& g = out.groups[gi];
    Buffer<T> a = gather_as_lies(gi);
    if (!adjoint_layout) a = transposed(gi, a);
    K.conj(g.n * g.m, a.data(), a.data());
    return a;
  };
  factorize_groups(K, out, gather, gather_adjoint, how, share ? share(out) : std::vector<bool>{});
  return out;
}

template <class T>
double choose_ranks(SectorSvd<T>& svd, std::size_t cap, double cutoff, double tol, double& total,
                    const std::vector<std::size_t>& sector_caps) {
  using R = real_t<T>;
  struct Value {
    R sigma;
    std::size_t group, index;
  };
  std::vector<Value> all;
  for (std::size_t g = 0; g < svd.groups.size(); ++g) {
    const auto& sg = svd.groups[g].sigma;
    const std::size_t most = sector_caps.empty() ? sg.size() : std::min(sg.size(), sector_caps[g]);
    for (std::size_t i = 0; i < most; ++i) all.push_back({sg[i], g, i});
  }
  // Descending; ties in group then index order, so that the choice is reproducible.
  std::stable_sort(all.begin(), all.end(), [](const Value& a, const Value& b) { return a.sigma > b.sigma; });
  std::vector<R> sigma;
  for (const auto& v : all) sigma.push_back(v.sigma);
  const std::size_t rank = all.empty() ? 0 : truncation_rank(sigma, cutoff, tol, cap);
  for (auto& g : svd.groups) g.keep = 0;
  for (std::size_t i = 0; i < rank; ++i) ++svd.groups[all[i].group].keep;
  double kept2 = 0, dropped2 = 0;
  for (std::size_t i = 0; i < sigma.size(); ++i) (i < rank ? kept2 : dropped2) += double(sigma[i]) * double(sigma[i]);
  total = std::sqrt(kept2 + dropped2);
  return std::sqrt(dropped2);
}

namespace {

template <class T> Leg kept_leg(const SectorSvd<T>& svd, const std::vector<Charge>& new_charges) {
  Leg leg;
  for (std::size_t g = 0; g < svd.groups.size(); ++g)
    if (svd.groups[g].keep > 0) {
      leg.charges.push_back(new_charges.at(g));
      leg.dims.push_back(svd.groups[g].keep);
    }
  // The sectors must be in charge order for a leg: new charges are a bijection of group charges,
  // so sort them together.
  std::vector<std::size_t> idx(leg.charges.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return ChargeOrder()(leg.charges[a], leg.charges[b]); });
  Leg sorted;
  for (std::size_t i : idx) {
    sorted.charges.push_back(leg.charges[i]);
    sorted.dims.push_back(leg.dims[i]);
  }
  return sorted;
}

}  // namespace

namespace {

// A factor as a tensor (new, side…): the new leg of the kept sectors, then the row (or column)
// axes, one block per kept group and row (column) combination; `fill(group, combo, block, size)`
// writes each block.
template <class T, class Fill>
BlockTensor<T> factor_tensor(Kernels<T>& K, const SectorSvd<T>& svd, int label, const std::vector<Charge>& new_charges,
                             bool rows, Fill fill) {
  const Leg leg = kept_leg(svd, new_charges);
  std::vector<Leg> legs{leg};
  const auto& side_legs = rows ? svd.row_legs : svd.col_legs;
  const auto& side_labels = rows ? svd.row_labels : svd.col_labels;
  legs.insert(legs.end(), side_legs.begin(), side_legs.end());
  std::vector<int> labels{label};
  labels.insert(labels.end(), side_labels.begin(), side_labels.end());
  std::vector<BlockKey> keys;
  std::vector<std::pair<std::size_t, std::size_t>> from;  // group, combination
  for (std::size_t g = 0; g < svd.groups.size(); ++g) {
    if (svd.groups[g].keep == 0) continue;
    const auto sector = static_cast<std::uint32_t>(leg.find(new_charges[g]));
    const auto& combos = rows ? svd.groups[g].row_keys : svd.groups[g].col_keys;
    for (std::size_t c = 0; c < combos.size(); ++c) {
      BlockKey key{sector};
      key.insert(key.end(), combos[c].begin(), combos[c].end());
      keys.push_back(std::move(key));
      from.emplace_back(g, c);
    }
  }
  BlockTensor<T> out = allocate_blocks(K, std::move(legs), std::move(labels), keys);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const auto* b = out.find(keys[i]);
    fill(svd.groups[from[i].first], from[i].second, out.at(*b), b->size);
  }
  return out;
}

}  // namespace

template <class T>
BlockTensor<T> left_factor(Kernels<T>& K, const SectorSvd<T>& svd, int label, const std::vector<Charge>& new_charges) {
  return factor_tensor(K, svd, label, new_charges, true,
                       [&](const typename SectorSvd<T>::Group& g, std::size_t combo, T* block, std::size_t size) {
                         // Block (kept × rb) row-major: element (l, x) = U[offset + x, l].
                         const std::size_t rb = size / g.keep;
                         K.copy_runs(g.keep, rb, g.u.data() + g.row_offset[combo], g.m, block, rb);
                       });
}

template <class T>
BlockTensor<T> right_factor(Kernels<T>& K, const SectorSvd<T>& svd, int label, const std::vector<Charge>& new_charges) {
  return factor_tensor(K, svd, label, new_charges, false,
                       [&](const typename SectorSvd<T>::Group& g, std::size_t combo, T* block, std::size_t size) {
                         // Vᵀ's columns of this combination are a row-major (nb × k) array:
                         // transposed, its first `keep` rows are the block, each scaled by its σ.
                         const std::size_t nb = size / g.keep, k = g.sigma.size();
                         Buffer<T> tr = K.allocate(nb * k);
                         K.swap_axes(1, nb, 1, k, 1, g.vt.data() + g.col_offset[combo] * k, tr.data());
                         K.copy(g.keep * nb, tr.data(), block);
                         for (std::size_t l = 0; l < g.keep; ++l) K.scale(nb, g.sigma[l], block + l * nb);
                       });
}

#define SRCC_INSTANTIATE(T)                                                                                   \
  template SectorSvd<T> sector_svd(Kernels<T>&, const BlockTensor<T>&, const std::vector<int>&,               \
                                   const std::vector<int>&, const ChargeRule&, Factorization,                 \
                                   const SectorShare<T>&);                                                    \
  template void left_svd_of_adjoint(Kernels<T>&, typename SectorSvd<T>::Group&, const Buffer<T>&, std::size_t); \
  template double choose_ranks(SectorSvd<T>&, std::size_t, double, double, double&,                           \
                               const std::vector<std::size_t>&);                                             \
  template BlockTensor<T> left_factor(Kernels<T>&, const SectorSvd<T>&, int, const std::vector<Charge>&);     \
  template BlockTensor<T> right_factor(Kernels<T>&, const SectorSvd<T>&, int, const std::vector<Charge>&);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
