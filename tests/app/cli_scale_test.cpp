// Trains whose norm lies beyond a double (1e-500, 1e+900) or is zero: products, compressions,
// expectation values, distances and imaginary-time evolutions give the right numbers, carrying
// the scale in logarithms and in the `log_scale` attribute; only an answer that does not exist
// is an error (exit 7). References: the same computation on the unscaled train, shifted by the
// known scale, and an evolution normalised at every step.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

#include "../support/cli_runner.hpp"
#include "../support/h5_edit.hpp"
#include "../support/h5_read.hpp"

namespace srcc::test {
namespace {

namespace fs = std::filesystem;

class Scale : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(run_cli(dir_, "generate random-mps -o r.h5 --sites 12 --bond 6 --seed 1 -q").code, 0);
    ASSERT_EQ(run_cli(dir_, "generate ising -o H.h5 --sites 12 --J 1 --h 0.7 -q").code, 0);
    // e300.h5: site 0 times 1e-300 (entries near the smallest doubles); tiny.h5: every site
    // times 1e-40 (norm about 1e-487 though each entry is ordinary); big.h5: every site times 1e+20.
    for (const auto& [name, site0, each] : {std::tuple{"e300.h5", 1e-300, 1.0}, {"tiny.h5", 1e-40, 1e-40}, {"big.h5", 1e20, 1e20}}) {
      fs::copy_file(dir_ / "r.h5", dir_ / name);
      for (int j = 0; j < 12; ++j) scale_dataset(dir_ / name, "/psi/" + std::to_string(j), j == 0 ? site0 : each);
    }
  }
  double json(const std::string& args, const std::string& key) {
    const auto r = run_cli(dir_, args + " --json");
    EXPECT_EQ(r.code, 0) << args << ": " << r.err;
    return json_number(r.out, key);
  }
  TempDir dir_;
};

TEST_F(Scale, ProductsAndCompressionsOfAnyMagnitudeKeepTheirScale) {
  const double base = json("apply H.h5 r.h5 -o base.h5 --chi 8 --seed 3", "log10_norm");
  const std::map<std::string, double> shift = {{"e300.h5", -300}, {"tiny.h5", -40 * 12}, {"big.h5", 20 * 12}};
  for (const auto& [input, by] : shift) {
    SCOPED_TRACE(input);
    const std::string out = "p_" + input;
    EXPECT_NEAR(json("apply H.h5 " + input + " -o " + out + " --chi 8 --seed 3", "log10_norm"), base + by, 1e-9);
    // The same numbers as the unscaled product, the scale apart.
    EXPECT_NEAR(json("distance " + out + " base.h5", "log10_norm_a"), base + by, 1e-9);
    EXPECT_NEAR(json("distance " + out + " base.h5", "cosine_re"), 1.0, 1e-12);
    EXPECT_NEAR(json("expect " + out + " H.h5", "re"), json("expect base.h5 H.h5", "re"), 1e-9);
    EXPECT_NEAR(json("expect " + out + " H.h5", "log10_norm"), base + by, 1e-9);
    EXPECT_NEAR(json("collect " + out, "log10_norm"), base + by, 1e-9);
    // --oversample, compress and truncate of the scaled result keep the scale too.
    EXPECT_NEAR(json("apply H.h5 " + input + " -o os_" + input + " --chi 8 --seed 3 --oversample", "log10_norm"),
                json("apply H.h5 r.h5 -o os.h5 --chi 8 --seed 3 --oversample --force", "log10_norm") + by, 1e-9);
    EXPECT_NEAR(json("truncate " + out + " -o t_" + input + " --chi 4", "log10_norm"),
                json("truncate base.h5 -o t.h5 --chi 4 --force", "log10_norm") + by, 1e-9);
    EXPECT_NEAR(json("compress " + out + " -o c_" + input + " --chi 4 --seed 5", "log10_norm"),
                json("compress base.h5 -o c.h5 --chi 4 --seed 5 --force", "log10_norm") + by, 1e-9);
  }
  // Beyond a double the scale is an attribute of /result; within, the cores hold it.
  EXPECT_LT(read_double_attr(dir_ / "p_tiny.h5", "/result", "log_scale"), -1000);
  EXPECT_FALSE(has_attr(dir_ / "p_big.h5", "/result", "log_scale"));
}

TEST_F(Scale, ZeroStatesGiveAnAnswerOrExitSeven) {
  fs::copy_file(dir_ / "r.h5", dir_ / "zero.h5");
  scale_dataset(dir_ / "zero.h5", "/psi/0", 0.0);
  // ⟨ψ|H|ψ⟩/⟨ψ|ψ⟩ of the zero state does not exist.
  auto r = run_cli(dir_, "expect zero.h5 H.h5");
  EXPECT_EQ(r.code, 7) << r.out;
  EXPECT_NE(r.err.find("zero.h5:/psi has norm 0: ⟨ψ|O|ψ⟩/⟨ψ|ψ⟩ is undefined"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("nan"), std::string::npos) << r.out;
  // ‖0 − B‖/‖B‖ = 1; the cosine is undefined and says so.
  r = run_cli(dir_, "distance zero.h5 r.h5");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("‖A − B‖/‖B‖ = 1.000000e+00"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("undefined (‖A‖ = 0)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("nan"), std::string::npos) << r.out;
  // Relative to a zero train there is no distance.
  r = run_cli(dir_, "distance r.h5 zero.h5");
  EXPECT_EQ(r.code, 7) << r.out;
  EXPECT_NE(r.err.find("zero.h5:/psi has norm 0"), std::string::npos) << r.err;
}

// e^{−τH} over a long imaginary time without --normalize: the norm passes e^{+2000} (and, from a
// state of norm e^{−4000}, stays near e^{−2000}); the measured energies equal those of the run
// normalised at every step, and the norm's logarithm is the sum of the steps' growths.
TEST_F(Scale, ImaginaryTimeBeyondADoubleEqualsTheNormalisedRun) {
  ASSERT_EQ(run_cli(dir_, "generate product -o up.h5 --sites 12 -q").code, 0);
  fs::copy_file(dir_ / "up.h5", dir_ / "low.h5");
  set_double_attr(dir_ / "low.h5", "/psi", "log_scale", -4000.0);  // norm e^{−4000}
  const std::string evolve = "evolve --taylor 2 H.h5 --imaginary-time --dt 0.3 --steps 800 --chi 16 --seed 2 --measure H.h5 -q";
  ASSERT_EQ(run_cli(dir_, evolve + " up.h5 --normalize -o norm.h5").code, 0);
  const auto normed = read_columns(dir_ / "norm.h5", "/trajectory");
  double growth = 0;  // log10 of the product of the steps' norms
  for (double g : normed.at("log10_norm")) growth += g;
  ASSERT_GT(growth * std::log(10.0), 2000.0);
  for (const auto& [start, log10_start] : {std::pair{std::string("up.h5"), 0.0}, {std::string("low.h5"), -4000.0 / std::log(10.0)}}) {
    SCOPED_TRACE(start);
    const auto r = run_cli(dir_, evolve + " " + start + " -o free.h5 --force");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto free = read_columns(dir_ / "free.h5", "/trajectory");
    ASSERT_EQ(free.at("H_re").size(), 800u);
    for (std::size_t k = 0; k < 800; ++k) {
      ASSERT_TRUE(std::isfinite(free.at("H_re")[k])) << "step " << k + 1;
      EXPECT_NEAR(free.at("H_re")[k], normed.at("H_re")[k], 1e-10) << "step " << k + 1;
    }
    EXPECT_NEAR(free.at("log10_norm").back(), log10_start + growth, 1e-8 * std::abs(growth));
    // The file's state: expect reads its scale.
    const auto e = run_cli(dir_, "expect free.h5 H.h5 --json");
    ASSERT_EQ(e.code, 0) << e.err;
    EXPECT_NEAR(json_number(e.out, "re"), free.at("H_re").back(), 1e-10);
    EXPECT_NEAR(json_number(e.out, "log10_norm"), free.at("log10_norm").back(), 1e-8 * std::abs(growth));
    // Stopped halfway (its checkpoint beyond a double) and resumed: the same evolution.
    std::string half = evolve + " " + start + " -o half.h5 --force";
    ASSERT_EQ(run_cli(dir_, half.replace(half.find("--steps 800"), 11, "--steps 400")).code, 0);
    const auto resumed = run_cli(dir_, evolve + " " + start + " -o half.h5 --resume");
    ASSERT_EQ(resumed.code, 0) << resumed.err;
    const auto again = read_columns(dir_ / "half.h5", "/trajectory");
    EXPECT_NEAR(again.at("H_re").back(), free.at("H_re").back(), 1e-10);
    EXPECT_NEAR(again.at("log10_norm").back(), free.at("log10_norm").back(), 1e-8 * std::abs(growth));
  }
}

}  // namespace
}  // namespace srcc::test
