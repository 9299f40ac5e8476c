// Operators built from a model as a user builds them (generate opsum, generate hubbard): TeNPy's
// own XXZ chain and its DMRG energy, our hand-written XXZ MPO, the Hubbard chain's energies of
// product states known in closed form, charges kept for the symmetric path, and terms that do
// not make sense refused with exit 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "../support/cli_runner.hpp"
#include "../support/dense.hpp"
#include "../support/h5_read.hpp"

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

// The numbers of a JSON array of numbers or of arrays of them, in order.
std::vector<double> json_numbers(const std::string& text) {
  std::vector<double> out;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '-' || c == '+' || (c >= '0' && c <= '9')) {
      char* end = nullptr;
      out.push_back(std::strtod(text.c_str() + i, &end));
      i = static_cast<std::size_t>(end - text.c_str());
    } else {
      ++i;
    }
  }
  return out;
}
// The array after "key": in `json` from `from` on (to its matching bracket).
std::string json_array_after(const std::string& json, const std::string& key, std::size_t& from) {
  const auto at = json.find("\"" + key + "\": [", from);
  if (at == std::string::npos) return "";
  std::size_t i = json.find('[', at), depth = 0, j = i;
  for (; j < json.size(); ++j) {
    if (json[j] == '[') ++depth;
    if (json[j] == ']' && --depth == 0) break;
  }
  from = j;
  return json.substr(i, j - i + 1);
}

// TeNPy's SpinChain (Jx = Jy = 1, Jz = 0.7, hz = 0.1 on SpinSite, whose basis is (down, up)):
// the same terms written in its state's basis (--basis-of) are TeNPy's MPO itself, with its
// ground state's energy as TeNPy's own MPO gives it; in our basis (up, down) they are the
// hand-written xxz example, and a product with TeNPy's state is refused for the bases' sake.
TEST(CliModel, OpsumIsTenpysXxzChainAndOurs) {
  TempDir dir;
  const std::string f = data("tenpy_xxz_L12_sz.h5");
  {
    std::ofstream terms(dir / "xxz.terms");
    terms << "# XXZ chain, TeNPy's SpinChain parameters\n0.5 Sp 0 Sm 1\n0.5 Sm 0 Sp 1\n0.7 Sz 0 Sz 1\n-0.1 Sz 0   # -hz Sz\n";
  }
  const auto g = run_cli(dir, "generate opsum --sites 12 --terms xxz.terms --translate --basis-of " + f + ":/psi -o h.h5 --json");
  ASSERT_EQ(g.code, 0) << g.err;
  EXPECT_LT(relative_distance(dir, "h.h5", f + ":/H_MPO"), 1e-14);
  EXPECT_NEAR(energy(dir, f + ":/psi", "h.h5"), energy(dir, f + ":/psi", f + ":/H_MPO"), 1e-12);
  const auto i = run_cli(dir, "inspect h.h5 --json");
  EXPECT_TRUE(has(i.out, "\"max_bond\": 5")) << i.out;
  // In our basis: --term by term is the file, and the hand-written xxz example.
  ASSERT_EQ(run_cli(dir, "generate opsum --sites 12 --terms xxz.terms --translate -o ours.h5 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "generate opsum --sites 12 --term '0.5 Sp 0 Sm 1' --term '0.5 Sm 0 Sp 1' --term '0.7 Sz 0 Sz 1' "
                         "--term '-0.1 Sz 0' --translate -o t.h5 -q").code, 0);
  EXPECT_LT(relative_distance(dir, "t.h5", "ours.h5"), 1e-14);
  ASSERT_EQ(run_cli(dir, "generate xxz --sites 12 --delta 0.7 --h 0.1 -o x.h5 -q").code, 0);
  EXPECT_LT(relative_distance(dir, "x.h5", "ours.h5"), 1e-14);
  expect_clean_failure(run_cli(dir, "expect " + f + ":/psi ours.h5"), 3, "stored in the basis (down, up)", dir);
  // Its charges are stored (`inspect` names them, in each basis's order): the product runs on them.
  const auto ci = run_cli(dir, "inspect ours.h5 --json");
  EXPECT_TRUE(has(ci.out, "\"charges\": \"U(1)\", \"site0_charges\": [1, -1]")) << ci.out;
  const auto ct = run_cli(dir, "inspect " + f + " --json");
  EXPECT_TRUE(has(ct.out, "\"charges\": \"U(1)\", \"site0_charges\": [-1, 1]")) << ct.out;
  ASSERT_EQ(run_cli(dir, "generate random-mps --sites 4 --bond 2 -o r.h5 -q").code, 0);
  EXPECT_FALSE(has(run_cli(dir, "inspect r.h5 --json").out, "charges"));
  ASSERT_EQ(run_cli(dir, "generate neel --sites 12 -o neel.h5 -q").code, 0);
  const auto a = run_cli(dir, "apply ours.h5 neel.h5 -o hn.h5 --chi 8 --seed 1 --json");
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_TRUE(has(a.out, "\"symmetry\": \"U(1)\"")) << a.out;
  EXPECT_FALSE(has(a.err, "cannot be checked")) << "both name their basis: " << a.err;
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

// Product states of any site type by --pattern or --config-state, with the type's charges: their
// local values are the pattern's, and a model's product runs on the charges.
TEST(CliModel, ProductStatesOfEverySiteType) {
  TempDir dir;
  struct Case {
    std::string flags, op;
    std::vector<double> want;
  };
  const std::vector<Case> cases = {
      {"--site fermion --pattern neel", "N", {1, 0, 1, 0, 1}},
      {"--site electron --pattern neel", "Sz", {0.5, -0.5, 0.5, -0.5, 0.5}},
      {"--site spin-one --pattern domain-wall", "Sz", {1, 1, 1, -1, -1}},
      {"--site boson:3 --config-state 30120", "N", {3, 0, 1, 2, 0}},
      {"--pattern neel", "Sz", {0.5, -0.5, 0.5, -0.5, 0.5}},
  };
  for (const auto& c : cases) {
    ASSERT_EQ(run_cli(dir, "generate product --sites 5 " + c.flags + " -o p.h5 --force -q").code, 0) << c.flags;
    const std::string site = c.flags.find("--site") == std::string::npos ? "" : c.flags.substr(0, c.flags.find(' ', 7));
    const auto e = run_cli(dir, "expect p.h5 --site-op " + c.op + " " + site + " --json");
    ASSERT_EQ(e.code, 0) << e.err;
    std::size_t at = 0;
    EXPECT_EQ(json_numbers(json_array_after(e.out, "re", at)), c.want) << c.flags;
  }
  // Spinless fermions at half filling hop on their charges.
  ASSERT_EQ(run_cli(dir, "generate product --sites 6 --site fermion --pattern neel -o f.h5 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "generate opsum --sites 6 --site fermion --translate --term '-1 Cdag 0 C 1' --term '-1 Cdag 1 C 0' -o hf.h5 -q").code, 0);
  const auto a = run_cli(dir, "apply hf.h5 f.h5 -o hp.h5 --chi 8 --seed 1 --json");
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_TRUE(has(a.out, "\"symmetry\": \"U(1)\"")) << a.out;
  expect_clean_failure(run_cli(dir, "generate product --sites 4 --pattern neel --config-state udud -o x.h5"), 2, "give one of them", dir);
  expect_clean_failure(run_cli(dir, "generate xxz --sites 4 --pattern neel -o x.h5"), 2, "only for generate product", dir);
}

// Results of our own go home: an evolution's result written back on a TeNPy or ITensor train as
// template (--template) is that library's file holding the same state, read back by our reader
// (scripts/tenpy_check.py has TeNPy itself load it); a template that does not fit is refused.
TEST(CliModel, ResultsOfOurOwnGoHomeOnATemplate) {
  TempDir dir;
  const std::string tenpy = data("tenpy_xxz_L12_sz.h5"), itensor = data("itensor_xxz_L12_qn.h5");
  ASSERT_EQ(run_cli(dir, "generate step --from " + tenpy + ":/H_MPO --dt 0.02 -o u.h5 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "evolve u.h5 " + tenpy + ":/psi --steps 3 --dt 0.02 --chi 32 --seed 1 -o ev.h5 -q").code, 0);
  const auto t = run_cli(dir, "compress ev.h5:/result --chi 32 --seed 1 --template " + tenpy + ":/psi -o back.h5 --json");
  ASSERT_EQ(t.code, 0) << t.err;
  EXPECT_TRUE(has(t.out, "\"output_format\": \"tenpy\"")) << t.out;
  EXPECT_LT(relative_distance(dir, "back.h5:/psi", "ev.h5:/result"), 1e-13);
  EXPECT_NEAR(energy(dir, "back.h5:/psi", tenpy + ":/H_MPO"), energy(dir, "ev.h5:/result", tenpy + ":/H_MPO"), 1e-12);
  // Our own Néel state's evolution on ITensor's charged state.
  ASSERT_EQ(run_cli(dir, "generate opsum --sites 12 --translate --term '0.5 Sp 0 Sm 1' --term '0.5 Sm 0 Sp 1' "
                         "--term '0.7 Sz 0 Sz 1' -o h.h5 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "generate step --from h.h5 --dt 0.05 -o uo.h5 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "generate neel --sites 12 -o neel.h5 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "evolve uo.h5 neel.h5 --steps 3 --dt 0.05 --chi 16 --seed 1 -o evo.h5 -q").code, 0);
  const auto i = run_cli(dir, "compress evo.h5:/result --chi 16 --seed 1 --template " + itensor + ":/psi -o backi.h5 --json");
  ASSERT_EQ(i.code, 0) << i.err;
  EXPECT_TRUE(has(i.out, "\"output_format\": \"itensor\"")) << i.out;
  EXPECT_LT(relative_distance(dir, "backi.h5:/psi", "evo.h5:/result"), 1e-13);
  // Templates that do not fit: another length, an MPO, another basis order (SpinSite's).
  ASSERT_EQ(run_cli(dir, "generate neel --sites 10 -o n10.h5 -q").code, 0);
  expect_clean_failure(run_cli(dir, "compress n10.h5 --chi 4 --template " + tenpy + ":/psi -o x.h5"), 3, "of 12 sites", dir);
  expect_clean_failure(run_cli(dir, "compress evo.h5:/result --chi 4 --template " + tenpy + ":/H_MPO -o x.h5"), 3, "an MPO", dir);
  expect_clean_failure(run_cli(dir, "compress evo.h5:/result --chi 4 --template " + tenpy + ":/psi -o x.h5"), 3,
                       "(down, up)", dir);
}

// An MPO state ρ: expect gives Tr(ρ O)/Tr ρ and Tr ρ, against the dense matrices; a traceless ρ
// has no such ratio (exit 7); what only a pure state has is refused.
TEST(CliModel, TracesOfMpoStatesAreTheDenseOnes) {
  TempDir dir;
  ASSERT_EQ(run_cli(dir, "generate random-mpo --sites 5 --bond 3 --seed 2 --dtype complex128 -o rho.h5 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "generate xxz --sites 5 --delta 0.6 --h 0.3 -o h.h5 -q").code, 0);
  const auto r = run_cli(dir, "expect rho.h5 h.h5 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto matrix = [&](const std::string& f) {
    const DenseTrain t = dense_train(read_cores(dir / f, ""));
    return interleaved_to_matrix(t.v, t.ups, t.downs);
  };
  const auto rho = matrix("rho.h5"), h = matrix("h.h5");
  const std::size_t big = 32;
  cdouble tr = 0, trh = 0;
  for (std::size_t i = 0; i < big; ++i) {
    tr += rho[i * big + i];
    for (std::size_t k = 0; k < big; ++k) trh += rho[i * big + k] * h[k * big + i];
  }
  const cdouble want = trh / tr;
  EXPECT_NEAR(json_number(r.out, "re"), want.real(), 1e-12 * std::abs(want));
  EXPECT_NEAR(json_number(r.out, "im"), want.imag(), 1e-12 * std::abs(want));
  EXPECT_NEAR(json_number(r.out, "log10_trace"), std::log10(std::abs(tr)), 1e-12);
  EXPECT_NEAR(json_number(r.out, "trace_phase_re"), (tr / std::abs(tr)).real(), 1e-12);
  // The identity: Tr 1 = 2^5, and the traceless XXZ chain without field has ⟨H⟩ = 0 there.
  ASSERT_EQ(run_cli(dir, "generate identity --sites 5 -o one.h5 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "generate xxz --sites 5 -o h0.h5 -q").code, 0);
  const auto i = run_cli(dir, "expect one.h5 h0.h5 --json");
  ASSERT_EQ(i.code, 0) << i.err;
  EXPECT_NEAR(json_number(i.out, "log10_trace"), 5 * std::log10(2.0), 1e-14);
  EXPECT_NEAR(json_number(i.out, "re"), 0.0, 1e-15);
  expect_clean_failure(run_cli(dir, "expect h0.h5 h.h5"), 7, "has trace 0", dir);
  // --trace alone: Tr ρ without operators; an MPS has none.
  const auto t = run_cli(dir, "expect rho.h5 --trace --json");
  ASSERT_EQ(t.code, 0) << t.err;
  EXPECT_NEAR(json_number(t.out, "log10_trace"), std::log10(std::abs(tr)), 1e-12);
  ASSERT_EQ(run_cli(dir, "generate product --sites 5 -o up.h5 -q").code, 0);
  expect_clean_failure(run_cli(dir, "expect up.h5 --trace"), 2, "is an MPS", dir);
  expect_clean_failure(run_cli(dir, "expect rho.h5 h.h5 --variance"), 2, "is an MPO", dir);
}

// The step MPOs of TeNPy's XXZ chain as TeNPy's make_U_II and make_U_I build them
// (scripts/make_local_reference.py), real and imaginary time; and one W^II step of our own
// opsum chain applied to a Néel state against the dense exponential's first order.
TEST(CliModel, StepMposAreTenpysOwn) {
  TempDir dir;
  const std::string h = data("tenpy_xxz_L12_sz.h5") + ":/H_MPO", ref = data("tenpy_xxz_L12_steps.h5");
  struct Case {
    const char* flags;
    const char* group;
  };
  for (const Case& c : {Case{"", "/U_II_real"}, Case{" --imaginary-time", "/U_II_imag"}, Case{" --approximation I", "/U_I_real"}}) {
    const auto g = run_cli(dir, "generate step --from " + h + " --dt 0.1" + c.flags + " -o u.h5 --force --json");
    ASSERT_EQ(g.code, 0) << g.err;
    EXPECT_LT(relative_distance(dir, "u.h5", ref + ":" + c.group), 1e-13) << c.group;
  }
  // Order 2: one MPO, the exact product of TeNPy's two complex half steps (ExpMPOEvolution's).
  ASSERT_EQ(run_cli(dir, "generate step --from " + h + " --dt 0.1 --order 2 -o o2.h5 --force -q").code, 0);
  ASSERT_EQ(run_cli(dir, "apply " + ref + ":/U_II_order2_second " + ref + ":/U_II_order2_first -o p2.h5 --chi 16 "
                         "--output-format srcc -q").code, 0);
  EXPECT_LT(relative_distance(dir, "o2.h5", "p2.h5:/result"), 1e-13);
  // It keeps H's charges: a step of a charged chain runs on them.
  ASSERT_EQ(run_cli(dir, "generate step --from " + h + " --dt 0.1 -o u.h5 --force -q").code, 0);
  const auto a = run_cli(dir, "apply u.h5 " + data("tenpy_xxz_L12_sz.h5") + ":/psi -o up.h5 --chi 32 --seed 1 --json");
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_TRUE(has(a.out, "\"symmetry\": \"U(1)\"")) << a.out;
  expect_clean_failure(run_cli(dir, "generate step --from " + h + " -o v.h5"), 2, "needs the step's time", dir);
  expect_clean_failure(run_cli(dir, "generate step --dt 0.1 -o v.h5"), 2, "--from", dir);
  expect_clean_failure(run_cli(dir, "generate step --from " + data("tenpy_xxz_L12_sz.h5") + ":/psi --dt 0.1 -o v.h5"), 2,
                       "must be an MPO", dir);
  expect_clean_failure(run_cli(dir, "generate xxz --from " + h + " -o v.h5"), 2, "only for generate step", dir);
}

// A W^II step keeps the norm only to O(dt²) per step, a real-time Taylor step to its series'
// remainder: evolve says so, with the step's own remedy, once the drift passes 1% (and again
// at 10×), not for a step small enough, nor for an imaginary-time Taylor step, nor under
// --normalize.
TEST(CliModel, EvolveWarnsWhenTheStepChangesTheNorm) {
  TempDir dir;
  const std::string f = data("tenpy_xxz_L12_sz.h5");
  ASSERT_EQ(run_cli(dir, "generate step --from " + f + ":/H_MPO --dt 0.1 -o u.h5 -q").code, 0);
  const auto big = run_cli(dir, "evolve u.h5 " + f + ":/psi --steps 12 --dt 0.1 --chi 64 -o t.h5");
  ASSERT_EQ(big.code, 0) << big.err;
  EXPECT_TRUE(has(big.err, "norm has changed by +1.88% over 1 steps")) << big.err;
  EXPECT_TRUE(has(big.err, "over 6 steps")) << "again at ten times the drift: " << big.err;
  ASSERT_EQ(run_cli(dir, "generate step --from " + f + ":/H_MPO --dt 0.005 -o s.h5 -q").code, 0);
  const auto small = run_cli(dir, "evolve s.h5 " + f + ":/psi --steps 8 --dt 0.005 --chi 64 -o t2.h5");
  ASSERT_EQ(small.code, 0) << small.err;
  EXPECT_FALSE(has(small.err, "norm has changed")) << small.err;
  // A real-time Taylor step errs by its series' remainder: the Ising ground state's E·dt = −1.33
  // loses 3.0% a step at order 4 (|Σ_{m≤4} (−iE·dt)^m/m!| = 0.9698); the advice is the Taylor step's.
  const std::string g = data("tenpy_tfi_L16_parity.h5");
  const auto series = run_cli(dir, "evolve " + g + ":/H_MPO " + g + ":/psi --taylor 4 --steps 1 --dt 0.05 --chi 40 -o t6.h5");
  ASSERT_EQ(series.code, 0) << series.err;
  EXPECT_TRUE(has(series.err, "norm has changed by -3.02% over 1 steps")) << series.err;
  EXPECT_TRUE(has(series.err, "a --taylor 4 step errs by about |E·dt|^5/5! per step")) << series.err;
  EXPECT_FALSE(has(series.err, "Trotter")) << series.err;
  EXPECT_TRUE(has(big.err, "Trotter step errs by O(dt²)")) << big.err;
  const auto tau = run_cli(dir, "evolve " + f + ":/H_MPO " + f + ":/psi --taylor 2 --imaginary-time --steps 4 --dt 0.2 --chi 32 -o t3.h5");
  ASSERT_EQ(tau.code, 0) << tau.err;
  EXPECT_FALSE(has(tau.err, "norm has changed")) << tau.err;
  // An imaginary-time step renormalised by --normalize changes the norm by design: no warning
  // (the one it gave told the user to pass the --normalize they had passed).
  ASSERT_EQ(run_cli(dir, "generate step --from " + f + ":/H_MPO --dt 0.1 --imaginary-time -o i.h5 -q").code, 0);
  const auto plain = run_cli(dir, "evolve i.h5 " + f + ":/psi --steps 3 --dt 0.1 --chi 32 -o t4.h5");
  ASSERT_EQ(plain.code, 0) << plain.err;
  EXPECT_TRUE(has(plain.err, "norm has changed")) << "without --normalize the advice stands: " << plain.err;
  const auto normalized = run_cli(dir, "evolve i.h5 " + f + ":/psi --steps 3 --dt 0.1 --chi 32 --normalize -o t5.h5");
  ASSERT_EQ(normalized.code, 0) << normalized.err;
  EXPECT_FALSE(has(normalized.err, "norm has changed")) << normalized.err;
}

// evolve's --measure, --measure-site-op and --measure-entropy columns are what expect says of the
// states it saved (expect's own values are TeNPy's, tests above), a complex operator measured on a real
// state making the run complex.
// An XXZ chain of 12 spins (U(1) charges from opsum), its W^II step at dt = 0.05 and the Néel
// state: h.h5, u.h5, neel.h5.
void write_xxz12(const TempDir& dir) {
  ASSERT_EQ(run_cli(dir, "generate opsum --sites 12 --translate --term '0.5 Sp 0 Sm 1' --term '0.5 Sm 0 Sp 1' "
                         "--term '0.7 Sz 0 Sz 1' -o h.h5 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "generate step --from h.h5 --dt 0.05 -o u.h5 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "generate neel --sites 12 -o neel.h5 -q").code, 0);
}

TEST(CliModel, EvolveMeasuresWhatExpectMeasures) {
  TempDir dir;
  write_xxz12(dir);
  // The steps compute on the charges and measure in the blocks (the sweep's B form, plain and
  // after an oversampled run's truncation); expect measures the saved states dense.
  for (const std::string flags : {"", " --oversample"}) {
    const auto r = run_cli(dir, "evolve u.h5 neel.h5 --steps 4 --dt 0.05 --chi 32 -o t.h5 --force --save-every 2 "
                                "--measure h.h5 --overlap neel.h5 --measure-site-op Sz --measure-site-op Sp --measure-entropy -q "
                                "--json" + flags);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(has(r.out, "\"symmetry\": \"U(1)\"")) << r.out;
    const auto t = read_columns(dir / "t.h5", "/trajectory");
    ASSERT_TRUE(t.count("Sz_11") && t.count("Sp_3_im") && t.count("S_11") && t.count("h_re")) << "columns";
    for (int k : {2, 4}) {
      const auto h = run_cli(dir, "expect t.h5:/states/" + std::to_string(k) + " h.h5 --json --symmetry off");
      ASSERT_EQ(h.code, 0) << h.err;
      EXPECT_NEAR(t.at("h_re")[k - 1], json_number(h.out, "re"), 1e-12) << k << flags;
      EXPECT_NEAR(t.at("h_im")[k - 1], json_number(h.out, "im"), 1e-12) << k << flags;
      const auto e = run_cli(dir, "expect t.h5:/states/" + std::to_string(k) + " --site-op Sz --site-op Sp --entropy --json --symmetry off");
      ASSERT_EQ(e.code, 0) << e.err;
      std::size_t at = 0;
      const auto sz = json_numbers(json_array_after(e.out, "re", at));
      (void)json_array_after(e.out, "im", at);
      const auto sp_re = json_numbers(json_array_after(e.out, "re", at)), sp_im = json_numbers(json_array_after(e.out, "im", at));
      for (std::size_t i = 0; i < 12; ++i) {
        EXPECT_NEAR(t.at("Sz_" + std::to_string(i))[k - 1], sz[i], 1e-12) << k << " " << i << flags;
        EXPECT_NEAR(t.at("Sp_" + std::to_string(i))[k - 1], sp_re[i], 1e-12);
        EXPECT_NEAR(t.at("Sp_" + std::to_string(i) + "_im")[k - 1], sp_im[i], 1e-12);
      }
      std::size_t b = 0;
      for (int bond = 1; bond < 12; ++bond) {
        const auto key = e.out.find("\"von_neumann\": ", b);
        ASSERT_NE(key, std::string::npos);
        b = key + 1;
        EXPECT_NEAR(t.at("S_" + std::to_string(bond))[k - 1], std::atof(e.out.c_str() + key + 15), 1e-10) << bond << flags;
      }
    }
    EXPECT_GT(t.at("S_6")[3], 0.01) << "the Néel state entangles";
    // ⟨Néel|ψ⟩ as the same evolution computed dense has it (its bonds stay small enough here
    // that the two agree to rounding), with --normalize's rescaled states too.
    for (const std::string more : {"", " --normalize"}) {
      ASSERT_EQ(run_cli(dir, "evolve u.h5 neel.h5 --steps 4 --dt 0.05 --chi 32 -o c.h5 --force --overlap neel.h5 -q" + flags + more).code, 0);
      ASSERT_EQ(run_cli(dir, "evolve u.h5 neel.h5 --steps 4 --dt 0.05 --chi 32 -o d.h5 --force --overlap neel.h5 -q "
                             "--symmetry off" + flags + more).code, 0);
      const auto c = read_columns(dir / "c.h5", "/trajectory"), d = read_columns(dir / "d.h5", "/trajectory");
      for (std::size_t k = 0; k < 4; ++k) {
        EXPECT_NEAR(c.at("overlap_re")[k], d.at("overlap_re")[k], 1e-12) << k << flags << more;
        EXPECT_NEAR(c.at("overlap_im")[k], d.at("overlap_im")[k], 1e-12) << k << flags << more;
      }
      EXPECT_GT(std::abs(c.at("overlap_im")[3]), 0.1) << "the state has moved";
    }
  }
  expect_clean_failure(run_cli(dir, "evolve u.h5 neel.h5 --steps 1 --chi 8 -o x.h5 --measure-site-op Sq"), 2, "no operator 'Sq'", dir);
}

// An evolution on charges holds its state in the step's blocks between steps: resumed from its
// checkpoint (the dense state on file, split by charges again) it goes on as the uninterrupted
// run, and its --taylor steps are the same steps computed dense (χ̄ at the exact bond here).
TEST(CliModel, AChargedEvolutionResumesAndTakesTaylorStepsAsTheDenseOne) {
  TempDir dir;
  write_xxz12(dir);
  const std::string args = "evolve u.h5 neel.h5 --chi 20 --seed 3 --measure-site-op Sz --measure h.h5 -q";
  auto r = run_cli(dir, args + " --steps 6 -o whole.h5 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "\"symmetry\": \"U(1)\"")) << r.out;
  ASSERT_EQ(run_cli(dir, args + " --steps 3 -o part.h5").code, 0);
  r = run_cli(dir, args + " --steps 6 -o part.h5 --resume --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "\"resumed_from\": 3")) << r.out;
  EXPECT_LT(relative_distance(dir, "part.h5:/result", "whole.h5:/result"), 1e-13);
  const auto whole = read_columns(dir / "whole.h5", "/trajectory"), part = read_columns(dir / "part.h5", "/trajectory");
  for (const std::string c : {"norm", "h_re", "Sz_0", "Sz_5", "Sz_11"})
    for (std::size_t k = 0; k < 6; ++k) EXPECT_NEAR(part.at(c)[k], whole.at(c)[k], 1e-13) << c << " " << k;
  EXPECT_GT(std::abs(whole.at("Sz_5")[5] - whole.at("Sz_5")[0]), 1e-3) << "the state has moved";
  for (const std::string sym : {"auto", "off"})
    ASSERT_EQ(run_cli(dir, "evolve h.h5 neel.h5 --taylor 4 --dt 0.05 --steps 3 --chi 64 --seed 3 --measure-site-op Sz -q "
                           "--symmetry " + sym + " -o taylor_" + sym + ".h5").code, 0);
  EXPECT_LT(relative_distance(dir, "taylor_auto.h5:/result", "taylor_off.h5:/result"), 1e-12);
  const auto a = read_columns(dir / "taylor_auto.h5", "/trajectory"), d = read_columns(dir / "taylor_off.h5", "/trajectory");
  for (std::size_t k = 0; k < 3; ++k) EXPECT_NEAR(a.at("Sz_4")[k], d.at("Sz_4")[k], 1e-12) << k;
}

// ⟨O_i⟩ and ⟨A_i B_j⟩ of TeNPy's own states against TeNPy's expectation_value and
// correlation_function (scripts/make_local_reference.py): a spin chain stored in SpinSite's basis
// (down, up), a complex TEBD state, and spinless fermions whose correlations carry their
// Jordan-Wigner strings.
TEST(CliModel, LocalObservablesAreTenpysOwn) {
  TempDir dir;
  const std::string ref = data("tenpy_local_reference.h5");
  struct Case {
    std::string state, group, flags;
    std::vector<std::pair<std::string, std::string>> site_ops;     // ours, TeNPy's
    std::vector<std::pair<std::string, std::string>> correlations;  // ours "A,B", TeNPy's
  };
  const std::vector<Case> cases = {
      {data("tenpy_xxz_L12_sz.h5") + ":/psi", "xxz", "", {{"Sz", "Sz"}}, {{"Sz,Sz", "Sz,Sz"}, {"Sp,Sm", "Sp,Sm"}}},
      {data("tenpy_tfi_L10_quench.h5") + ":/psi", "tfi", "", {{"Sx", "Sx"}, {"Sy", "Sy"}, {"Sz", "Sz"}}, {{"Sx,Sx", "Sx,Sx"}}},
      {data("tenpy_fermions_L10.h5") + ":/psi", "fermions", " --site fermion", {{"N", "N"}},
       {{"Cdag,C", "Cd,C"}, {"C,Cdag", "C,Cd"}, {"N,N", "N,N"}}},
  };
  for (const auto& c : cases) {
    std::string args = "expect " + c.state + c.flags + " --json";
    for (const auto& [ours, theirs] : c.site_ops) args += " --site-op " + ours;
    for (const auto& [ours, theirs] : c.correlations) args += " --correlation " + ours;
    const auto r = run_cli(dir, args);
    ASSERT_EQ(r.code, 0) << r.err;
    std::size_t at = 0;
    auto compare = [&](const std::string& theirs) {
      const auto want = read_numbers(ref, "/" + c.group + "/" + theirs);
      const auto re = json_numbers(json_array_after(r.out, "re", at)), im = json_numbers(json_array_after(r.out, "im", at));
      ASSERT_EQ(re.size(), want.size()) << c.group << " " << theirs;
      ASSERT_EQ(im.size(), want.size());
      double most = 0;
      for (std::size_t i = 0; i < want.size(); ++i) most = std::max(most, std::abs(cdouble(re[i], im[i]) - want[i]));
      EXPECT_LT(most, 1e-11) << c.group << " " << theirs;
    };
    for (const auto& [ours, theirs] : c.site_ops) compare(theirs);
    for (const auto& [ours, theirs] : c.correlations) compare(theirs);
  }
}

// A random state (dense, no charges): ⟨O_i⟩ and the correlations by the sweep's canonical form
// against the dense vector and the operators built in the whole Hilbert space (generate opsum of
// one term), and the connected ones and a range of sites as their definitions say.
TEST(CliModel, LocalObservablesOfARandomStateAreTheDenseOnes) {
  TempDir dir;
  ASSERT_EQ(run_cli(dir, "generate random-mps --sites 6 --bond 5 --phys 2 --dtype complex128 --seed 3 -o psi.h5 -q").code, 0);
  const auto r = run_cli(dir, "expect psi.h5 --site-op Sx --correlation Sz,Sy --site-range 1:5 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  std::size_t at = 0;
  const auto sx = json_numbers(json_array_after(r.out, "re", at));
  (void)json_array_after(r.out, "im", at);
  const auto cre = json_numbers(json_array_after(r.out, "re", at)), cim = json_numbers(json_array_after(r.out, "im", at));
  ASSERT_EQ(sx.size(), 6u);
  ASSERT_EQ(cre.size(), 16u);
  auto value = [&](const std::string& term) {
    EXPECT_EQ(run_cli(dir, "generate opsum --sites 6 --term '" + term + "' -o o.h5 --force -q").code, 0);
    const auto e = run_cli(dir, "expect psi.h5 o.h5 --json");
    return cdouble(json_number(e.out, "re"), json_number(e.out, "im"));
  };
  for (std::size_t i : {0u, 3u, 5u}) EXPECT_NEAR(sx[i], value("1 Sx " + std::to_string(i)).real(), 1e-12) << i;
  for (std::size_t i = 1; i < 5; ++i)
    for (std::size_t j = 1; j < 5; ++j) {
      const cdouble v = value("1 Sz " + std::to_string(i) + " Sy " + std::to_string(j));
      EXPECT_NEAR(cre[(i - 1) * 4 + (j - 1)], v.real(), 1e-12) << i << " " << j;
      EXPECT_NEAR(cim[(i - 1) * 4 + (j - 1)], v.imag(), 1e-12) << i << " " << j;
    }
  const auto k = run_cli(dir, "expect psi.h5 --site-op Sz --site-op Sy --correlation Sz,Sy --connected --json");
  ASSERT_EQ(k.code, 0) << k.err;
  at = 0;
  const auto sz = json_numbers(json_array_after(k.out, "re", at));
  const auto szi = json_numbers(json_array_after(k.out, "im", at));
  const auto sy = json_numbers(json_array_after(k.out, "re", at));
  const auto syi = json_numbers(json_array_after(k.out, "im", at));
  const auto kre = json_numbers(json_array_after(k.out, "re", at)), kim = json_numbers(json_array_after(k.out, "im", at));
  const cdouble full = value("1 Sz 1 Sy 4");
  const cdouble connected = full - cdouble(sz[1], szi[1]) * cdouble(sy[4], syi[4]);
  EXPECT_NEAR(kre[1 * 6 + 4], connected.real(), 1e-12);
  EXPECT_NEAR(kim[1 * 6 + 4], connected.imag(), 1e-12);
  expect_clean_failure(run_cli(dir, "expect psi.h5 --site-op Sq"), 2, "no operator 'Sq'", dir);
  expect_clean_failure(run_cli(dir, "expect psi.h5 --correlation Sz"), 2, "give two operators", dir);
  expect_clean_failure(run_cli(dir, "expect psi.h5 --correlation Sz,Sz --site-range 4:9"), 2, "within 0:6", dir);
  expect_clean_failure(run_cli(dir, "expect psi.h5 --site-op Sz --site fermion"), 2, "fermion", dir);
  expect_clean_failure(run_cli(dir, "expect psi.h5 --site-op C --site fermion"), 2, "odd in fermions", dir);
}

}  // namespace
}  // namespace srcc::test
