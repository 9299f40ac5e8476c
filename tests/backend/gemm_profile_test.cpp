// The GEMM profile (lib/srcc/backend/gemm_profile.hpp): what it adds up, and the CPU backend
// recording every GEMM it runs while a profile is set, with the flops CountingGemm counts.
#include "srcc/backend/gemm_profile.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "srcc/backend/cpu/cpu_backend.hpp"

namespace srcc {
namespace {

TEST(GemmProfile, SumsCallsPerShapeAndListsMostTimeFirst) {
  GemmProfile p;
  const GemmShape small{0, 0, 4, 4, 4, 1, false}, big{1, 0, 64, 64, 64, 3, true};
  p.add(small, 0.5, 100);
  p.add(big, 2.0, 1000);
  p.add(small, 1.0, 100);
  const auto rows = p.rows();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].shape, big);
  EXPECT_EQ(rows[1].shape, small);
  EXPECT_EQ(rows[1].calls, 2u);
  EXPECT_DOUBLE_EQ(rows[1].seconds, 1.5);
  EXPECT_DOUBLE_EQ(rows[1].flops, 200);
  // Header lines, one line per shape up to `most`, then one line for the rest.
  const auto all = GemmProfile::table(rows, 12);
  ASSERT_EQ(all.size(), 4u);
  EXPECT_NE(all[2].find("TN"), std::string::npos) << all[2];
  EXPECT_NE(all[2].find("task"), std::string::npos) << all[2];
  const auto cut = GemmProfile::table(rows, 1);
  ASSERT_EQ(cut.size(), 4u);
  EXPECT_NE(cut[3].find("1 more shapes, 1.5000 s"), std::string::npos) << cut[3];
  const std::string json = GemmProfile::json(rows);
  EXPECT_NE(json.find("\"ops\": \"TN\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"calls\": 2"), std::string::npos) << json;
}

TEST(GemmProfile, TheCpuBackendRecordsEveryGemmWhileAProfileIsSet) {
  auto backend = make_cpu_backend(2);
  auto& K = backend->kernels<cdouble>();
  std::vector<cdouble> a(96 * 80, cdouble(1, 0.5)), b(80 * 70, cdouble(0.25, -1)), c(96 * 70);
  GemmProfile profile;
  ASSERT_TRUE(backend->profile_gemms(&profile));
  K.gemm(Op::kNone, Op::kNone, 96, 70, 80, cdouble(1), a.data(), 80, 0, b.data(), 70, 0,
         cdouble(0), c.data(), 70, 0, 1);
  K.gemm(Op::kNone, Op::kNone, 96, 70, 80, cdouble(1), a.data(), 80, 0, b.data(), 70, 0,
         cdouble(0), c.data(), 70, 0, 1);
  // Inside a task of the backend's pool: timed on that thread.
  K.for_each_task(2, [&](std::size_t) {
    std::vector<cdouble> out(4 * 4);
    K.gemm(Op::kTrans, Op::kNone, 4, 4, 8, cdouble(1), a.data(), 4, 0, b.data(), 4, 0,
           cdouble(0), out.data(), 4, 0, 1);
  });
  backend->profile_gemms(nullptr);
  K.gemm(Op::kNone, Op::kNone, 96, 70, 80, cdouble(1), a.data(), 80, 0, b.data(), 70, 0,
         cdouble(0), c.data(), 70, 0, 1);  // not recorded
  const auto rows = profile.rows();
  ASSERT_EQ(rows.size(), 2u);
  for (const auto& r : rows) {
    if (r.shape.m == 96) {
      EXPECT_EQ(r.calls, 2u);
      EXPECT_FALSE(r.shape.in_task);
      EXPECT_DOUBLE_EQ(r.flops, 2 * 8.0 * 96 * 70 * 80);
    } else {
      EXPECT_EQ(r.shape, (GemmShape{1, 0, 4, 4, 8, 1, true}));
      EXPECT_EQ(r.calls, 2u);
    }
    EXPECT_GT(r.seconds, 0);
  }
}

}  // namespace
}  // namespace srcc
