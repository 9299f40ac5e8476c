// Tests of the deterministic SVD truncation of `truncate` (lib/srcc/sweep/svd_truncate.cpp):
// against contract-then-SVD of the dense vector, with its per-cut errors exact.
#include "srcc/sweep/svd_truncate.hpp"

#include <gtest/gtest.h>

#include "../support/dense.hpp"
#include "../support/stacks.hpp"
#include "srcc/core/error.hpp"

namespace srcc::test {
namespace {

template <class T> SweepResult<T> truncate(const StackData<T>& data, const SweepOptions& o) {
  auto backend = make_cpu_backend(1);
  TransferLog log;
  MemorySiteSource<T> source(data.sites);
  return svd_truncate(data.stack, source, o, *backend, log);
}

TEST(SvdTruncate, IsContractThenSvdWithExactErrors) {
  const auto cores = real_cores(TrainKind::kMps, 8, 10, 2, 3);
  const auto data = make_stack<double>(std::vector<CLayer>{{TrainKind::kMps, cores}});
  const DenseTrain ref = reference<double>({{TrainKind::kMps, cores}});
  for (std::size_t chi : {2, 5, 9}) {
    SweepOptions o;
    o.chi = chi;
    const auto r = truncate(data, o);
    const double err = relative_error(dense_vector(r.cores), ref.v);
    EXPECT_NEAR(err, svd_sweep_error(ref, chi), 1e-12 + 1e-9 * err) << chi;
    EXPECT_NEAR(r.error_estimate, err, 1e-10 + 1e-6 * err) << "the estimate is the exact error";
    EXPECT_LT(right_orthonormality_defect(r.cores), 1e-12);
    for (std::size_t j = 0; j < r.sites.size(); ++j) {
      EXPECT_LE(r.sites[j].bond_right, static_cast<std::int64_t>(chi));
      EXPECT_EQ(r.sites[j].bond_right, static_cast<std::int64_t>(r.cores[j].shape[kLegR]));
    }
  }
}

TEST(SvdTruncate, CutoffAloneKeepsTheValuesAboveIt) {
  const auto cores = real_cores(TrainKind::kMps, 6, 6, 2, 5);
  const auto data = make_stack<double>(std::vector<CLayer>{{TrainKind::kMps, cores}});
  const DenseTrain ref = reference<double>({{TrainKind::kMps, cores}});
  SweepOptions o;
  o.cutoff = 1e-2;
  const auto r = truncate(data, o);
  // The first cut's singular values are those of the whole train there (exact, canonical form).
  const auto sigma = cut_singular_values(ref, 0);
  std::size_t keep = 0;
  for (double s : sigma) keep += s >= 1e-2 * sigma.front();
  EXPECT_EQ(r.cores[0].shape[kLegR], keep);
}

TEST(SvdTruncate, TakesOneTrainOnly) {
  const auto data = make_stack<double>(std::vector<CLayer>{
      {TrainKind::kMpo, real_cores(TrainKind::kMpo, 4, 2, 2, 1)},
      {TrainKind::kMps, real_cores(TrainKind::kMps, 4, 2, 2, 2)}});
  SweepOptions o;
  o.chi = 2;
  EXPECT_THROW((void)truncate(data, o), UsageError);
}

}  // namespace
}  // namespace srcc::test
