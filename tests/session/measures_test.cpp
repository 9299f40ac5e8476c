// expect and distance as entry points (lib/srcc/session/measures.cpp): on the backend an
// Execution names, the same numbers with one thread or two, against dense references.
#include "srcc/session/measures.hpp"

#include <gtest/gtest.h>

#include "../support/dense.hpp"
#include "../support/h5_fixture.hpp"
#include "../support/h5_read.hpp"
#include "srcc/core/error.hpp"
#include "srcc/session/write_example.hpp"

namespace srcc::test {
namespace {

TEST(Measures, DistanceAndExpectOnTheExecutionsBackend) {
  TempDir dir;
  const auto a = write_example({.example = {.example = Example::kRandomMps, .sites = 6, .bond = 3, .seed = 1},
                                .output = {(dir / "a.h5").string(), ""}});
  const auto b = write_example({.example = {.example = Example::kRandomMps, .sites = 6, .bond = 2, .seed = 2},
                                .output = {(dir / "b.h5").string(), ""}});
  const auto m = write_example({.example = {.example = Example::kMagnetization, .sites = 6},
                                .output = {(dir / "m.h5").string(), ""}});
  const auto va = dense_vector(read_cores(a.file, a.group)), vb = dense_vector(read_cores(b.file, b.group));
  std::vector<cd> diff(va.size());
  for (std::size_t i = 0; i < va.size(); ++i) diff[i] = va[i] - vb[i];
  // Σ_j Z_j in the state: the interleaved index of site j's spin is bit (n−1−j) of i (0 = up).
  double num = 0, den = 0;
  for (std::size_t i = 0; i < va.size(); ++i) {
    double z = 0;
    for (std::size_t j = 0; j < 6; ++j) z += ((i >> (5 - j)) & 1u) ? -1.0 : 1.0;
    num += std::norm(va[i]) * z;
    den += std::norm(va[i]);
  }
  for (int threads : {1, 2}) {
    Execution exec;
    exec.threads = threads;
    const Comparison c = distance({.a = a, .b = b, .exec = exec});
    EXPECT_NEAR(c.relative_distance, norm(diff) / norm(vb), 1e-12) << threads;
    const ExpectResult r = expect(ExpectOptions{.ket = a, .ops = {m}, .variance = true, .exec = exec});
    ASSERT_EQ(r.rows.size(), 1u);
    EXPECT_NEAR(r.rows[0].value.real(), num / den, 1e-12) << threads;
  }
  Execution tiny;
  tiny.host_memory = 1024;
  EXPECT_THROW(distance({.a = a, .b = b, .exec = tiny}), ResourceError);
}

}  // namespace
}  // namespace srcc::test
