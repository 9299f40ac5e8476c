// FoldedLog: a log of many repetitions keeps the setup, the first and the latest repetition in
// full and one row per kind of event for those in between, with every byte still counted.
#include <gtest/gtest.h>

#include "srcc/log/folded_log.hpp"

namespace srcc {
namespace {

// One repetition's events: a read of each of `sites` sites and a write, bytes growing with `k`.
std::vector<TransferRecord> round(int k, std::int64_t sites) {
  std::vector<TransferRecord> rows;
  for (std::int64_t j = 0; j < sites; ++j)
    rows.push_back({.what = "mps site", .site = j, .mechanism = mechanism::kHostCopy, .bytes = 16 * k + j,
                    .seconds = 0.001});
  rows.push_back({.what = "result site", .site = 0, .mechanism = mechanism::kFileWrite, .bytes = 100, .seconds = 0.01});
  return rows;
}

TEST(FoldedLog, RowsStayBoundedAndBytesByMechanismAreThoseOfEveryEvent) {
  FoldedLog folded;
  folded.add_setup({{.what = "mpo site", .mechanism = mechanism::kFileRead, .bytes = 7}});
  TransferLog plain;
  plain.add({.what = "mpo site", .mechanism = mechanism::kFileRead, .bytes = 7});
  const int rounds = 200;
  for (int k = 1; k <= rounds; ++k) {
    folded.add_round(round(k, 3));
    for (auto& r : round(k, 3)) plain.add(r);
  }
  TransferLog out;
  folded.copy_to(out);
  const auto rows = out.records();
  // Setup 1, first round 4, folded rounds 2 … 199 as 4 kinds, latest round 4.
  ASSERT_EQ(rows.size(), 1u + 4u + 4u + 4u);
  EXPECT_EQ(out.bytes_by_mechanism(), plain.bytes_by_mechanism());
  std::int64_t events = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].seq, static_cast<std::int64_t>(i));
    events += rows[i].events;
  }
  EXPECT_EQ(events, static_cast<std::int64_t>(plain.size()));
  // The first and the latest round as they were; a folded row sums its kind.
  EXPECT_EQ(rows[1].bytes, 16);
  EXPECT_EQ(rows[1].events, 1);
  EXPECT_EQ(rows[5].site, 0);
  EXPECT_EQ(rows[5].events, rounds - 2);
  std::int64_t sum = 0;
  for (int k = 2; k < rounds; ++k) sum += 16 * k;
  EXPECT_EQ(rows[5].bytes, sum);
  EXPECT_NEAR(rows[8].seconds, 0.01 * (rounds - 2), 1e-12);
  EXPECT_EQ(rows[9].bytes, 16 * rounds);
  EXPECT_EQ(rows[12].what, "result site");
}

TEST(FoldedLog, TwoRoundsAreBothKeptInFull) {
  FoldedLog folded;
  folded.add_round(round(1, 2));
  folded.add_round(round(2, 2));
  TransferLog out;
  folded.copy_to(out);
  ASSERT_EQ(out.size(), 6u);
  for (const auto& r : out.records()) EXPECT_EQ(r.events, 1);
}

TEST(TransferLog, TakeFromRemovesTheTail) {
  TransferLog log;
  for (int k = 0; k < 5; ++k) log.add({.what = "x", .bytes = k});
  const auto tail = log.take_from(3);
  ASSERT_EQ(tail.size(), 2u);
  EXPECT_EQ(tail[0].bytes, 3);
  EXPECT_EQ(log.size(), 3u);
  EXPECT_TRUE(log.take_from(7).empty());
}

}  // namespace
}  // namespace srcc
