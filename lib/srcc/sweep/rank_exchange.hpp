#pragma once
// How one sweep is shared by MPI ranks (parallel/ranks.hpp), and its exchanges, each logged as a
// `rank exchange` row of /log/transfers (docs/ALGORITHM.md, "Over MPI ranks").
//
// A sum's terms are dealt (kTerms): term k to rank k mod R, so that a Taylor polynomial's terms,
// which grow in cost with their power, spread evenly. Each rank sweeps its own terms; what the
// right sweep needs of all terms at once (each cut's sketch, the norms of Z', the first core)
// is gathered whole, in term order, and added on every rank in the order one process adds it,
// so the result does not depend on R. On charges both ways are taken with block tensors sent
// packed, and each cut's sector SVDs dealt to the ranks (symmetric/block_exchange.hpp).
//
// One product's sketch columns are split (kColumns): each rank draws every column (the draws do
// not depend on the split) and keeps a contiguous share of them, sweeping their environments;
// in the right sweep each rank holds a share of S's rows, computes those rows of Z', and the
// rows are gathered; each rank computes its columns of the sketch, gathered too, and its share
// of the next S's rows.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "srcc/log/transfer_log.hpp"
#include "srcc/parallel/ranks.hpp"

namespace srcc {

// Rank r's contiguous share of `count` items (columns, rows) over `ranks` ranks: the first ones
// to the first ranks, at most one more than another's.
struct ContiguousShare {
  std::size_t first = 0, count = 0;
};
inline ContiguousShare contiguous_share(std::size_t count, std::size_t ranks, std::size_t r) {
  const std::size_t base = count / ranks, extra = count % ranks;
  return {r * base + std::min(r, extra), base + (r < extra ? 1 : 0)};
}

class RankExchange {
 public:
  enum class Mode { kAlone, kTerms, kColumns };

  // `ranks` null or of one rank: this process alone. `wait` runs while an exchange is in flight.
  RankExchange(Ranks* ranks, Mode mode, std::size_t terms, WaitCheck wait, TransferLog& log)
      : ranks_(ranks && ranks->size() > 1 ? ranks : nullptr),
        mode_(ranks_ ? mode : Mode::kAlone),
        terms_(terms),
        wait_(std::move(wait)),
        log_(log) {}

  bool spread() const { return ranks_ != nullptr; }
  bool terms_dealt() const { return mode_ == Mode::kTerms; }
  bool columns_split() const { return mode_ == Mode::kColumns; }
  int rank() const { return ranks_ ? ranks_->rank() : 0; }
  int size() const { return ranks_ ? ranks_->size() : 1; }
  bool mine(std::size_t k) const { return mode_ != Mode::kTerms || static_cast<int>(k % size()) == rank(); }

  // This rank's contiguous share of `count` items (columns, rows): contiguous_share.
  using Share = ContiguousShare;
  Share share(std::size_t count) const { return share_of(count, static_cast<std::size_t>(rank())); }
  Share share_of(std::size_t count, std::size_t r) const { return contiguous_share(count, size(), r); }

  // The ranks' shares of `count` items of `each` values, concatenated in rank order into `out`,
  // from this rank's share at `mine`; only the items before `upto` (all by default) are taken.
  // Host memory both, as a CPU backend's buffers are: no copy on either side.
  template <class V>
  void join_shares(const V* mine, V* out, std::size_t count, std::size_t each, const std::string& what,
                   std::int64_t site, std::size_t upto = SIZE_MAX) {
    upto = std::min(upto, count);
    if (!ranks_) {
      if (out != mine) std::memcpy(out, mine, upto * each * sizeof(V));
      return;
    }
    std::vector<std::size_t> bytes(size());
    for (std::size_t r = 0; r < bytes.size(); ++r) {
      const Share s = share_of(count, r);
      bytes[r] = (s.first < upto ? std::min(s.count, upto - s.first) : 0) * each * sizeof(V);
    }
    const auto t0 = Clock::now();
    ranks_->all_gather_known(mine, out, bytes, wait_);
    note(what, site, upto * each * sizeof(V), t0);
  }

  // Every term's vector in term order, from this rank's own terms' (in term order).
  template <class V>
  std::vector<std::vector<V>> all_terms(const std::vector<std::vector<V>>& own, const std::string& what,
                                        std::int64_t site) {
    if (!ranks_) return own;
    std::vector<std::byte> packed;
    for (const auto& v : own) {
      const std::uint64_t n = v.size();
      append(packed, &n, sizeof n);
      append(packed, v.data(), n * sizeof(V));
    }
    std::vector<std::size_t> sizes;
    const auto t0 = Clock::now();
    const auto all = ranks_->all_gather(packed.data(), packed.size(), sizes, wait_);
    note(what, site, all.size(), t0);
    std::vector<std::vector<V>> out(terms_);
    const std::size_t R = sizes.size();
    std::size_t at = 0;
    for (std::size_t r = 0; r < R; ++r)
      for (std::size_t k = r; k < terms_; k += R) {
        std::uint64_t n = 0;
        std::memcpy(&n, all.data() + at, sizeof n);
        at += sizeof n;
        out[k].resize(n);
        std::memcpy(out[k].data(), all.data() + at, n * sizeof(V));
        at += n * sizeof(V);
      }
    return out;
  }

  // Every term's `n` values on every rank, from this rank's own terms' at `mine` (in term
  // order, n each) into `out`, which holds terms() · n values: rank by rank, each rank's terms in
  // term order, so that term k starts at term_slot(k) · n. The sizes are known on every rank:
  // one exchange, into memory the caller keeps.
  template <class V>
  void gather_terms(const V* mine, V* out, std::size_t n, const std::string& what, std::int64_t site) {
    if (!ranks_) {
      if (out != mine) std::memcpy(out, mine, terms_ * n * sizeof(V));
      return;
    }
    std::vector<std::size_t> bytes(size());
    for (std::size_t r = 0; r < bytes.size(); ++r) bytes[r] = terms_of(r) * n * sizeof(V);
    const auto t0 = Clock::now();
    ranks_->all_gather_known(mine, out, bytes, wait_);
    note(what, site, terms_ * n * sizeof(V), t0);
  }
  // Where term k lies in gather_terms' layout, in units of one term.
  std::size_t term_slot(std::size_t k) const {
    const std::size_t R = static_cast<std::size_t>(size()), owner = k % R;
    std::size_t before = 0;
    for (std::size_t r = 0; r < owner; ++r) before += terms_of(r);
    return before + k / R;
  }
  std::size_t terms() const { return terms_; }

  // Every term's bytes in term order on every rank, from this rank's own terms' (in term order),
  // as views into memory the exchange keeps from call to call (no fresh pages for what the
  // terms send each cut), valid until the next call. Two exchanges: the sizes, then the bytes.
  std::vector<std::span<const std::byte>> all_term_bytes(const std::vector<std::span<const std::byte>>& own,
                                                         const std::string& what, std::int64_t site) {
    std::vector<std::span<const std::byte>> out(terms_);
    if (!ranks_) {
      for (std::size_t k = 0; k < own.size() && k < terms_; ++k) out[k] = own[k];
      return out;
    }
    const auto t0 = Clock::now();
    const std::size_t R = static_cast<std::size_t>(size());
    std::vector<std::uint64_t> mine, sizes(terms_);
    for (const auto& v : own) mine.push_back(v.size());
    std::vector<std::size_t> size_bytes(R);
    for (std::size_t r = 0; r < R; ++r) size_bytes[r] = terms_of(r) * sizeof(std::uint64_t);
    std::vector<std::uint64_t> by_rank(terms_);
    ranks_->all_gather_known(mine.data(), by_rank.data(), size_bytes, wait_);
    std::vector<std::size_t> bytes(R, 0);
    for (std::size_t r = 0, at = 0; r < R; ++r)
      for (std::size_t k = r; k < terms_; k += R) {
        sizes[k] = by_rank[at++];
        bytes[r] += sizes[k];
      }
    std::size_t total = 0, own_total = 0;
    for (std::size_t b : bytes) total += b;
    for (const auto& v : own) own_total += v.size();
    if (send_.size() < own_total) send_.resize(own_total);
    if (recv_.size() < total) recv_.resize(total);
    const std::byte* from = own.size() == 1 ? own[0].data() : send_.data();
    if (own.size() != 1)
      for (std::size_t i = 0, at = 0; i < own.size(); at += own[i].size(), ++i)
        std::memcpy(send_.data() + at, own[i].data(), own[i].size());
    ranks_->all_gather_known(from, recv_.data(), bytes, wait_);
    note(what, site, total, t0);
    for (std::size_t r = 0, at = 0; r < R; ++r)
      for (std::size_t k = r; k < terms_; k += R) {
        out[k] = std::span<const std::byte>(recv_.data() + at, sizes[k]);
        at += sizes[k];
      }
    return out;
  }

  // Every rank's `mine` concatenated in rank order (shares of rows or columns), on every rank.
  template <class V> std::vector<V> joined(const std::vector<V>& mine, const std::string& what, std::int64_t site) {
    if (!ranks_) return mine;
    std::vector<std::size_t> sizes;
    const auto t0 = Clock::now();
    const auto all = ranks_->all_gather(mine.data(), mine.size() * sizeof(V), sizes, wait_);
    note(what, site, all.size(), t0);
    std::vector<V> out(all.size() / sizeof(V));
    std::memcpy(out.data(), all.data(), all.size());
    return out;
  }

  // Rank 0's `n` values at `data` on every rank, in place.
  template <class V> void from_first_into(V* data, std::size_t n, const std::string& what, std::int64_t site) {
    if (!ranks_) return;
    const auto t0 = Clock::now();
    ranks_->broadcast(data, n * sizeof(V), 0, wait_);
    note(what, site, n * sizeof(V), t0);
  }

  // Rank 0's vector on every rank.
  template <class V> void from_first(std::vector<V>& v, const std::string& what, std::int64_t site) {
    if (!ranks_) return;
    const auto t0 = Clock::now();
    ranks_->broadcast_vector(v, 0, wait_);
    note(what, site, v.size() * sizeof(V), t0);
  }

 private:
  using Clock = std::chrono::steady_clock;
  // How many terms rank r holds (k ≡ r mod R).
  std::size_t terms_of(std::size_t r) const {
    const std::size_t R = static_cast<std::size_t>(size());
    return r < terms_ ? (terms_ - r + R - 1) / R : 0;
  }
  static void append(std::vector<std::byte>& out, const void* p, std::size_t n) {
    const auto* b = static_cast<const std::byte*>(p);
    out.insert(out.end(), b, b + n);
  }
  void note(const std::string& what, std::int64_t site, std::size_t bytes, Clock::time_point t0) {
    TransferRecord r;
    r.what = what;
    r.site = site;
    r.mechanism = mechanism::kRankExchange;
    r.source = "ranks 0-" + std::to_string(ranks_->size() - 1);
    r.target = "rank " + std::to_string(ranks_->rank());
    r.bytes = static_cast<std::int64_t>(bytes);
    r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    log_.add(std::move(r));
  }

  Ranks* ranks_;
  Mode mode_;
  std::size_t terms_;
  std::vector<std::byte> send_, recv_;  // all_term_bytes' memory, kept
  WaitCheck wait_;
  TransferLog& log_;
};

}  // namespace srcc
