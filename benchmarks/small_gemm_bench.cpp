// The sweep's small complex-double products on one thread: OpenBLAS against our direct kernel
// (backend/cpu/direct_gemm.hpp), each kernel this CPU runs.
//   build/benchmarks/srcc_bench --benchmark_filter=SmallProduct --benchmark_counters_tabular=true
// Arguments: shape (see kShapes), kernel (0 OpenBLAS, 1 direct AVX-512, 2 direct AVX2), cache
// (0 "warm": the same operands every time; 1 "cold": operand sets of 64 MB in all taken in turn,
// as a sweep meets them). Kernels this CPU lacks are skipped.
#include <benchmark/benchmark.h>
#include <cblas.h>

#include <algorithm>
#include <random>
#include <vector>

#include "srcc/backend/cpu/direct_gemm.hpp"

namespace {

using srcc::cdouble;
using srcc::direct_gemm::Kernel;

struct Shape {
  bool trans_a;
  std::size_t m, n, k, ldb;  // ldb 0: n
};
// The sweep's shapes at N = 50 (bond = χ̄) and D = 16, χ̄ = 32 (docs/PERFORMANCE.md).
constexpr Shape kShapes[] = {
    {true, 50, 50, 100, 0},      // 0: left, V_aᵀ·E_a per column
    {false, 150, 100, 50, 0},    // 1: left, E = C·M for a piece of 3 columns
    {false, 100, 50, 100, 0},    // 2: right, W·F_b per row
    {false, 2500, 100, 50, 0},   // 3: right, F = S·M
    {false, 50, 1250, 100, 2500},  // 4: right, half of S ← conj(η)·Z'
    {false, 256, 32, 16, 0},     // 5: left at D = 16, E = C·M for 16 columns
    {true, 16, 16, 32, 0},       // 6: left at D = 16, per column
};

void BM_SmallProduct(benchmark::State& state) {
  const Shape s = kShapes[state.range(0)];
  const bool blas = state.range(1) == 0;
  const Kernel kernel = state.range(1) == 1 ? Kernel::kAvx512 : Kernel::kAvx2;
  if (!blas && !srcc::direct_gemm::supported(kernel)) {
    state.SkipWithError("this CPU lacks the kernel's instructions");
    return;
  }
  openblas_set_num_threads(1);
  const std::size_t ldb = s.ldb == 0 ? s.n : s.ldb, lda = s.trans_a ? s.m : s.k;
  const std::size_t per_set = s.m * s.k + s.k * ldb + s.m * s.n;
  const std::size_t sets =
      state.range(2) == 0 ? 1 : std::max<std::size_t>(2, (std::size_t{64} << 20) / (per_set * sizeof(cdouble)));
  std::mt19937_64 g(1);
  std::normal_distribution<double> normal;
  std::vector<std::vector<cdouble>> a(sets), b(sets), c(sets);
  for (std::size_t q = 0; q < sets; ++q) {
    a[q].resize(s.m * s.k);
    b[q].resize(s.k * ldb);
    c[q].resize(s.m * s.n);
    for (auto& x : a[q]) x = {normal(g), normal(g)};
    for (auto& x : b[q]) x = {normal(g), normal(g)};
  }
  const cdouble one(1), zero(0);
  std::size_t q = 0;
  for (auto _ : state) {
    if (blas)
      cblas_zgemm(CblasRowMajor, s.trans_a ? CblasTrans : CblasNoTrans, CblasNoTrans,
                  static_cast<int>(s.m), static_cast<int>(s.n), static_cast<int>(s.k), &one,
                  a[q].data(), static_cast<int>(lda), b[q].data(), static_cast<int>(ldb), &zero,
                  c[q].data(), static_cast<int>(s.n));
    else
      srcc::direct_gemm::zgemm(kernel, s.trans_a, s.m, s.n, s.k, one, a[q].data(), lda,
                               b[q].data(), ldb, zero, c[q].data(), s.n);
    benchmark::DoNotOptimize(c[q].data());
    q = q + 1 == sets ? 0 : q + 1;
  }
  state.counters["GFLOP/s"] = benchmark::Counter(
      8.0 * static_cast<double>(s.m * s.n * s.k) * static_cast<double>(state.iterations()) / 1e9,
      benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SmallProduct)
    ->ArgsProduct({{0, 1, 2, 3, 4, 5, 6}, {0, 1, 2}, {0, 1}})
    ->ArgNames({"shape", "kernel", "cold"})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

}  // namespace
