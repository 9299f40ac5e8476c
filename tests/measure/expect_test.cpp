// The expect command's work (lib/srcc/measure/expect.cpp) on files, against dense references:
// ⟨O⟩ and its variance, a matrix element with a bra, and a state that is no MPS refused.
#include "srcc/measure/expect.hpp"

#include <gtest/gtest.h>

#include "../support/dense.hpp"
#include "../support/h5_fixture.hpp"
#include "../support/h5_read.hpp"
#include "srcc/backend/cpu/cpu_backend.hpp"
#include "srcc/core/error.hpp"
#include "srcc/session/write_example.hpp"

namespace srcc::test {
namespace {

TEST(Expect, ValuesVariancesAndMatrixElementsAreTheDenseOnes) {
  TempDir dir;
  auto file = [&](const char* name, ExampleOptions e) { return write_example({.example = e, .output = {(dir / name).string(), ""}}); };
  const TrainRef h = file("h.h5", {.example = Example::kIsing, .sites = 5, .coupling = 1, .field = 0.6});
  const TrainRef psi = file("psi.h5", {.example = Example::kRandomMps, .sites = 5, .bond = 3, .seed = 1});
  const TrainRef phi = file("phi.h5", {.example = Example::kRandomMps, .sites = 5, .bond = 2, .seed = 2});
  const DenseTrain hd = dense_train(read_cores(h.file, h.group));
  const auto m = interleaved_to_matrix(hd.v, hd.ups, hd.downs);
  const auto vp = dense_vector(read_cores(psi.file, psi.group)), vf = dense_vector(read_cores(phi.file, phi.group));
  std::vector<cd> hp(vp.size(), 0);  // H ψ
  for (std::size_t i = 0; i < vp.size(); ++i)
    for (std::size_t k = 0; k < vp.size(); ++k) hp[i] += m[i * vp.size() + k] * vp[k];
  const BackendMaker cpu = [] { return make_cpu_backend(1); };
  double pp = 0, hh = 0;
  for (std::size_t i = 0; i < vp.size(); ++i) {
    pp += std::norm(vp[i]);
    hh += std::norm(hp[i]);
  }
  const double e = dense_sandwich(vp, m, vp).real() / pp;
  const ExpectResult r = expect(psi, {h}, std::nullopt, true, cpu);
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_NEAR(r.rows[0].value.real(), e, 1e-12);
  EXPECT_NEAR(*r.rows[0].variance, hh / pp - e * e, 1e-11);
  EXPECT_NEAR(r.log10_norm, 0.5 * std::log10(pp), 1e-12);
  const ExpectResult b = expect(psi, {h}, phi, false, cpu);
  EXPECT_LT(std::abs(b.rows[0].value - dense_sandwich(vf, m, vp)), 1e-12 * std::abs(dense_sandwich(vf, m, vp)));
  EXPECT_THROW(expect(h, {h}, std::nullopt, true, cpu), UsageError) << "an MPO state (ρ) has no --variance";
  EXPECT_THROW(expect(h, {h}, std::nullopt, false, cpu), NumericalError) << "Tr(ρ O)/Tr ρ of a traceless ρ";
  EXPECT_THROW(expect(psi, {h}, phi, true, cpu), UsageError) << "a variance with a bra";
}

}  // namespace
}  // namespace srcc::test
