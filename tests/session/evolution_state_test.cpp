// An evolution's state held in its blocks between steps (lib/srcc/session/evolution_state.cpp):
// split from the dense cores, served to the next step's charged run as boxes and made dense on
// demand, against the dense cores it came from — exactly, element for element — and its norm
// against the dense train's, for U(1), Z2 and U(1)×Z2, on the CPU and on a stand-in device.
#include "srcc/session/evolution_state.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <variant>

#include "../support/guarded_device.hpp"
#include "../symmetric/charged_support.hpp"

namespace srcc {
namespace {

using namespace test::charged;

template <class T> class EvolutionStateTest : public ::testing::Test {
 protected:
  void serves_exactly(Kernels<T>& K, Kernels<T>& host);  // K holds the blocks
};
using Scalars = ::testing::Types<double, cdouble>;
TYPED_TEST_SUITE(EvolutionStateTest, Scalars);

// On the CPU and on a device whose memory the host cannot read (as a GPU run holds the state).
TYPED_TEST(EvolutionStateTest, BlocksServeTheDenseStateExactly) {
  using T = TypeParam;
  OneThread<T> ctx;
  test::GuardedDevice device;
  for (Kernels<T>* on : {&ctx.K(), &device.kernels<T>()})
    this->serves_exactly(*on, ctx.K());
}

template <class T> void EvolutionStateTest<T>::serves_exactly(Kernels<T>& K, Kernels<T>& host) {
  const std::size_t n = 7;
  std::vector<Tensor<T>> psi = random_charged<T>(n, 10, 1, 17);
  // Norms beyond a double's range: the state's log-norm is taken with its scales apart.
  for (auto& v : psi[2].data) v *= static_cast<real_t<T>>(1e200);
  for (auto& v : psi[5].data) v *= static_cast<real_t<T>>(1e-180);
  EvolutionState<T> dense;
  dense.dense = psi;
  const double log_norm = dense.log_norm(host);
  ASSERT_TRUE(std::isfinite(log_norm));
  for (Rule r : {Rule::kU1, Rule::kZ2, Rule::kU1Z2}) {
    SCOPED_TRACE(static_cast<int>(r));
    EvolutionState<T> s;
    s.dense = psi;
    s.split(K, charges(n, TrainKind::kMps, r), "psi");
    ASSERT_TRUE(s.in_blocks());
    EXPECT_TRUE(s.dense.empty()) << "the dense cores are let go";
    ASSERT_EQ(s.length(), n);
    EXPECT_NEAR(s.log_norm(K), log_norm, 1e-12 * std::abs(log_norm));
    for (std::size_t j = 0; j < n; ++j) {
      const auto d = s.dims(j);
      for (std::size_t k = 0; k < kSiteRank; ++k) EXPECT_EQ(d[k], psi[j].shape[k]) << j << " " << k;
      EXPECT_EQ(s.dense_site(K, j).data, psi[j].data) << j;
      // As a charged run takes it: boxes whose elements are the dense site's, at their indices.
      const StoredSite<T> stored = s.stored_site(K, j);
      ASSERT_TRUE(std::holds_alternative<SiteBoxes<T>>(stored));
      const auto& boxes = std::get<SiteBoxes<T>>(stored);
      Tensor<T> placed(psi[j].shape);
      std::fill(placed.data.begin(), placed.data.end(), T(0));
      for (const auto& box : boxes.boxes) {
        const auto& [ls, rs, us, ds] = box.index;
        std::size_t e = 0;
        for (std::size_t a : ls)
          for (std::size_t b : rs)
            for (std::size_t x : us)
              for (std::size_t y : ds) placed.data[((a * d[1] + b) * d[2] + x) * d[3] + y] = box.data[e++];
      }
      EXPECT_EQ(placed.data, psi[j].data) << j;
      // And back into the same blocks.
      const BlockTensor<T> again = blocks_of_boxes(K, boxes, s.blocks[j].legs, s.blocks[j].labels,
                                                   [&](const BlockKey& key) { return s.blocks[j].find(key) != nullptr; });
      ASSERT_EQ(again.elements, s.blocks[j].elements);
      EXPECT_EQ(K.download(again.data, again.elements), K.download(s.blocks[j].data, s.blocks[j].elements)) << j;
    }
    // Core 0 rescaled in its blocks is the dense core 0 rescaled.
    const double c0 = s.core0_norm(K);
    EXPECT_NEAR(c0, frobenius_norm(psi[0]), 1e-14 * c0);
    s.scale_core0(K, 0.25);
    const Tensor<T> scaled = s.dense_site(K, 0);
    for (std::size_t i = 0; i < scaled.data.size(); ++i)
      EXPECT_EQ(scaled.data[i], psi[0].data[i] * static_cast<real_t<T>>(0.25));
  }
}

}  // namespace
}  // namespace srcc
