#include "srcc/symmetric/block_exchange.hpp"

#include <cstring>
#include <stdexcept>

#include "srcc/core/dtype.hpp"

namespace srcc {

namespace {

class Packer {
 public:
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
  explicit Unpacker(const std::vector<std::byte>& in) : in_(in) {}
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
  bool done() const { return at_ == in_.size(); }

 private:
  const std::vector<std::byte>& in_;
  std::size_t at_ = 0;
};

}  // namespace

template <class T> std::vector<std::byte> packed_blocks(Kernels<T>& K, const BlockTensor<T>& t) {
  Packer p;
  p.value<std::uint64_t>(t.legs.size());
  for (const Leg& leg : t.legs) {
    p.value<std::uint64_t>(leg.charges.size());
    for (const Charge& q : leg.charges) p.values(q);
    p.values(leg.dims);
    p.values(leg.sector_of);
    p.values(leg.position_of);
  }
  p.values(t.labels);
  p.value<std::uint64_t>(t.blocks.size());
  for (const auto& b : t.blocks) {
    p.values(b.key);
    p.value<std::uint64_t>(b.offset);
    p.value<std::uint64_t>(b.size);
  }
  p.values(t.elements > 0 ? K.download(t.data, t.elements) : std::vector<T>{});
  return std::move(p.out);
}

template <class T> BlockTensor<T> unpacked_blocks(Kernels<T>& K, const std::vector<std::byte>& bytes) {
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
  std::vector<T> data = u.values<T>();
  if (!u.done() || t.labels.size() != t.legs.size()) throw std::runtime_error("a packed block tensor is malformed");
  t.elements = data.size();
  if (t.elements > 0) t.data = K.adopt(std::move(data));
  return t;
}

template <class T>
std::vector<BlockTensor<T>> every_term_blocks(Kernels<T>& K, RankExchange* ranks, const std::vector<const BlockTensor<T>*>& own,
                                              const std::string& what, std::int64_t site) {
  std::vector<BlockTensor<T>> out(own.size());
  std::vector<std::vector<std::byte>> mine;
  for (std::size_t k = 0; k < own.size(); ++k) {
    if (!own[k]) continue;
    out[k] = *own[k];
    if (ranks && ranks->spread()) mine.push_back(packed_blocks(K, *own[k]));
  }
  if (!ranks || !ranks->spread()) return out;
  const auto all = ranks->all_terms(mine, what, site);
  for (std::size_t k = 0; k < own.size(); ++k)
    if (!own[k]) out[k] = unpacked_blocks(K, all[k]);
  return out;
}

#define SRCC_INSTANTIATE(T)                                                                                  \
  template std::vector<std::byte> packed_blocks(Kernels<T>&, const BlockTensor<T>&);                         \
  template BlockTensor<T> unpacked_blocks(Kernels<T>&, const std::vector<std::byte>&);                       \
  template std::vector<BlockTensor<T>> every_term_blocks(Kernels<T>&, RankExchange*,                         \
                                                         const std::vector<const BlockTensor<T>*>&,          \
                                                         const std::string&, std::int64_t);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
