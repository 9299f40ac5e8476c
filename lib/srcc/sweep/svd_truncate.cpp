#include "srcc/sweep/svd_truncate.hpp"

#include <cmath>

#include "srcc/backend/counting_gemm.hpp"
#include "srcc/core/error.hpp"
#include "srcc/core/interrupt.hpp"
#include "srcc/movement/mover.hpp"
#include "srcc/sweep/truncation_sweep.hpp"

namespace srcc {

template <class T>
SweepResult<T> svd_truncate(const Stack& stack, SiteSource<T>& source, const SweepOptions& o,
                            Backend& backend, TransferLog& log) {
  if (stack.depth() != 1)
    throw UsageError("the SVD method truncates one train; use apply for products");
  auto& K = backend.kernels<T>();
  CountingGemm<T> gemm(K);
  Mover<T> mover(K, &log, backend.name());
  SweepResult<T> r;
  r.kind = stack.result_kind();
  for (std::size_t j = 0; j < stack.length(); ++j) {
    poll_interrupt();
    r.cores.push_back(std::move(source.site(j).front()));
  }
  right_canonicalize(r.cores, mover, gemm);
  const auto discarded = truncate_train(r.cores, o.chi, o.cutoff, o.tol, mover, gemm);
  log.settle();
  r.sites.resize(r.cores.size());
  double err2 = 0;
  for (std::size_t j = 0; j < r.cores.size(); ++j) {
    auto& s = r.sites[j];
    s.site = static_cast<std::int64_t>(j);
    s.bond_left = static_cast<std::int64_t>(r.cores[j].shape[kLegL]);
    s.bond_right = static_cast<std::int64_t>(r.cores[j].shape[kLegR]);
    if (j > 0) {
      s.truncation_error = s.error_estimate = discarded[j - 1];
      err2 += discarded[j - 1] * discarded[j - 1];
    }
  }
  r.error_estimate = std::sqrt(err2);
  r.flops = gemm.flops();
  return r;
}

#define SRCC_INSTANTIATE(T)                                                               \
  template SweepResult<T> svd_truncate(const Stack&, SiteSource<T>&, const SweepOptions&, \
                                       Backend&, TransferLog&);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
