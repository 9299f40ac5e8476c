// The example trains (lib/srcc/train/generate.cpp) against matrices built by hand: the Ising
// Hamiltonian H = −J Σ Z Z − h Σ X, the magnetisation Σ Z, the product state, and the Trotter
// step e^{−dt H} of second order (its distance to the series I − dt H + dt² H²/2 shrinks as dt³).
#include "srcc/train/generate.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "../support/dense.hpp"

namespace srcc::test {
namespace {

constexpr std::size_t kSites = 4, kDim = 16;  // basis index: site 0 is the most significant bit, 0 = up

double z_of(std::size_t state, std::size_t site) { return ((state >> (kSites - 1 - site)) & 1u) ? -1.0 : 1.0; }

std::vector<cd> ising_by_hand(double j, double h) {
  std::vector<cd> m(kDim * kDim, 0);
  for (std::size_t s = 0; s < kDim; ++s) {
    for (std::size_t i = 0; i + 1 < kSites; ++i) m[s * kDim + s] -= j * z_of(s, i) * z_of(s, i + 1);
    for (std::size_t i = 0; i < kSites; ++i) m[(s ^ (1u << (kSites - 1 - i))) * kDim + s] -= h;
  }
  return m;
}

template <class T> std::vector<cd> matrix(const std::vector<Tensor<T>>& cores) {
  const DenseTrain d = dense_train(cores);
  return interleaved_to_matrix(d.v, d.ups, d.downs);
}

double distance(const std::vector<cd>& a, const std::vector<cd>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += std::norm(a[i] - b[i]);
  return std::sqrt(s);
}

std::vector<cd> times(const std::vector<cd>& a, const std::vector<cd>& b) {
  std::vector<cd> c(kDim * kDim, 0);
  for (std::size_t i = 0; i < kDim; ++i)
    for (std::size_t k = 0; k < kDim; ++k)
      for (std::size_t l = 0; l < kDim; ++l) c[i * kDim + l] += a[i * kDim + k] * b[k * kDim + l];
  return c;
}

TEST(Generate, IsingMagnetizationAndProductAreWhatTheySay) {
  EXPECT_LT(distance(matrix(ising_mpo<double>(kSites, 0.7, 1.3)), ising_by_hand(0.7, 1.3)), 1e-13);
  std::vector<Tensor<double>> m, up;
  for (std::size_t j = 0; j < kSites; ++j) {
    m.push_back(magnetization_site<double>(j, kSites));
    up.push_back(product_site<double>(j, kSites, 2));
  }
  std::vector<cd> sz(kDim * kDim, 0);
  for (std::size_t s = 0; s < kDim; ++s)
    for (std::size_t i = 0; i < kSites; ++i) sz[s * kDim + s] += z_of(s, i);
  EXPECT_LT(distance(matrix(m), sz), 1e-13);
  const auto psi = dense_vector(up);
  EXPECT_EQ(psi[0], cd(1));
  for (std::size_t s = 1; s < kDim; ++s) EXPECT_EQ(psi[s], cd(0)) << s;
}

TEST(Generate, TheTrotterStepIsOfSecondOrder) {
  const auto h = ising_by_hand(1.0, 0.8);
  const auto h2 = times(h, h);
  std::vector<double> errors;
  for (double dt : {0.02, 0.01}) {
    std::vector<Tensor<double>> u;
    for (std::size_t j = 0; j < kSites; ++j) u.push_back(ising_step_site<double>(j, kSites, 1.0, 0.8, dt, true));
    std::vector<cd> series(kDim * kDim, 0);
    for (std::size_t i = 0; i < kDim * kDim; ++i) series[i] = -dt * h[i] + dt * dt / 2 * h2[i];
    for (std::size_t i = 0; i < kDim; ++i) series[i * kDim + i] += 1;
    errors.push_back(distance(matrix(u), series));
  }
  EXPECT_NEAR(errors[0] / errors[1], 8.0, 1.0) << "O(dt³): " << errors[0] << ", " << errors[1];
}

}  // namespace
}  // namespace srcc::test
