// Tests of the CUDA backend (lib/srcc/backend/cuda/): every kernel against the CPU backend on
// the same inputs, and whole sweeps CPU vs GPU with the same seed. Without a CUDA device (CI)
// the GPU tests skip with the reason; the error a user gets is tested here too.
#include <gtest/gtest.h>

#include <cmath>
#include <thread>

#include "../support/dense.hpp"
#include "../support/stacks.hpp"
#include "../symmetric/charged_support.hpp"
#include "srcc/backend/cuda/cuda_backend.hpp"
#include "srcc/backend/device.hpp"
#include "srcc/core/error.hpp"
#include "srcc/core/rng.hpp"
#include "srcc/sweep/sketch.hpp"

namespace srcc::test {
namespace {

#define REQUIRE_GPU()                                                   \
  do {                                                                  \
    std::string why;                                                    \
    if (cuda_device_count(why) == 0) GTEST_SKIP() << "no GPU: " << why; \
  } while (0)

TEST(Device, MissingGpuIsABackendErrorThatPointsToTheCpu) {
  std::string why;
  if (cuda_device_count(why) > 0) GTEST_SKIP() << "a GPU is present";
  try {
    make_backend(parse_device("gpu"), 1, 0, 0);
    ADD_FAILURE() << "no error";
  } catch (const BackendError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("--device cpu"), std::string::npos) << m;
    EXPECT_TRUE(m.find("0 CUDA devices visible") != std::string::npos ||
                m.find("no CUDA backend") != std::string::npos)
        << m;
  }
  EXPECT_THROW(make_backends(parse_device("gpu:1,1"), 1, 0, 0), UsageError);
}

// One CPU thread's kernels and the first GPU's for one type (the test skips without a GPU), and
// how closely they agree.
template <class T> class GpuKernels : public ::testing::Test {
 protected:
  void SetUp() override {
    REQUIRE_GPU();
    cpu_ = make_cpu_backend(1);
    gpu_ = make_cuda_backend(0, 0);
  }
  Kernels<T>& C() { return cpu_->kernels<T>(); }
  Kernels<T>& G() { return gpu_->kernels<T>(); }
  static constexpr double kTol = sizeof(real_t<T>) == 4 ? 1e-5 : 1e-12;

 private:
  std::unique_ptr<Backend> cpu_, gpu_;
};
using ScalarTypes = ::testing::Types<float, double, cfloat, cdouble>;
TYPED_TEST_SUITE(GpuKernels, ScalarTypes);

template <class T> double rel_diff(const std::vector<T>& a, const std::vector<T>& b) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    num += std::norm(std::complex<double>(a[i]) - std::complex<double>(b[i]));
    den += std::norm(std::complex<double>(b[i]));
  }
  return std::sqrt(num / std::max(den, 1e-300));
}

TYPED_TEST(GpuKernels, MatchTheCpuKernels) {
  using T = TypeParam;
  auto& C = this->C();
  auto& G = this->G();
  const double tol = this->kTol;
  Rng rng(5);
  auto both = [&](std::size_t n) {
    auto h = draw_gaussian<T>(rng, n);
    return std::pair{C.adopt(std::vector<T>(h)), G.adopt(std::move(h))};
  };
  // Strided batched GEMM in every op combination.
  for (Op oa : {Op::kNone, Op::kTrans, Op::kConjTrans})
    for (Op ob : {Op::kNone, Op::kTrans, Op::kConjTrans}) {
      const std::size_t m = 7, n = 5, k = 6, batch = 3;
      auto [ac, ag] = both(m * k * batch);
      auto [bc, bg] = both(k * n * batch);
      auto cc = C.allocate(m * n * batch), cg = G.allocate(m * n * batch);
      const std::size_t lda = oa == Op::kNone ? k : m, ldb = ob == Op::kNone ? n : k;
      C.gemm(oa, ob, m, n, k, T(1), ac.data(), lda, m * k, bc.data(), ldb, k * n, T(0), cc.data(), n, m * n, batch);
      G.gemm(oa, ob, m, n, k, T(1), ag.data(), lda, m * k, bg.data(), ldb, k * n, T(0), cg.data(), n, m * n, batch);
      EXPECT_LT(rel_diff(G.download(cg, m * n * batch), C.download(cc, m * n * batch)), tol);
    }
  {
    auto [ec, eg] = both(4 * 6);
    auto [oc, og] = both(4 * 3 * 2);
    auto xc = C.allocate(4 * 3 * 6 * 2), xg = G.allocate(4 * 3 * 6 * 2);
    C.khatri_rao(4, 6, 3, 2, ec.data(), oc.data(), xc.data());
    G.khatri_rao(4, 6, 3, 2, eg.data(), og.data(), xg.data());
    EXPECT_LT(rel_diff(G.download(xg, 144), C.download(xc, 144)), tol);
    auto yc = C.allocate(144), yg = G.allocate(144);
    C.swap_axes(2, 3, 2, 4, 3, xc.data(), yc.data());
    G.swap_axes(2, 3, 2, 4, 3, xg.data(), yg.data());
    EXPECT_EQ(G.download(yg, 144), C.download(yc, 144));
    C.conj(144, xc.data(), yc.data());
    G.conj(144, xg.data(), yg.data());
    EXPECT_EQ(G.download(yg, 144), C.download(yc, 144));
    // y += a·x, as a sum's terms are added.
    C.add(144, real_t<T>(-0.75), xc.data(), yc.data());
    G.add(144, real_t<T>(-0.75), xg.data(), yg.data());
    EXPECT_LT(rel_diff(G.download(yg, 144), C.download(yc, 144)), tol);
    EXPECT_NEAR(G.norm(144, xg.data()), C.norm(144, xc.data()), tol * C.norm(144, xc.data()));
  }
  // QR, SVD and the triangular inverse reproduce their matrices.
  for (auto [m, n] : {std::pair<std::size_t, std::size_t>{9, 4}, {4, 9}}) {
    auto [yc, yg] = both(m * n);
    const auto y = C.download(yc, m * n);
    const std::size_t k = std::min(m, n);
    auto rg = G.allocate(k * n);
    G.qr(m, n, yg.data(), rg.data());
    const auto q = G.download(yg, m * k), r = G.download(rg, k * n);
    std::vector<T> qr(m * n, T(0));
    for (std::size_t c = 0; c < n; ++c)
      for (std::size_t i = 0; i < k; ++i)
        for (std::size_t row = 0; row < m; ++row) qr[c * m + row] += q[i * m + row] * r[c * k + i];
    EXPECT_LT(rel_diff(qr, y), 10 * tol);
    auto [ac, ag] = both(m * n);
    const auto a = G.download(ag, m * n);
    auto ug = G.allocate(m * k), vg = G.allocate(k * n);
    std::vector<real_t<T>> s(k), sc(k);
    G.svd(m, n, ag.data(), ug.data(), s.data(), vg.data());
    auto uc = C.allocate(m * k), vc = C.allocate(k * n);
    C.svd(m, n, ac.data(), uc.data(), sc.data(), vc.data());
    for (std::size_t i = 0; i < k; ++i) EXPECT_NEAR(s[i], sc[i], 10 * tol * sc[0]);
    const auto u = G.download(ug, m * k), vt = G.download(vg, k * n);
    std::vector<T> usv(m * n, T(0));
    for (std::size_t c = 0; c < n; ++c)
      for (std::size_t i = 0; i < k; ++i)
        for (std::size_t row = 0; row < m; ++row) usv[c * m + row] += u[i * m + row] * s[i] * vt[c * k + i];
    EXPECT_LT(rel_diff(usv, a), 10 * tol);
  }
  {
    std::vector<T> r(16, T(0));
    for (std::size_t c = 0; c < 4; ++c)
      for (std::size_t i = 0; i <= c; ++i) r[c * 4 + i] = T(i == c ? 2.0 + c : 0.3 * (i + 1));
    auto rc = C.adopt(std::vector<T>(r)), rg = G.adopt(std::vector<T>(r));
    C.upper_inverse(4, rc.data());
    G.upper_inverse(4, rg.data());
    EXPECT_LT(rel_diff(G.download(rg, 16), C.download(rc, 16)), tol);
  }
}

// The two streams of the CUDA backend (backend/cuda/device_context.hpp): moves larger than
// the staging buffers, memory freed under a running GEMM and handed at once to an upload,
// a download after a mark made from another thread while more work is queued, copy times.
TEST(GpuMoves, ComputeAndCopyStreamsStayInOrder) {
  REQUIRE_GPU();
  using T = cdouble;
  auto gpu = make_cuda_backend(0, 0);
  auto& G = gpu->kernels<T>();
  Rng rng(11);
  // 80 MB each way: five chunks through the two 16 MiB staging buffers.
  const std::size_t big = 5'000'000;
  const auto h = draw_gaussian<T>(rng, big);
  CopyClock up, down;
  Buffer<T> b = G.adopt(std::vector<T>(h), &up);
  Buffer<T> c = G.allocate(big);
  G.copy(big, b.data(), c.data());  // compute touches b right after the upload was queued
  EXPECT_EQ(G.download(c, big, &down), h);
  ASSERT_TRUE(up && down);
  EXPECT_GT(up(), 0.0);
  EXPECT_GT(down(), 0.0);
  EXPECT_LT(up(), 10.0);

  // A batch of GEMMs reads `a`; `a` is dropped while they may still run and its block goes
  // straight to an upload of other data. The GEMMs must still see the old `a`.
  const std::size_t n = 1024, batch = 8;
  const auto ah = draw_gaussian<T>(rng, n * n), bh = draw_gaussian<T>(rng, n * n * batch);
  Buffer<T> bb = G.adopt(std::vector<T>(bh));
  auto product = [&](bool drop_early) {
    Buffer<T> a = G.adopt(std::vector<T>(ah));
    Buffer<T> out = G.allocate(n * n * batch);
    G.gemm(Op::kNone, Op::kNone, n, n, n, T(1), a.data(), n, 0, bb.data(), n, n * n, T(0),
           out.data(), n, n * n, batch);
    Buffer<T> other;
    if (drop_early) {
      a.reset();
      other = G.adopt(std::vector<T>(n * n, T(7)));  // same size: the block `a` had
      EXPECT_EQ(G.download(other, 3), std::vector<T>(3, T(7)));
    }
    return G.download(out, n * n * batch);
  };
  const auto kept = product(false), dropped = product(true);
  EXPECT_LT(rel_diff(dropped, kept), 1e-14);

  // Download after a mark, from another thread, while a long batch is queued behind the mark.
  Buffer<T> y = G.allocate(n * n * batch);
  Buffer<T> a = G.adopt(std::vector<T>(ah));
  G.gemm(Op::kNone, Op::kNone, n, n, n, T(1), a.data(), n, 0, bb.data(), n, n * n, T(0),
         y.data(), n, n * n, batch);
  const QueuePoint mark = G.mark();
  ASSERT_TRUE(mark);
  Buffer<T> z = G.allocate(n * n * batch);
  for (int i = 0; i < 4; ++i)
    G.gemm(Op::kNone, Op::kNone, n, n, n, T(1), a.data(), n, 0, bb.data(), n, n * n, T(0),
           z.data(), n, n * n, batch);
  std::vector<T> got;
  std::thread t([&] { got = G.download(y, n * n * batch, nullptr, mark); });
  t.join();
  EXPECT_LT(rel_diff(got, kept), 1e-14);
}

std::vector<Tensor<cdouble>> complex_cores(TrainKind kind, std::size_t n, std::size_t bond,
                                           std::uint64_t seed) {
  return random_train<cdouble>(kind, n, bond, 2, seed);
}

template <class T> class GpuSweep : public ::testing::Test {};
TYPED_TEST_SUITE(GpuSweep, ScalarTypes);

TYPED_TEST(GpuSweep, SameSeedSameResultAsTheCpu) {
  REQUIRE_GPU();
  using T = TypeParam;
  const double tol = sizeof(real_t<T>) == 4 ? 1e-4 : 1e-10;
  const std::vector<std::vector<CLayer>> stacks = {
      {{TrainKind::kMpo, complex_cores(TrainKind::kMpo, 9, 3, 1)}, {TrainKind::kMps, complex_cores(TrainKind::kMps, 9, 6, 2)}},
      {{TrainKind::kMpo, complex_cores(TrainKind::kMpo, 6, 3, 3)}, {TrainKind::kMpo, complex_cores(TrainKind::kMpo, 6, 4, 4)}},
      {{TrainKind::kMpo, complex_cores(TrainKind::kMpo, 7, 2, 5)}, {TrainKind::kMpo, complex_cores(TrainKind::kMpo, 7, 2, 6)},
       {TrainKind::kMps, complex_cores(TrainKind::kMps, 7, 3, 7)}},
      {{TrainKind::kMps, complex_cores(TrainKind::kMps, 10, 8, 8)}}};
  for (std::size_t i = 0; i < stacks.size(); ++i) {
    const auto data = make_stack<T>(stacks[i]);
    for (int mode = 0; mode < 3; ++mode) {
      SweepOptions o;
      o.chi = 5;
      o.seed = 17;
      if (mode == 1) o.oversample = 1.5;
      if (mode == 2) { o.tol = 1e-3; o.chi = 0; o.block_start = 4; o.block_step = 4; }
      auto cpu = make_cpu_backend(1);
      auto gpu = make_cuda_backend(0, 0);
      TransferLog log;
      SilentReporter rep;
      const auto a = run_sweep(data, o, *cpu, log, rep);
      const auto b = run_sweep(data, o, *gpu, log, rep);
      EXPECT_LT(relative_error(dense_vector(b.cores), dense_vector(a.cores)), tol)
          << "stack " << i << ", mode " << mode;
      bool moved = false;
      for (const auto& r : log.records()) moved = moved || r.mechanism == "device move";
      EXPECT_TRUE(moved);
    }
  }
}

// A sum of two products (apply --term): the terms' sketches added on the device (Kernels::add)
// give the CPU's result.
TYPED_TEST(GpuSweep, SumSameResultAsTheCpu) {
  REQUIRE_GPU();
  using T = TypeParam;
  const double tol = sizeof(real_t<T>) == 4 ? 1e-4 : 1e-10;
  const auto product = make_stack<T>(std::vector<CLayer>{{TrainKind::kMpo, complex_cores(TrainKind::kMpo, 9, 3, 1)},
                                                         {TrainKind::kMps, complex_cores(TrainKind::kMps, 9, 6, 2)}});
  const auto state = make_stack<T>(std::vector<CLayer>{{TrainKind::kMps, complex_cores(TrainKind::kMps, 9, 4, 8)}});
  for (int mode = 0; mode < 2; ++mode) {
    SweepOptions o;
    o.chi = 6;
    o.seed = 23;
    if (mode == 1) { o.tol = 1e-3; o.chi = 0; o.block_start = 4; o.block_step = 4; }
    std::vector<std::vector<Tensor<T>>> results;
    auto cpu = make_cpu_backend(1);
    auto gpu = make_cuda_backend(0, 0);
    for (Backend* b : {cpu.get(), gpu.get()}) {
      MemorySiteSource<T> a(product.sites), c(state.sites);
      const std::vector<SweepTerm<T>> terms = {{&product.stack, &a, T(0.5), nullptr}, {&state.stack, &c, T(-1), nullptr}};
      TransferLog log;
      SilentReporter rep;
      results.push_back(run_sweep(terms, o, *b, log, rep).cores);
    }
    EXPECT_LT(relative_error(dense_vector(results[1]), dense_vector(results[0])), tol) << "mode " << mode;
  }
}

// Chains of GEMMs of mixed shapes (strided batches, an operand shared at stride 0, chains of one
// to three calls accumulating into one output), runs copied as a pitched copy, and zeroing:
// what the charged sweep's block operations issue, as the CPU computes them.
TYPED_TEST(GpuKernels, GemmChainsRunsAndZerosMatchTheCpu) {
  using T = TypeParam;
  auto& C = this->C();
  auto& G = this->G();
  const double tol = this->kTol;
  Rng rng(9);
  const std::size_t na = 4000, nb = 4000, nc = 3000;
  auto ha = draw_gaussian<T>(rng, na), hb = draw_gaussian<T>(rng, nb), hc = draw_gaussian<T>(rng, nc);
  auto ac = C.adopt(std::vector<T>(ha)), ag = G.adopt(std::vector<T>(ha));
  auto bc = C.adopt(std::vector<T>(hb)), bg = G.adopt(std::vector<T>(hb));
  auto cc = C.adopt(std::vector<T>(hc)), cg = G.adopt(std::vector<T>(hc));
  // Chain i writes its own m × n × batch output at out_at; its calls read A and B at offsets.
  struct Shape {
    Op oa, ob;
    std::size_t m, n, k, batch, stride_a, calls;
  };
  const std::vector<Shape> shapes{{Op::kNone, Op::kNone, 3, 4, 5, 1, 0, 1},  {Op::kTrans, Op::kNone, 3, 4, 5, 2, 0, 3},
                                  {Op::kNone, Op::kTrans, 3, 4, 5, 1, 15, 2}, {Op::kNone, Op::kNone, 3, 4, 5, 1, 0, 2},
                                  {Op::kConjTrans, Op::kNone, 6, 2, 7, 3, 42, 1}, {Op::kNone, Op::kNone, 1, 9, 2, 4, 2, 3}};
  auto chains_on = [&](T* a, T* b, T* c) {
    std::vector<std::vector<GemmCall<T>>> chains;
    std::size_t out_at = 0, in_at = 0;
    for (const Shape& x : shapes) {
      chains.emplace_back();
      for (std::size_t p = 0; p < x.calls; ++p) {
        const std::size_t lda = x.oa == Op::kNone ? x.k : x.m, ldb = x.ob == Op::kNone ? x.n : x.k;
        chains.back().push_back({x.oa, x.ob, x.m, x.n, x.k, a + in_at, lda, x.stride_a, b + in_at, ldb, x.k * x.n,
                                 p == 0 ? T(0) : T(1), c + out_at, x.n, x.m * x.n, x.batch});
        in_at += 97;
      }
      out_at += x.m * x.n * x.batch;
    }
    return chains;
  };
  C.gemm_chains(chains_on(ac.data(), bc.data(), cc.data()));
  G.gemm_chains(chains_on(ag.data(), bg.data(), cg.data()));
  EXPECT_LT(rel_diff(G.download(cg, nc), C.download(cc, nc)), tol);
  // Runs of 7 from a pitch of 11 to a pitch of 9, and runs that overlap (taken one at a time).
  C.copy_runs(20, 7, ac.data(), 11, cc.data(), 9);
  G.copy_runs(20, 7, ag.data(), 11, cg.data(), 9);
  C.copy_runs(5, 7, bc.data(), 3, cc.data() + 500, 7);
  G.copy_runs(5, 7, bg.data(), 3, cg.data() + 500, 7);
  C.zero(100, cc.data() + 1000);
  G.zero(100, cg.data() + 1000);
  EXPECT_LT(rel_diff(G.download(cg, nc), C.download(cc, nc)), tol);
}

// The charged sweep on the GPU (every block operation through its kernels, the contractions'
// GEMMs grouped into batched launches) against the CPU, for each method.
template <class T> class GpuChargedSweep : public ::testing::Test {};
using DoubleTypes = ::testing::Types<double, cdouble>;
TYPED_TEST_SUITE(GpuChargedSweep, DoubleTypes);

TYPED_TEST(GpuChargedSweep, SameResultAsTheCpuForEveryMethod) {
  REQUIRE_GPU();
  using T = TypeParam;
  {
    using namespace charged;
    auto cpu = make_cpu_backend(1);
    auto gpu = make_cuda_backend(0, 0);
    SilentReporter reporter;
    const std::size_t n = 12;
    const std::vector<std::vector<Tensor<T>>> layers{xxz<T>(n), random_charged<T>(n, 24, 0, 5)};
    const std::vector<TrainKind> kinds{TrainKind::kMpo, TrainKind::kMps};
    const ChargedStack<T> a_stack = stack_of(cpu->kernels<T>(), layers, kinds, Rule::kU1);
    const ChargedStack<T> g_stack = stack_of(gpu->kernels<T>(), layers, kinds, Rule::kU1);
    for (Method m : {Method::kSrc, Method::kSdc, Method::kSdcr}) {
      SweepOptions o = src(16, 4, m == Method::kSdc ? 0 : 1.5);
      o.method = m;
      const auto a = symmetric_sweep(a_stack, TrainKind::kMps, o, cpu->kernels<T>(), reporter, [] {});
      const auto g = symmetric_sweep(g_stack, TrainKind::kMps, o, gpu->kernels<T>(), reporter, [] {});
      EXPECT_LT(relative_error(dense_train(g.sweep.cores).v, dense_train(a.sweep.cores).v), 1e-10) << method_name(m);
    }
  }
}

}  // namespace
}  // namespace srcc::test
