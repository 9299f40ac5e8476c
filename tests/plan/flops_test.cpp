// The flop model (plan/flops.hpp) against the GEMM flops a sweep counts, for every method, the
// oversampled and fit runs, a product of two MPOs, a sum and truncate. The model follows the
// sweep's contractions one by one, so on products of full numerical rank it is within 1% (the
// dry run promises 15%; a rank-deficient product does less); and the methods' predictions
// differ as their work does.
#include <gtest/gtest.h>

#include <string>

#include "../support/stacks.hpp"
#include "../support/sums.hpp"
#include "srcc/plan/flops.hpp"
#include "srcc/sweep/svd_truncate.hpp"
#include "srcc/train/site_source.hpp"

namespace srcc::test {
namespace {

SweepOptions options(Method m, std::size_t chi, double oversample = 0, std::size_t fit_sweeps = 0) {
  SweepOptions o;
  o.method = m;
  o.chi = chi;
  o.oversample = oversample;
  o.fit_sweeps = fit_sweeps;
  o.seed = 7;
  return o;
}

std::string named(const SweepOptions& o) {
  return method_name(o.method) + (o.oversampling() ? " oversampled" : "") + (o.fit_sweeps > 0 ? " with fit sweeps" : "");
}

void expect_predicted(double predicted, double counted, const std::string& what) {
  ASSERT_GT(counted, 0) << what;
  EXPECT_NEAR(predicted / counted, 1.0, 0.01) << what << ": predicted " << predicted << ", counted " << counted;
}

const std::vector<CLayer>& mpo_mps() {
  static const std::vector<CLayer> layers = {{TrainKind::kMpo, gaussian_cores(TrainKind::kMpo, 10, 5, 2, 1)},
                                             {TrainKind::kMps, gaussian_cores(TrainKind::kMps, 10, 24, 2, 2)}};
  return layers;
}

TEST(Flops, EachMethodAsCounted) {
  const auto data = make_stack<double>(mpo_mps());
  std::vector<double> plain;
  for (Method m : {Method::kSrc, Method::kSdc, Method::kSdcr})
    for (const SweepOptions& o : {options(m, 40), options(m, 40, 1.5), options(m, 40, 0, 2)}) {
      const double predicted = needed_flops(data.stack, o, o.sketch_columns(), DType::kFloat64);
      expect_predicted(predicted, sweep(data, o).flops, named(o));
      if (o.fit_sweeps == 0 && !o.oversampling()) plain.push_back(predicted);
    }
  // src sketches every cut with s columns; sdc keeps M_j whole; sdcr adds two products to it.
  ASSERT_EQ(plain.size(), 3u);
  EXPECT_NE(plain[0], plain[1]);
  EXPECT_LT(plain[1], plain[2]);
}

TEST(Flops, ComplexProductOfTwoMpos) {
  const std::vector<CLayer> layers = {{TrainKind::kMpo, gaussian_cores(TrainKind::kMpo, 8, 4, 2, 3)},
                                      {TrainKind::kMpo, gaussian_cores(TrainKind::kMpo, 8, 6, 2, 4)}};
  const auto data = make_stack<cdouble>(layers);
  for (Method m : {Method::kSrc, Method::kSdc, Method::kSdcr}) {
    const SweepOptions o = options(m, 16);
    expect_predicted(needed_flops(data.stack, o, 16, DType::kComplex128), sweep(data, o).flops, named(o) + ", MPO·MPO");
  }
}

TEST(Flops, ASumIsItsTermsWork) {
  const std::size_t n = 9;
  const std::vector<TermLayers> ts = {
      {0.5, {{TrainKind::kMpo, gaussian_cores(TrainKind::kMpo, n, 4, 2, 5)},
             {TrainKind::kMps, gaussian_cores(TrainKind::kMps, n, 16, 2, 6)}}},
      {-1.0, {{TrainKind::kMpo, gaussian_cores(TrainKind::kMpo, n, 3, 2, 7)},
              {TrainKind::kMps, gaussian_cores(TrainKind::kMps, n, 20, 2, 8)}}},
      {2.0, {{TrainKind::kMps, gaussian_cores(TrainKind::kMps, n, 12, 2, 9)}}}};
  Sum<double> sum(ts);
  for (Method m : {Method::kSrc, Method::kSdc, Method::kSdcr}) {
    const SweepOptions o = options(m, 30);
    std::vector<const Stack*> stacks;
    for (const auto& d : sum.data) stacks.push_back(&d.stack);
    double predicted = 0;
    for (std::size_t k = 0; k < stacks.size(); ++k) predicted += needed_flops(stacks, k, o, 30, DType::kFloat64);
    expect_predicted(predicted, sum.run(o).flops, named(o) + ", a sum of three");
  }
}

TEST(Flops, TruncateAsCounted) {
  const std::vector<CLayer> train = {{TrainKind::kMps, gaussian_cores(TrainKind::kMps, 12, 40, 2, 10)}};
  const auto data = make_stack<double>(train);
  const SweepOptions o = options(Method::kSvd, 16);
  MemorySiteSource<double> source(data.sites);
  auto backend = make_cpu_backend(1);
  TransferLog log;
  const auto r = svd_truncate(data.stack, source, o, *backend, log);
  expect_predicted(needed_flops(data.stack, o, 16, DType::kFloat64), r.flops, "truncate");
}

}  // namespace
}  // namespace srcc::test
