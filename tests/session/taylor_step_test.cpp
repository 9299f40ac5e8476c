// A --taylor step's pieces (lib/srcc/session/taylor_step.cpp): the weights (−i dt)^m/m! and
// (−dt)^m/m!, term m's stack H^m ψ, and its sites served from memory in that order.
#include "srcc/session/taylor_step.hpp"

#include "srcc/backend/cpu/cpu_backend.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace srcc {
namespace {

TEST(TaylorStep, WeightsAreThePowerSeriesOfTheExponential) {
  const double dt = 0.3;
  const auto real_time = taylor_weights(4, dt, false), imaginary = taylor_weights(4, dt, true);
  ASSERT_EQ(real_time.size(), 5u);
  for (std::size_t m = 0; m <= 4; ++m) {
    const double factorial = std::tgamma(static_cast<double>(m) + 1);
    const auto want = std::pow(std::complex<double>(0, -dt), static_cast<double>(m)) / factorial;
    EXPECT_NEAR(std::abs(real_time[m] - want), 0, 1e-15) << m;
    EXPECT_NEAR(std::abs(imaginary[m] - std::pow(-dt, static_cast<double>(m)) / factorial), 0, 1e-15) << m;
  }
}

TEST(TaylorStep, TermMIsTheOperatorsMTimesOverTheState) {
  Stack step;
  for (const char* g : {"/A", "/B", "/psi"}) {
    TrainInfo t;
    t.group = g;
    t.kind = std::string(g) == "/psi" ? TrainKind::kMps : TrainKind::kMpo;
    t.dims = {{1, 1, 2, t.kind == TrainKind::kMps ? 1u : 2u}};
    step.layers.push_back(t);
  }
  const auto stacks = taylor_stacks(step, 2);
  ASSERT_EQ(stacks.size(), 3u);
  std::vector<std::vector<std::string>> groups;
  for (const auto& s : stacks) {
    groups.emplace_back();
    for (const auto& l : s.layers) groups.back().push_back(l.group);
  }
  EXPECT_EQ(groups[0], (std::vector<std::string>{"/psi"}));
  EXPECT_EQ(groups[1], (std::vector<std::string>{"/A", "/B", "/psi"}));
  EXPECT_EQ(groups[2], (std::vector<std::string>{"/A", "/B", "/A", "/B", "/psi"}));

  // The source serves site j of each layer of H^2 ψ, then the state's.
  const std::vector<std::vector<Tensor<double>>> op = {{Tensor<double>({1, 1, 2, 2}, {1, 0, 0, 1})},
                                                       {Tensor<double>({1, 1, 2, 2}, {2, 0, 0, 2})}};
  EvolutionState<double> state;
  state.dense = {Tensor<double>({1, 1, 2, 1}, {3, 4})};
  auto cpu = make_cpu_backend(1);
  RepeatedLayers<double> source(op, 2, state, cpu->kernels<double>());
  const auto site = source.site(0);
  ASSERT_EQ(site.size(), 5u);
  EXPECT_EQ(site[0].data, op[0][0].data);
  EXPECT_EQ(site[1].data, op[1][0].data);
  EXPECT_EQ(site[2].data, op[0][0].data);
  EXPECT_EQ(site[4].data, state.dense[0].data);
}

}  // namespace
}  // namespace srcc
