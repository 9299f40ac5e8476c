// Operators built from a model as a user builds them (generate opsum, generate hubbard): TeNPy's
// own XXZ chain and its DMRG energy, our hand-written XXZ MPO, the Hubbard chain's energies of
// product states known in closed form, charges kept for the symmetric path, and terms that do
// not make sense refused with exit 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "../support/cli_runner.hpp"

namespace srcc::test {
namespace {

namespace fs = std::filesystem;

std::string data(const std::string& name) { return (fs::path(source_dir()) / "tests/data" / name).string(); }
bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

double energy(const TempDir& dir, const std::string& psi, const std::string& h) {
  const auto r = run_cli(dir, "expect " + psi + " " + h + " --json");
  EXPECT_EQ(r.code, 0) << r.err;
  return json_number(r.out, "re");
}

// TeNPy's SpinChain (Jx = Jy = 1, Jz = 0.7, hz = 0.1 on SpinSite, whose basis is (down, up)):
// the same terms in our spin-half basis (up, down) with the field's sign turned give TeNPy's
// MPO itself, and its ground state's energy as TeNPy's own MPO gives it.
TEST(CliModel, OpsumIsTenpysXxzChainAndOurs) {
  TempDir dir;
  const std::string f = data("tenpy_xxz_L12_sz.h5");
  {
    std::ofstream terms(dir / "xxz.terms");
    terms << "# XXZ chain, TeNPy's SpinChain parameters\n0.5 Sp 0 Sm 1\n0.5 Sm 0 Sp 1\n0.7 Sz 0 Sz 1\n0.1 Sz 0   # -hz Sz in (down, up)\n";
  }
  const auto g = run_cli(dir, "generate opsum --sites 12 --terms xxz.terms --translate -o h.h5 --json");
  ASSERT_EQ(g.code, 0) << g.err;
  EXPECT_LT(relative_distance(dir, "h.h5", f + ":/H_MPO"), 1e-14);
  EXPECT_NEAR(energy(dir, f + ":/psi", "h.h5"), energy(dir, f + ":/psi", f + ":/H_MPO"), 1e-12);
  const auto i = run_cli(dir, "inspect h.h5 --json");
  EXPECT_TRUE(has(i.out, "\"max_bond\": 5")) << i.out;
  // --term by term is the file; the hand-written xxz example the same operator.
  ASSERT_EQ(run_cli(dir, "generate opsum --sites 12 --term '0.5 Sp 0 Sm 1' --term '0.5 Sm 0 Sp 1' --term '0.7 Sz 0 Sz 1' "
                         "--term '0.1 Sz 0' --translate -o t.h5 -q").code, 0);
  EXPECT_LT(relative_distance(dir, "t.h5", "h.h5"), 1e-14);
  ASSERT_EQ(run_cli(dir, "generate xxz --sites 12 --delta 0.7 --h -0.1 -o x.h5 -q").code, 0);
  EXPECT_LT(relative_distance(dir, "x.h5", "h.h5"), 1e-14);
  // Its charges are stored: the product runs on them.
  ASSERT_EQ(run_cli(dir, "generate neel --sites 12 -o neel.h5 -q").code, 0);
  const auto a = run_cli(dir, "apply h.h5 neel.h5 -o hn.h5 --chi 8 --seed 1 --json");
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_TRUE(has(a.out, "\"symmetry\": \"U(1)\"")) << a.out;
}

// H = −t Σ (c†c + h.c.) + U Σ n↑n↓ − μ Σ n: a product state has no hopping energy, so ⟨H⟩ is
// U·(doubly occupied sites) − μ·N.
TEST(CliModel, HubbardEnergiesOfProductStatesAreTheirClosedForms) {
  TempDir dir;
  ASSERT_EQ(run_cli(dir, "generate hubbard --sites 6 --J 1 --U 3.5 --h 0.25 -o h.h5 -q").code, 0);
  const auto i = run_cli(dir, "inspect h.h5 --json");
  EXPECT_TRUE(has(i.out, "\"max_bond\": 6")) << i.out;
  // Basis per site: 0 empty, 1 up, 2 down, 3 both.
  struct Case {
    const char* config;
    double e;
  };
  for (const Case& c : {Case{"121212", -0.25 * 6}, Case{"303030", 3.5 * 3 - 0.25 * 6}, Case{"330000", 3.5 * 2 - 0.25 * 4}}) {
    ASSERT_EQ(run_cli(dir, std::string("generate product --sites 6 --phys 4 --config-state ") + c.config + " -o p.h5 --force -q").code, 0);
    EXPECT_NEAR(energy(dir, "p.h5", "h.h5"), c.e, 1e-13) << c.config;
  }
  // One hop: ⟨ψ|H|ψ⟩ of (|↑,0⟩ + |0,↑⟩)/√2 on two sites is −t, of the antisymmetric one +t.
  ASSERT_EQ(run_cli(dir, "generate hubbard --sites 2 --J 0.8 --U 0 -o h2.h5 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "generate product --sites 2 --phys 4 --config-state 10 -o a.h5 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "generate product --sites 2 --phys 4 --config-state 01 -o b.h5 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "apply --term 0.7071067811865476 a.h5 --term 0.7071067811865476 b.h5 -o s.h5 --chi 4 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "apply --term 0.7071067811865476 a.h5 --term -0.7071067811865476 b.h5 -o d.h5 --chi 4 -q").code, 0);
  EXPECT_NEAR(energy(dir, "s.h5:/result", "h2.h5"), -0.8, 1e-13);
  EXPECT_NEAR(energy(dir, "d.h5:/result", "h2.h5"), 0.8, 1e-13);
}

TEST(CliModel, TermsThatDoNotMakeSenseAreRefused) {
  TempDir dir;
  expect_clean_failure(run_cli(dir, "generate opsum --sites 4 --term '1 Sq 0' -o h.h5"), 2, "no operator 'Sq'", dir);
  expect_clean_failure(run_cli(dir, "generate opsum --sites 4 --term '1 Sz 4' -o h.h5"), 2, "site 4 is off the chain", dir);
  expect_clean_failure(run_cli(dir, "generate opsum --sites 4 --site fermion --term '1 C 0' -o h.h5"), 2,
                       "odd in fermion operators", dir);
  expect_clean_failure(run_cli(dir, "generate opsum --sites 4 -o h.h5"), 2, "give its terms", dir);
  expect_clean_failure(run_cli(dir, "generate opsum --sites 4 --terms missing.terms -o h.h5"), 2, "missing.terms", dir);
  expect_clean_failure(run_cli(dir, "generate xxz --sites 4 --term '1 Sz 0' -o h.h5"), 2, "only for generate opsum", dir);
  expect_clean_failure(run_cli(dir, "generate opsum --sites 4 --term '1 Sy 0 Sy 1' --dtype float64 -o h.h5"), 2,
                       "complex entries", dir);
  expect_clean_failure(run_cli(dir, "generate opsum --sites 4 --site spin-two --term '1 Sz 0' -o h.h5"), 2,
                       "no site type 'spin-two'", dir);
}

}  // namespace
}  // namespace srcc::test
