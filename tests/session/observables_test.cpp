// The observables of an evolution (lib/srcc/session/observables.cpp, observable_*.cpp): their
// columns named from the trains' groups (unique, in the trajectory's order), their values against
// dense references, and what the step line shows.
#include "srcc/session/observables.hpp"

#include <gtest/gtest.h>

#include "../support/dense.hpp"
#include "../support/h5_fixture.hpp"
#include "../support/h5_read.hpp"
#include "../support/stacks.hpp"
#include "srcc/backend/cpu/cpu_backend.hpp"
#include "srcc/session/write_example.hpp"
#include "srcc/sweep/truncation_sweep.hpp"
#include "srcc/train/opsum.hpp"

namespace srcc::test {
namespace {

TEST(Observables, ColumnsAreNamedUniquelyAndValuesAreTheDenseOnes) {
  TempDir dir;
  const std::size_t n = 5;
  const TrainRef h = write_example({.example = {.example = Example::kIsing, .sites = n, .field = 0.4},
                                    .output = {(dir / "a.h5").string(), "/H"}});
  const TrainRef h2 = write_example({.example = {.example = Example::kMagnetization, .sites = n},
                                     .output = {(dir / "b.h5").string(), "/H"}});
  const TrainRef ref = write_example({.example = {.example = Example::kProduct, .sites = n},
                                      .output = {(dir / "up.h5").string(), ""}});
  const TrainRef psi = write_example({.example = {.example = Example::kRandomMps, .sites = n, .bond = 3, .seed = 4},
                                      .output = {(dir / "psi.h5").string(), ""}});
  EvolveOptions eo;
  eo.measure = {h, h2};
  eo.overlap = ref;
  auto readers = open_trains({h, h2, ref});
  TransferLog log;
  const auto obs = make_observables<cdouble>(eo, readers, 0, log);
  ASSERT_EQ(obs.size(), 3u);
  std::vector<std::string> names;
  for (const auto& o : obs)
    for (const auto& c : o->columns()) names.push_back(c.name);
  EXPECT_EQ(names, (std::vector<std::string>{"H_re", "H_im", "H_2_re", "H_2_im", "overlap_re", "overlap_im"}));
  EXPECT_EQ(obs[0]->fingerprint().first, "measure 1");
  EXPECT_EQ(obs[2]->fingerprint().first, "overlap");

  // The state right-canonical, as a sweep leaves it, at a scale: ⟨O⟩ does not see the scale,
  // the overlap does.
  auto cores = read_cores(psi.file, psi.group);
  CpuOps<cdouble> ops;
  right_canonicalize(cores, ops.mover, ops.gemm, nullptr);
  const double scale = std::log(3.0);
  auto cpu = make_cpu_backend(1);
  auto& K = cpu->kernels<cdouble>();
  const auto v = dense_vector(cores);
  const DenseTrain hm = dense_train(read_cores(h.file, h.group));
  const std::vector<cd> m = interleaved_to_matrix(hm.v, hm.ups, hm.downs);
  const auto e = obs[0]->measure(cores, scale, K);
  EXPECT_NEAR(e[0], (dense_sandwich(v, m, v) / inner(v, v)).real(), 1e-12);
  EXPECT_NEAR(e[1], 0, 1e-12);
  const auto ov = obs[2]->measure(cores, scale, K);
  EXPECT_NEAR(ov[0], 3.0 * v[0].real(), 1e-12) << "⟨0…0|ψ⟩ is ψ's first entry, times e^scale";
  EXPECT_EQ(obs[0]->shown(e).rfind("  H ", 0), 0u) << obs[0]->shown(e);
  EXPECT_GT(obs[0]->flops(), 0);
}

// ⟨O_i⟩ and the entropies of a random state against its dense vector: ⟨ψ|O_i|ψ⟩ with O_i built
// in the whole space (a one-term operator sum) and −Σ p ln p of the dense singular values.
TEST(Observables, SiteOperatorsAndEntropiesAreTheDenseOnes) {
  TempDir dir;
  const std::size_t n = 5;
  const TrainRef psi = write_example({.example = {.example = Example::kRandomMps, .sites = n, .bond = 3, .seed = 8},
                                      .output = {(dir / "psi.h5").string(), ""}});
  EvolveOptions eo;
  eo.measure_site_ops = {"Sx", "Sp"};
  eo.measure_entropy = true;
  auto readers = open_trains({psi});
  TransferLog log;
  const auto obs = make_observables<cdouble>(eo, readers, 1, log);
  ASSERT_EQ(obs.size(), 3u);
  EXPECT_EQ(obs[0]->columns().size(), n) << "Sx is Hermitian: real parts only";
  EXPECT_EQ(obs[1]->columns().size(), 2 * n);
  EXPECT_EQ(obs[1]->columns()[1].name, "Sp_0_im");
  EXPECT_EQ(obs[2]->columns().back().name, "S_4");
  auto cores = read_cores(psi.file, psi.group);
  CpuOps<cdouble> ops;
  right_canonicalize(cores, ops.mover, ops.gemm, nullptr);
  auto cpu = make_cpu_backend(1);
  auto& K = cpu->kernels<cdouble>();
  const auto v = dense_vector(cores);
  const auto sx = obs[0]->measure(cores, 0.0, K), sp = obs[1]->measure(cores, 0.0, K), s = obs[2]->measure(cores, 0.0, K);
  for (std::size_t i = 0; i < n; ++i) {
    for (const auto& [name, got] : {std::pair{"Sx", cd(sx[i], 0)}, {"Sp", cd(sp[2 * i], sp[2 * i + 1])}}) {
      const OpSumMpo o(site_type("spin-half"), n, parse_terms("1 " + std::string(name) + " " + std::to_string(i), "test"));
      std::vector<Tensor<cdouble>> w;
      for (std::size_t j = 0; j < n; ++j) w.push_back(o.site<cdouble>(j));
      const DenseTrain om = dense_train(w);
      const cd want = dense_sandwich(v, interleaved_to_matrix(om.v, om.ups, om.downs), v) / inner(v, v);
      EXPECT_NEAR(std::abs(got - want), 0, 1e-12) << name << " " << i;
    }
  }
  const DenseTrain dv = dense_train(cores);
  for (std::size_t b = 1; b < n; ++b) {
    double total = 0, entropy = 0;
    const auto sigma = cut_singular_values(dv, b - 1);
    for (double x : sigma) total += x * x;
    for (double x : sigma)
      if (x > 0) entropy -= x * x / total * std::log(x * x / total);
    EXPECT_NEAR(s[b - 1], entropy, 1e-10) << b;
  }
}

}  // namespace
}  // namespace srcc::test
