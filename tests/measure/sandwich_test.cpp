// Exact sandwiches ⟨bra|O_1 ⋯ O_k|ket⟩ (lib/srcc/measure/sandwich.cpp) against dense
// contractions: no operator, one and two layers, and sites far from unit size kept apart from
// the value by the scale.
#include "srcc/measure/sandwich.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "../support/dense.hpp"
#include "../support/stacks.hpp"

namespace srcc::test {
namespace {

TEST(Sandwich, MatchesDenseContractions) {
  const std::size_t n = 5;
  const auto op = gaussian_cores(TrainKind::kMpo, n, 3, 2, 1);
  const auto ket = gaussian_cores(TrainKind::kMps, n, 4, 2, 2), bra = gaussian_cores(TrainKind::kMps, n, 3, 2, 3);
  const DenseTrain o = dense_train(op);
  const std::vector<cd> m = interleaved_to_matrix(o.v, o.ups, o.downs);
  std::vector<cd> m2(m.size(), 0);  // O·O
  const std::size_t d = dense_vector(ket).size();
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t j = 0; j < d; ++j)
      for (std::size_t k = 0; k < d; ++k) m2[i * d + k] += m[i * d + j] * m[j * d + k];
  std::vector<cd> id(d * d, 0);
  for (std::size_t i = 0; i < d; ++i) id[i * d + i] = 1;
  CpuOps<cdouble> ops;
  const auto vb = dense_vector(bra), vk = dense_vector(ket);
  for (std::size_t layers : {0u, 1u, 2u}) {
    Sandwich<cdouble> s(ops.K, layers);
    for (std::size_t j = 0; j < n; ++j) {
      std::vector<const Tensor<cdouble>*> o_j(layers, &op[j]);
      s.add(bra[j], o_j, ket[j]);
    }
    const cd want = dense_sandwich(vb, layers == 0 ? id : layers == 1 ? m : m2, vk);
    EXPECT_LT(std::abs(s.value().plain() - want), 1e-12 * std::abs(want)) << layers << " layers";
    EXPECT_GT(s.flops(), 0);
  }
  // Sites of size 1e-200: the product (1e-2000) is carried by the scale, its value exact.
  std::vector<Tensor<cdouble>> tiny = ket;
  for (auto& t : tiny)
    for (auto& v : t.data) v *= 1e-200;
  Sandwich<cdouble> s(ops.K, 0);
  for (std::size_t j = 0; j < n; ++j) s.add(tiny[j], {}, ket[j]);
  const Scaled v = s.value();
  const cd unit = dense_sandwich(vk, id, vk);
  EXPECT_NEAR(v.log_abs(), std::log(std::abs(unit)) - 200.0 * n * std::log(10.0), 1e-9);
}

}  // namespace
}  // namespace srcc::test
