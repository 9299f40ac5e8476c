// How a sweep's work is shared out over ranks (rank_exchange.hpp): a product's columns and rows
// in contiguous shares that cover every item once, in rank order, the first ranks taking one
// more; a sum's terms dealt round-robin; in one process everything is this rank's and the
// exchanges hand back what they were given. The exchanges themselves over MPI are tested by
// tests/mpi/ranks_test.sh.
#include <gtest/gtest.h>

#include <vector>

#include "srcc/sweep/rank_exchange.hpp"

namespace srcc {
namespace {

// A rank of a group of `size`, for the bookkeeping alone (no exchange is made).
class PosedRank final : public Ranks {
 public:
  PosedRank(int rank, int size) : rank_(rank), size_(size) {}
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int local_size() const override { return size_; }
  std::vector<std::byte> all_gather(const void*, std::size_t, std::vector<std::size_t>&, const WaitCheck&) override {
    ADD_FAILURE() << "no exchange expected";
    return {};
  }
  void all_gather_known(const void*, void*, const std::vector<std::size_t>&, const WaitCheck&) override {
    ADD_FAILURE() << "no exchange expected";
  }
  void broadcast(void*, std::size_t, int, const WaitCheck&) override { ADD_FAILURE() << "no exchange expected"; }
  std::unique_ptr<Ranks> first(int) override { return nullptr; }
  [[noreturn]] void abort(int) override { std::abort(); }

 private:
  int rank_, size_;
};

TEST(RankExchange, SharesCoverEveryItemOnceInRankOrder) {
  TransferLog log;
  for (int size = 1; size <= 7; ++size)
    for (std::size_t count = 0; count <= 23; ++count) {
      std::size_t next = 0, largest = 0, smallest = count;
      for (int r = 0; r < size; ++r) {
        PosedRank me(r, size);
        RankExchange ex(&me, RankExchange::Mode::kColumns, 1, [] {}, log);
        const auto s = ex.share(count);
        EXPECT_EQ(s.first, next) << "rank " << r << " of " << size << ", " << count << " items";
        next += s.count;
        largest = std::max(largest, s.count);
        smallest = std::min(smallest, s.count);
        // The share a rank computes for itself is the one the others compute for it.
        PosedRank other((r + 1) % size, size);
        RankExchange ex2(&other, RankExchange::Mode::kColumns, 1, [] {}, log);
        EXPECT_EQ(ex2.share_of(count, static_cast<std::size_t>(r)).first, s.first);
        EXPECT_EQ(ex2.share_of(count, static_cast<std::size_t>(r)).count, s.count);
      }
      EXPECT_EQ(next, count);
      EXPECT_LE(largest - smallest, 1u);
    }
}

TEST(RankExchange, TermsAreDealtRoundRobin) {
  TransferLog log;
  PosedRank me(1, 3);
  RankExchange ex(&me, RankExchange::Mode::kTerms, 7, [] {}, log);
  std::vector<std::size_t> mine;
  for (std::size_t k = 0; k < 7; ++k)
    if (ex.mine(k)) mine.push_back(k);
  EXPECT_EQ(mine, (std::vector<std::size_t>{1, 4}));
  EXPECT_TRUE(ex.terms_dealt());
  EXPECT_FALSE(ex.columns_split());
}

// gather_terms lays the terms out rank by rank, each rank's in term order: term k's slot is the
// number of terms the ranks before its own hold plus its place among its rank's.
TEST(RankExchange, GatheredTermsLieRankByRankInTermOrder) {
  TransferLog log;
  PosedRank me(2, 3);
  RankExchange ex(&me, RankExchange::Mode::kTerms, 7, [] {}, log);
  std::vector<std::size_t> slots;
  for (std::size_t k = 0; k < 7; ++k) slots.push_back(ex.term_slot(k));
  // rank 0: terms 0, 3, 6; rank 1: 1, 4; rank 2: 2, 5.
  EXPECT_EQ(slots, (std::vector<std::size_t>{0, 3, 5, 1, 4, 6, 2}));
  EXPECT_EQ(ex.terms(), 7u);
  RankExchange one(nullptr, RankExchange::Mode::kTerms, 3, [] {}, log);
  for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(one.term_slot(k), k);
}

TEST(RankExchange, OneProcessHoldsEverythingAndHandsBackWhatItGave) {
  TransferLog log;
  RankExchange ex(nullptr, RankExchange::Mode::kColumns, 2, [] {}, log);
  EXPECT_FALSE(ex.spread());
  EXPECT_TRUE(ex.mine(0) && ex.mine(1));
  EXPECT_EQ(ex.share(9).first, 0u);
  EXPECT_EQ(ex.share(9).count, 9u);
  const std::vector<double> mine{1, 2, 3, 4, 5, 6};
  std::vector<double> out(6, 0.0);
  ex.join_shares(mine.data(), out.data(), 3, 2, "x", 0, 2);  // the first 2 of 3 items of 2 values
  EXPECT_EQ(out, (std::vector<double>{1, 2, 3, 4, 0, 0}));
  const std::vector<std::vector<double>> terms{{1}, {2, 3}};
  EXPECT_EQ(ex.all_terms(terms, "x", 0), terms);
  std::vector<double> gathered(4, 0.0);
  ex.gather_terms(mine.data(), gathered.data(), 2, "x", 0);  // 2 terms of 2 values
  EXPECT_EQ(gathered, (std::vector<double>{1, 2, 3, 4}));
  const std::vector<std::vector<std::byte>> bytes{{std::byte{1}}, {std::byte{2}, std::byte{3}}};
  const auto views = ex.all_term_bytes({bytes[0], bytes[1]}, "x", 0);
  ASSERT_EQ(views.size(), 2u);
  EXPECT_EQ(views[1].size(), 2u);
  EXPECT_EQ(views[1][1], std::byte{3});
  EXPECT_TRUE(log.records().empty());  // nothing was exchanged, nothing logged
}

}  // namespace
}  // namespace srcc
