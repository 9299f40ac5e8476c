// Speed of the hot path next to the machine's GEMM rate.
//   build/benchmarks/srcc_bench --benchmark_counters_tabular=true
// BM_Zgemm: ZGEMM of n × n matrices (the machine's peak for complex128 in practice); BM_Dgemm
// the same for float64.
// BM_FirstTouch: mapping fresh memory, as the sweep's environments are mapped (anonymous, 4 KiB
// pages): the cost of the first write to each page (per_page). A fresh process pays this for every
// environment it keeps (200 MB at n = 100, N = 50); it depends on the kernel and on the
// virtualisation, not on the sweep (docs/PERFORMANCE.md, "Memory").
// BM_Sweep: the SRC sweep of a random MPO (bond D) times a random MPS (bond χ), χ̄ = χ,
// complex128, with the real flop count of its GEMMs: compare GFLOP/s with BM_Zgemm. With
// warm:1 one sweep runs untimed first on the same backend, so that the timed ones find their
// memory in the backend's block cache: the rate of a process that computes several products,
// without the first touch of every environment (a page fault each 4 KiB, which costs ~7% of a
// run's CPU time on the virtual machines we measure on; see docs/PERFORMANCE.md).
#include <benchmark/benchmark.h>
#include <cblas.h>
#include <sys/mman.h>
#include <unistd.h>

#include <complex>
#include <vector>

#include "srcc/backend/cpu/blas_core.hpp"
#include "srcc/backend/cpu/cpu_backend.hpp"
#include "srcc/sweep/sweep.hpp"
#include "srcc/train/generate.hpp"

namespace {

using srcc::cdouble;

void BM_Zgemm(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  std::vector<cdouble> a(n * n, cdouble(0.5, 0.1)), b(n * n, cdouble(0.2, -0.3)), c(n * n);
  const cdouble one(1), zero(0);
  for (auto _ : state) {
    cblas_zgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, &one, a.data(), n, b.data(),
                n, &zero, c.data(), n);
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["GFLOP/s"] =
      benchmark::Counter(8.0 * n * n * n * state.iterations() / 1e9, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Zgemm)->Arg(256)->Arg(512)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->UseRealTime();

// The same for float64 (the rate a real run, such as a charged XXZ product, is held to).
void BM_Dgemm(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  std::vector<double> a(n * n, 0.5), b(n * n, -0.3), c(n * n);
  for (auto _ : state) {
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a.data(), n, b.data(), n, 0.0, c.data(), n);
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["GFLOP/s"] =
      benchmark::Counter(2.0 * n * n * n * state.iterations() / 1e9, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Dgemm)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_FirstTouch(benchmark::State& state) {
  const std::size_t bytes = static_cast<std::size_t>(state.range(0)) << 20;
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  for (auto _ : state) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
      state.SkipWithError("mmap failed");
      break;
    }
    // 4 KiB pages, as the environments get them at n = 100, N = 50: each is its own mapping
    // of 2,000,000 bytes, less than a 2 MiB huge page, so even a host with transparent huge
    // pages always on maps them in 4 KiB pages.
    madvise(p, bytes, MADV_NOHUGEPAGE);
    auto* c = static_cast<volatile char*>(p);
    for (std::size_t at = 0; at < bytes; at += page) c[at] = 1;
    munmap(p, bytes);
  }
  // Seconds a page (the console shows it in µs; --benchmark_format=json gives seconds).
  state.counters["per_page"] = benchmark::Counter(
      static_cast<double>(bytes / page) * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_FirstTouch)->Arg(64)->Unit(benchmark::kMillisecond)->UseRealTime();

srcc::StackData<cdouble> stack(std::size_t n, std::size_t d_mpo, std::size_t chi) {
  srcc::StackData<cdouble> data;
  const std::pair<srcc::TrainKind, std::size_t> layers[2] = {{srcc::TrainKind::kMpo, d_mpo},
                                                             {srcc::TrainKind::kMps, chi}};
  for (auto [kind, bond] : layers) {
    srcc::TrainInfo info;
    info.file = "memory";
    info.group = kind == srcc::TrainKind::kMpo ? "/H" : "/psi";
    info.kind = kind;
    auto cores = srcc::random_train<cdouble>(kind, n, bond, 2, bond);
    for (const auto& c : cores) {
      info.dims.push_back({c.shape[0], c.shape[1], c.shape[2], c.shape[3]});
      info.dtypes.push_back(srcc::DType::kComplex128);
    }
    data.stack.layers.push_back(info);
    data.sites.push_back(std::move(cores));
  }
  return data;
}

void BM_Sweep(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto bond = static_cast<std::size_t>(state.range(1));
  const auto data = stack(n, bond, bond);
  auto backend = srcc::make_cpu_backend(0);
  srcc::SilentReporter reporter;
  srcc::SweepOptions o;
  o.chi = bond;
  o.seed = 1;
  if (state.range(2) != 0) {
    srcc::TransferLog log;
    benchmark::DoNotOptimize(srcc::run_sweep(data, o, *backend, log, reporter).cores.data());
  }
  double flops = 0;
  for (auto _ : state) {
    srcc::TransferLog log;
    auto r = srcc::run_sweep(data, o, *backend, log, reporter);
    flops += r.flops;
    benchmark::DoNotOptimize(r.cores.data());
  }
  state.counters["GFLOP/s"] = benchmark::Counter(flops / 1e9, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Sweep)
    ->ArgNames({"n", "bond", "warm"})
    ->Args({40, 32, 0})
    ->Args({40, 64, 0})
    ->Args({100, 50, 0})
    ->Args({100, 50, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

// The program's own kernel choice (blas_core.hpp), so that the rates measured here are the
// ones src-compress runs at.
int main(int argc, char** argv) {
  srcc::restart_for_blas_kernels(argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
