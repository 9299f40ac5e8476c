// The transfer log: sequence numbers, and durations that a device reports after the fact.
#include <gtest/gtest.h>

#include "srcc/log/transfer_log.hpp"

namespace srcc {
namespace {

TEST(TransferLog, DeviceTimedRowsReadTheirClockOnceWhenSettled) {
  TransferLog log;
  int reads = 0;
  log.add({.what = "mps site", .site = 0, .mechanism = mechanism::kDeviceMove, .bytes = 64,
           .seconds = 0.5});
  log.add({.what = "environment", .site = 3, .mechanism = mechanism::kDeviceMove, .bytes = 128,
           .seconds = 9.0},
          [&reads] {
            ++reads;
            return 0.25;
          });
  EXPECT_EQ(reads, 0) << "the clock is read late, not when the copy is queued";
  log.settle();
  EXPECT_EQ(reads, 1);
  const auto rows = log.records();
  EXPECT_EQ(reads, 1) << "settled once, not again";
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].seq, 0);
  EXPECT_EQ(rows[1].seq, 1);
  EXPECT_DOUBLE_EQ(rows[0].seconds, 0.5);
  EXPECT_DOUBLE_EQ(rows[1].seconds, 0.25) << "the device's time replaces the host's";
}

TEST(TransferLog, RecordsSettleRowsStillPending) {
  TransferLog log;
  log.add({.what = "result site", .mechanism = mechanism::kDeviceMove}, [] { return 1.5; });
  EXPECT_DOUBLE_EQ(log.records().at(0).seconds, 1.5);
  EXPECT_EQ(log.bytes_by_mechanism().at(mechanism::kDeviceMove), 0);
}

}  // namespace
}  // namespace srcc
