#pragma once
// The `truncate` command's method: the deterministic SVD truncation of one train, the
// reference a randomized result is measured against (docs/ALGORITHM.md, "Reference truncation").
#include "srcc/backend/backend.hpp"
#include "srcc/log/transfer_log.hpp"
#include "srcc/plan/sweep_options.hpp"
#include "srcc/sweep/sweep_data.hpp"
#include "srcc/train/site_source.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

// Reads every site of the single train in `stack`, brings it to right-canonical form and
// truncates it left to right to options.chi / cutoff / tol. Optimal for the train given
// (contract-then-SVD when the train is an exact product); cost O(n d χ³) in its bond χ.
// Throws UsageError for a stack of more than one train.
template <class T>
SweepResult<T> svd_truncate(const Stack& stack, SiteSource<T>& source,
                            const SweepOptions& options, Backend& backend, TransferLog& log);

}  // namespace srcc
