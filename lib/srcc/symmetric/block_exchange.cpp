#include "srcc/symmetric/block_exchange.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "srcc/core/dtype.hpp"
#include "srcc/symmetric/block_ops.hpp"

namespace srcc {

namespace {

class Packer {
 public:
  void reserve(std::size_t n) { out.reserve(n); }
  void put(const void* p, std::size_t n) {
    const auto* b = static_cast<const std::byte*>(p);
    out.insert(out.end(), b, b + n);
  }
  template <class V> void value(V v) { put(&v, sizeof v); }
  template <class V> void values(const std::vector<V>& v) {
    value<std::uint64_t>(v.size());
    put(v.data(), v.size() * sizeof(V));
  }
  std::vector<std::byte> out;
};

class Unpacker {
 public:
  explicit Unpacker(std::span<const std::byte> in) : in_(in) {}
  void get(void* p, std::size_t n) {
    if (n > in_.size() - at_) throw std::runtime_error("a packed block tensor ends early");
    std::memcpy(p, in_.data() + at_, n);
    at_ += n;
  }
  template <class V> V value() {
    V v;
    get(&v, sizeof v);
    return v;
  }
  template <class V> std::vector<V> values() {
    const auto n = value<std::uint64_t>();
    if (n > (in_.size() - at_) / sizeof(V)) throw std::runtime_error("a packed block tensor ends early");
    std::vector<V> v(n);
    get(v.data(), n * sizeof(V));
    return v;
  }
  // The next `values` vector's elements straight into a host buffer of K (one copy), or into a
  // vector that K adopts (a device backend uploads it).
  template <class T> Buffer<T> elements(Kernels<T>& K, std::size_t& n) {
    if (K.moves_data()) {
      std::vector<T> v = values<T>();
      n = v.size();
      return n > 0 ? K.adopt(std::move(v)) : Buffer<T>();
    }
    n = value<std::uint64_t>();
    if (n > (in_.size() - at_) / sizeof(T)) throw std::runtime_error("a packed block tensor ends early");
    if (n == 0) return Buffer<T>();
    Buffer<T> b = K.allocate(n);
    get(b.data(), n * sizeof(T));
    return b;
  }
  bool done() const { return at_ == in_.size(); }

 private:
  std::span<const std::byte> in_;
  std::size_t at_ = 0;
};

}  // namespace

template <class T> std::vector<std::byte> packed_blocks(Kernels<T>& K, const BlockTensor<T>& t) {
  Packer p;
  std::size_t header = 64 * (t.blocks.size() + 1) + 64 * t.labels.size();
  for (const Leg& leg : t.legs) header += leg.charges.size() * 64 + (leg.dims.size() + leg.sector_of.size() + leg.position_of.size()) * 8;
  p.reserve(header + t.elements * sizeof(T));
  p.value<std::uint64_t>(t.legs.size());
  for (const Leg& leg : t.legs) {
    p.value<std::uint64_t>(leg.charges.size());
    for (const Charge& q : leg.charges) p.values(std::vector<long long>(q));
    p.values(leg.dims);
    p.values(leg.sector_of);
    p.values(leg.position_of);
  }
  p.values(t.labels);
  p.value<std::uint64_t>(t.blocks.size());
  for (const auto& b : t.blocks) {
    p.values(std::vector<std::uint32_t>(b.key));
    p.value<std::uint64_t>(b.offset);
    p.value<std::uint64_t>(b.size);
  }
  if (t.elements > 0 && !K.moves_data()) {  // host elements as they lie
    p.value<std::uint64_t>(t.elements);
    p.put(t.data.data(), t.elements * sizeof(T));
  } else {
    p.values(t.elements > 0 ? K.download(t.data, t.elements) : std::vector<T>{});
  }
  return std::move(p.out);
}

template <class T> BlockTensor<T> unpacked_blocks(Kernels<T>& K, std::span<const std::byte> bytes) {
  Unpacker u(bytes);
  BlockTensor<T> t;
  t.legs.resize(u.value<std::uint64_t>());
  for (Leg& leg : t.legs) {
    leg.charges.resize(u.value<std::uint64_t>());
    for (Charge& q : leg.charges) q = u.values<long long>();
    leg.dims = u.values<std::size_t>();
    leg.sector_of = u.values<std::size_t>();
    leg.position_of = u.values<std::size_t>();
  }
  t.labels = u.values<int>();
  t.blocks.resize(u.value<std::uint64_t>());
  for (auto& b : t.blocks) {
    b.key = u.values<std::uint32_t>();
    b.offset = u.value<std::uint64_t>();
    b.size = u.value<std::uint64_t>();
  }
  t.data = u.elements(K, t.elements);
  if (!u.done() || t.labels.size() != t.legs.size()) throw std::runtime_error("a packed block tensor is malformed");
  return t;
}

template <class T>
std::vector<BlockTensor<T>> every_term_blocks(Kernels<T>& K, RankExchange* ranks, const std::vector<ChargedTerm<T>>& terms,
                                              const std::vector<BlockTensor<T>>& tensors, const std::string& what,
                                              std::int64_t site) {
  std::vector<BlockTensor<T>> out = tensors;  // shallow: the elements are shared
  if (!ranks || !ranks->spread()) return out;
  std::vector<std::vector<std::byte>> mine;
  for (std::size_t k = 0; k < terms.size(); ++k)
    if (terms[k].stack) mine.push_back(packed_blocks(K, tensors[k]));
  const auto all = ranks->all_term_bytes(std::vector<std::span<const std::byte>>(mine.begin(), mine.end()), what, site);
  for (std::size_t k = 0; k < terms.size(); ++k)
    if (!terms[k].stack) out[k] = unpacked_blocks(K, all[k]);
  return out;
}

namespace {

// Which rank factorises each sector: the largest first, each to the least loaded rank.
template <class T> std::vector<int> sector_owners(const SectorSvd<T>& svd, int ranks) {
  std::vector<std::size_t> order(svd.groups.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return sector_cost<T>(svd.groups[a]) > sector_cost<T>(svd.groups[b]); });
  std::vector<double> load(static_cast<std::size_t>(ranks), 0.0);
  std::vector<int> owner(svd.groups.size(), 0);
  for (std::size_t g : order) {
    const auto least = static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    owner[g] = static_cast<int>(least);
    load[least] += static_cast<double>(sector_cost<T>(svd.groups[g])) + 1.0;
  }
  return owner;
}

}  // namespace

template <class T> SectorShare<T> dealt_sectors(const RankExchange& ranks) {
  const int rank = ranks.rank(), size = ranks.size();
  return [rank, size](const SectorSvd<T>& svd) {
    const auto owner = sector_owners(svd, size);
    std::vector<bool> mine(owner.size());
    for (std::size_t g = 0; g < owner.size(); ++g) mine[g] = owner[g] == rank;
    return mine;
  };
}

template <class T> void share_sector_factors(Kernels<T>& K, RankExchange& ranks, SectorSvd<T>& svd, std::int64_t site) {
  using R = real_t<T>;
  const auto owner = sector_owners(svd, ranks.size());
  Packer p;
  for (std::size_t g = 0; g < svd.groups.size(); ++g) {
    if (owner[g] != ranks.rank()) continue;
    const auto& group = svd.groups[g];
    p.value<std::uint64_t>(g);
    p.values(group.sigma);
    p.values(K.download(group.u, group.m * group.sigma.size()));
  }
  const auto all = ranks.joined(p.out, "sector factors", site);
  Unpacker u(all);
  while (!u.done()) {
    const auto g = static_cast<std::size_t>(u.value<std::uint64_t>());
    if (g >= svd.groups.size()) throw std::runtime_error("the ranks' sector factors do not match their sectors");
    auto& group = svd.groups[g];
    std::vector<R> sigma = u.values<R>();
    std::vector<T> factor = u.values<T>();
    if (owner[g] == ranks.rank()) continue;  // this rank's own, sent back to it
    if (factor.size() != group.m * sigma.size()) throw std::runtime_error("the ranks' sector factors do not match their sectors");
    group.sigma = std::move(sigma);
    group.u = K.adopt(std::move(factor));
  }
}

template <class T>
SectorSvd<T> split_sector_svd(Kernels<T>& K, RankExchange& ranks, const BlockTensor<T>& mine,
                              const std::vector<int>& row_labels, const std::vector<int>& row_signs,
                              const ChargeRule& rule, std::int64_t site) {
  SectorSvd<T> svd = sector_svd(K, mine, row_labels, row_signs, rule, Factorization::kAdjointR);
  // Every rank's R factor of every sector, and each sector's whole width.
  Packer p;
  for (const auto& g : svd.groups) {
    p.value<std::uint64_t>(std::min(g.n, g.m));
    p.values(K.download(g.vt, std::min(g.n, g.m) * g.m));
  }
  const auto all = ranks.joined(p.out, "sector R factors", site);
  std::vector<std::vector<std::vector<T>>> parts(svd.groups.size());  // per group, per rank: k_r × m
  std::vector<std::size_t> width(svd.groups.size(), 0);
  Unpacker u(all);
  for (int r = 0; r < ranks.size(); ++r)
    for (std::size_t g = 0; g < svd.groups.size(); ++g) {
      width[g] += static_cast<std::size_t>(u.value<std::uint64_t>());
      parts[g].push_back(u.values<T>());
    }
  if (!u.done()) throw std::runtime_error("the ranks' sector R factors do not match their sectors");
  for (std::size_t g = 0; g < svd.groups.size(); ++g) {
    svd.groups[g].vt = Buffer<T>();
    svd.groups[g].n = width[g];  // the whole sector's columns, on which the deal is made
  }
  const std::vector<bool> own = dealt_sectors<T>(ranks)(svd);
  for (std::size_t g = 0; g < svd.groups.size(); ++g) {
    if (!own[g]) continue;
    auto& group = svd.groups[g];
    const std::size_t m = group.m, rows = width[g];
    // The R factors stacked in rank order, column-major (rows × m).
    std::vector<T> stacked(rows * m);
    std::size_t first = 0;
    for (const auto& part : parts[g]) {
      const std::size_t k = part.size() / std::max<std::size_t>(m, 1);
      for (std::size_t c = 0; c < m; ++c)
        std::copy(part.begin() + static_cast<std::ptrdiff_t>(c * k), part.begin() + static_cast<std::ptrdiff_t>((c + 1) * k),
                  stacked.begin() + static_cast<std::ptrdiff_t>(c * rows + first));
      first += k;
    }
    Buffer<T> b = K.adopt(std::move(stacked));
    if (rows > m) {  // Aᴴ = Q·R: its R, m × m
      Buffer<T> r = K.allocate(m * m);
      K.qr_r(rows, m, b.data(), r.data());
      left_svd_of_adjoint(K, group, r, m);
    } else {
      left_svd_of_adjoint(K, group, b, rows);
    }
  }
  share_sector_factors(K, ranks, svd, site);
  return svd;
}

#define SRCC_INSTANTIATE(T)                                                                                  \
  template std::vector<std::byte> packed_blocks(Kernels<T>&, const BlockTensor<T>&);                         \
  template BlockTensor<T> unpacked_blocks(Kernels<T>&, std::span<const std::byte>);                            \
  template std::vector<BlockTensor<T>> every_term_blocks(Kernels<T>&, RankExchange*,                         \
                                                         const std::vector<ChargedTerm<T>>&,                 \
                                                         const std::vector<BlockTensor<T>>&,                 \
                                                         const std::string&, std::int64_t);                  \
  template SectorSvd<T> split_sector_svd(Kernels<T>&, RankExchange&, const BlockTensor<T>&, const std::vector<int>&, \
                                         const std::vector<int>&, const ChargeRule&, std::int64_t);              \
  template SectorShare<T> dealt_sectors(const RankExchange&);                                                \
  template void share_sector_factors(Kernels<T>&, RankExchange&, SectorSvd<T>&, std::int64_t);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
