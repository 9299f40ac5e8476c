// The kernels OpenBLAS runs a product on: the CPU's own (AVX2 or AVX-512) wherever it has them,
// also where OpenBLAS's detection does not know the CPU's model and fell back to its SSE3
// "Prescott" kernels (Debian's 0.3.21 on Emerald Rapids) — the program starts itself again
// with $OPENBLAS_CORETYPE then (blas_core.hpp). A choice someone made stays.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "../support/cli_runner.hpp"
#include "../support/h5_read.hpp"

namespace srcc::test {
namespace {

// The kernels a run's /log names.
std::string kernels_of(const TempDir& dir) {
  const auto r = run_cli(dir, "generate random-mps -o psi.h5 --sites 6 --bond 4 --seed 1 -q --force");
  EXPECT_EQ(r.code, 0) << r.err;
  const auto a = run_cli(dir, "compress psi.h5 -o out.h5 --chi 2 --seed 1 -q --force");
  EXPECT_EQ(a.code, 0) << a.err;
  const std::string blas = read_string_attr(dir.path() / "out.h5", "/log", "blas");
  const auto at = blas.find("kernels ");
  EXPECT_NE(at, std::string::npos) << blas;
  return at == std::string::npos ? "" : blas.substr(at + 8, blas.find(';', at) - at - 8);
}

TEST(CliBlas, RunsOnTheKernelsTheCpuHas) {
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx2")) GTEST_SKIP() << "this CPU has no AVX2: OpenBLAS's SSE3 kernels are its own";
  ASSERT_EQ(std::getenv("OPENBLAS_CORETYPE"), nullptr) << "the test needs OpenBLAS's own choice";
  TempDir dir;
  const std::string kernels = kernels_of(dir);
  EXPECT_FALSE(kernels.empty());
  EXPECT_NE(kernels, "Prescott") << "a CPU with AVX2 runs OpenBLAS's SSE3 kernels";
  // --version names them, for bug reports and for the benchmarks' peers (scripts/peer_blas.sh).
  const auto v = run_cli(dir, "--version");
  EXPECT_EQ(v.code, 0) << v.err;
  EXPECT_NE(v.out.find("OpenBLAS kernels: " + kernels + "\n"), std::string::npos) << v.out;
}

TEST(CliBlas, AChosenKernelStays) {
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx2")) GTEST_SKIP() << "this CPU has no AVX2 for the Haswell kernels";
  TempDir dir;
  setenv("OPENBLAS_CORETYPE", "Haswell", 1);
  const std::string kernels = kernels_of(dir);
  unsetenv("OPENBLAS_CORETYPE");
  EXPECT_EQ(kernels, "Haswell");
}

}  // namespace
}  // namespace srcc::test
