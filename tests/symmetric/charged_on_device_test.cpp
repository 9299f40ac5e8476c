// The charged computation on a device whose memory the host cannot touch (guarded_device.hpp):
// every method, a sum, the SVD truncation, Schmidt values, local values, correlations and the
// measurements in blocks run
// through the kernels alone — a read or write of a buffer on the host would stop the test with
// SIGSEGV — and give the CPU's results for the same seed to rounding, as a GPU must.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "srcc/measure/charged_compare.hpp"
#include "srcc/measure/charged_sandwich.hpp"
#include "srcc/measure/local_observables.hpp"
#include "srcc/symmetric/charged_truncation.hpp"
#include "../support/guarded_device.hpp"
#include "charged_support.hpp"

namespace srcc {
namespace {

using namespace test::charged;

// One CPU thread, and the stand-in device beside it.
template <class T> class ChargedOnDevice : public ::testing::Test {
 protected:
  OneThread<T> cpu;
  test::GuardedDevice device;
};
using Scalars = ::testing::Types<double, cdouble>;
TYPED_TEST_SUITE(ChargedOnDevice, Scalars);

SweepOptions with(Method m, std::size_t chi, double oversample, std::size_t fit_sweeps = 0, double tol = 0) {
  SweepOptions o = src(chi, 7, oversample);
  o.method = m;
  o.fit_sweeps = fit_sweeps;
  o.tol = tol;
  return o;
}

// The guard holds: a buffer's elements read on the host stop the process; through the kernels
// (a download) they are there.
TEST(GuardedDevice, ABufferReadOnTheHostFaults) {
  test::GuardedDevice device;
  Kernels<double>& D = device.kernels<double>();
  const Buffer<double> b = D.adopt(std::vector<double>{1.5, 2.5});
  EXPECT_EQ(D.download(b, 2), (std::vector<double>{1.5, 2.5}));
  EXPECT_DEATH({ [[maybe_unused]] volatile double x = b.data()[1]; }, "");
}

TYPED_TEST(ChargedOnDevice, EveryMethodGivesTheCpuResult) {
  using T = TypeParam;
  OneThread<T>& cpu = this->cpu;
  Kernels<T>& D = this->device.template kernels<T>();
  const std::size_t n = 8;
  const std::vector<std::vector<Tensor<T>>> layers{xxz<T>(n), random_charged<T>(n, 12, 0, 5)};
  const std::vector<TrainKind> kinds{TrainKind::kMpo, TrainKind::kMps};
  const ChargedStack<T> on_cpu = stack_of(cpu.K(), layers, kinds, Rule::kU1Z2);
  const ChargedStack<T> on_device = stack_of(D, layers, kinds, Rule::kU1Z2);
  struct Case {
    std::string name;
    SweepOptions o;
  };
  const std::vector<Case> cases{{"src", with(Method::kSrc, 10, 0)},
                                {"src oversampled", with(Method::kSrc, 10, 1.5)},
                                {"src --tol", with(Method::kSrc, 0, 0, 0, 1e-3)},
                                {"sdc", with(Method::kSdc, 10, 0)},
                                {"sdcr", with(Method::kSdcr, 10, 1.2)},
                                {"src + 2 fit sweeps", with(Method::kSrc, 10, 0, 2)}};
  for (const Case& c : cases) {
    const auto a = symmetric_sweep(on_cpu, TrainKind::kMps, c.o, cpu.K(), cpu.reporter, [] {});
    const auto b = symmetric_sweep(on_device, TrainKind::kMps, c.o, D, cpu.reporter, [] {});
    const auto va = test::dense_train(a.sweep.cores).v;
    ASSERT_GT(test::relative_error(va, dense_reference(layers).v), 1e-6) << c.name << ": a truncated product";
    EXPECT_LT(test::relative_error(test::dense_train(b.sweep.cores).v, va), 1e-12) << c.name;
    if (!std::isnan(a.sweep.error_estimate)) {
      EXPECT_NEAR(b.sweep.error_estimate, a.sweep.error_estimate, 1e-12) << c.name;
    }

    // The result in its blocks: truncated further, measured, compared, on each side.
    std::vector<double> ta, tb;
    const auto sa = symmetric_truncate(cpu.K(), a.cores, 6, 0, 0, false, ta, on_cpu.rule, false);
    const auto sb = symmetric_truncate(D, b.cores, 6, 0, 0, false, tb, on_cpu.rule, false);
    SweepResult<T> ra, rb;
    ra.sites.assign(n, SiteStats{});
    rb.sites.assign(n, SiteStats{});
    finish_result(ra, sa, cpu.K(), true);
    finish_result(rb, sb, D, true);
    EXPECT_LT(test::relative_error(test::dense_train(rb.cores).v, test::dense_train(ra.cores).v), 1e-10) << c.name;
    const ChargedComparison ca = charged_comparison(cpu.K(), a.cores, sa, on_cpu.rule);
    const ChargedComparison cb = charged_comparison(D, b.cores, sb, on_cpu.rule);
    EXPECT_NEAR(cb.log_distance, ca.log_distance, 1e-9) << c.name;
    EXPECT_NEAR(charged_log_norm(D, b.cores), charged_log_norm(cpu.K(), a.cores), 1e-12) << c.name;
    ChargedSandwich<T> ha(cpu.K(), 1), hb(D, 1);
    for (std::size_t j = 0; j < n; ++j) {
      ha.add(a.cores[j], {&on_cpu.sites.front()[j]}, a.cores[j]);
      hb.add(b.cores[j], {&on_device.sites.front()[j]}, b.cores[j]);
    }
    EXPECT_NEAR(std::abs(hb.value().plain() - ha.value().plain()), 0.0, 1e-12 * std::abs(ha.value().plain())) << c.name;
    const auto va_ = schmidt_spectra(cpu.K(), a.cores, on_cpu.rule), vb_ = schmidt_spectra(D, b.cores, on_cpu.rule);
    ASSERT_EQ(vb_.size(), va_.size());
    for (std::size_t j = 0; j < va_.size(); ++j) {
      ASSERT_EQ(vb_[j].size(), va_[j].size()) << c.name << ", cut " << j;
      for (std::size_t q = 0; q < va_[j].size(); ++q)
        for (std::size_t i = 0; i < va_[j][q].values.size(); ++i)
          EXPECT_NEAR(vb_[j][q].values[i], va_[j][q].values[i], 1e-12) << c.name << ", cut " << j;
    }
    // Moved to the host (as a run's result is for the write-back), the blocks are read there.
    for (std::size_t j = 0; j < n; ++j) {
      const Tensor<T> got = dense_of_blocks(cpu.K(), moved_to(D, cpu.K(), b.cores[j]));
      const Tensor<T> want = dense_of_blocks(cpu.K(), a.cores[j]);
      ASSERT_EQ(got.shape, want.shape) << c.name << ", site " << j;
      double diff = 0, norm = 0;
      for (std::size_t i = 0; i < want.size(); ++i) {
        diff += std::norm(got.data[i] - want.data[i]);
        norm += std::norm(want.data[i]);
      }
      EXPECT_LT(std::sqrt(diff / norm), 1e-12) << c.name << ", site " << j;
    }
    const SiteType spin = site_type_for("", 2, "test");
    const auto ca_ = right_canonical_blocks(cpu.K(), a.cores, on_cpu.rule), cb_ = right_canonical_blocks(D, b.cores, on_cpu.rule);
    const auto za = site_expectations(cpu.K(), ca_, spin.op("Sz")), zb = site_expectations(D, cb_, spin.op("Sz"));
    const auto pa = correlation_matrix(cpu.K(), ca_, spin.op("Sp"), spin.op("Sm"), spin.parity(), 1, n - 1);
    const auto pb = correlation_matrix(D, cb_, spin.op("Sp"), spin.op("Sm"), spin.parity(), 1, n - 1);
    for (std::size_t i = 0; i < za.size(); ++i) EXPECT_NEAR(std::abs(zb[i] - za[i]), 0.0, 1e-12) << c.name;
    for (std::size_t i = 0; i < pa.size(); ++i) EXPECT_NEAR(std::abs(pb[i] - pa[i]), 0.0, 1e-12) << c.name;
  }
}

// A sum of terms of depths 1, 2 and 3, and an MPO·MPO product.
TYPED_TEST(ChargedOnDevice, SumsAndOperatorProductsGiveTheCpuResult) {
  using T = TypeParam;
  OneThread<T>& cpu = this->cpu;
  Kernels<T>& D = this->device.template kernels<T>();
  const std::size_t n = 6;
  ChargedSum<T> sa(cpu.K(), n), sb(D, n);
  for (Method m : {Method::kSrc, Method::kSdc}) {
    const SweepOptions o = with(m, 8, m == Method::kSrc ? 1.5 : 0);
    const auto a = symmetric_sweep(sa.terms, TrainKind::kMps, o, cpu.K(), cpu.reporter, [] {});
    const auto b = symmetric_sweep(sb.terms, TrainKind::kMps, o, D, cpu.reporter, [] {});
    EXPECT_LT(test::relative_error(test::dense_train(b.sweep.cores).v, test::dense_train(a.sweep.cores).v), 1e-12)
        << method_name(m);
  }
  const std::vector<std::vector<Tensor<T>>> layers{xxz<T>(n), xxz<T>(n, 1.3, -0.2)};
  const std::vector<TrainKind> kinds{TrainKind::kMpo, TrainKind::kMpo};
  const auto a = symmetric_sweep(stack_of(cpu.K(), layers, kinds, Rule::kU1), TrainKind::kMpo, with(Method::kSrc, 6, 1.5),
                                 cpu.K(), cpu.reporter, [] {});
  const auto b = symmetric_sweep(stack_of(D, layers, kinds, Rule::kU1), TrainKind::kMpo, with(Method::kSrc, 6, 1.5), D,
                                 cpu.reporter, [] {});
  EXPECT_LT(test::relative_error(test::dense_train(b.sweep.cores).v, test::dense_train(a.sweep.cores).v), 1e-12);
}

}  // namespace
}  // namespace srcc
