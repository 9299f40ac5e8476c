#include "srcc/sweep/svd_truncate.hpp"

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
  // At unit scale throughout (a long train's norm need not be a double), the scale applied last.
  double log_scale = 0;
  right_canonicalize(r.cores, mover, gemm, &log_scale);
  const auto discarded = truncate_train(r.cores, o.chi, o.cutoff, o.tol, mover, gemm, o.numerical_zeros);
  r.log_scale = apply_log_scale(r.cores.front(), log_scale);
  log.settle();
  r.sites.resize(r.cores.size());
  for (std::size_t j = 1; j < r.cores.size(); ++j)  // the cut left of site j is exact
    r.sites[j].truncation_error = r.sites[j].error_estimate = discarded[j - 1];
  r.finish_sites();
  r.flops = gemm.flops();
  return r;
}

#define SRCC_INSTANTIATE(T)                                                               \
  template SweepResult<T> svd_truncate(const Stack&, SiteSource<T>&, const SweepOptions&, \
                                       Backend&, TransferLog&);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
