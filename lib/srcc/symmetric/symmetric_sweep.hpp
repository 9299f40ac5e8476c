#pragma once
// SRC on a charged stack (docs/ALGORITHM.md, "Charges"): the sweep of sweep/sweep.hpp with every
// tensor kept in its charge blocks. The test tensors Ω_j are the dense sweep's (same seed, same
// numbers); each environment C_j[a, L] is dense in its sketch column a and split by the charge of
// L, so a column restricted to one charge sector of a cut is a Gaussian test of that sector: every
// sector of every cut is sketched by all s columns at once. At cut j the sketch Y_j is block
// diagonal in the charge of its rows; each sector's block gets an SVD, and the χ̄ largest singular
// values over all sectors decide how much of the bond each sector keeps (the error estimate of
// the cut is the relative norm of the rest). The result conserves the charges exactly: no weight
// leaks out of the inputs' sectors, and the bonds come out with their charges.
#include <functional>
#include <optional>

#include "srcc/log/reporter.hpp"
#include "srcc/plan/sweep_options.hpp"
#include "srcc/sweep/sweep_data.hpp"
#include "srcc/symmetric/charged_stack.hpp"
#include "srcc/symmetric/charged_truncation.hpp"

namespace srcc {

class RankExchange;

// A result with its bonds' charges: cores as block tensors (l, r, u, d), labels as the result's.
template <class T> struct ChargedResult {
  std::vector<BlockTensor<T>> cores;
  SweepResult<T> sweep;  // the same cores dense (sectors one after another on each bond; none
                         // where the caller keeps only the blocks), figures
  std::optional<SchmidtForm> schmidt;  // where the cores are left in it (ResultNeeds::schmidt)
};

// What the caller takes of the result besides its blocks.
struct ResultNeeds {
  bool dense = true;     // the cores made dense in ChargedResult::sweep
  bool schmidt = false;  // the B form with Schmidt bases (a writer that stores it, TeNPy's): where
                         // the run ends in a truncation sweep, that sweep leaves it, found once
};

// The product of the stack on `K` by the options' method: src (its sketch as above), sdc or sdcr
// (the left sweep of reduction_sweep.hpp, then the same right sweep over its environments), each
// followed by the SVD truncation sweep where oversampling or --tol asks for one, then by the fit
// sweeps (--fit-sweeps: two-site, the right sweep over the product's two-site blocks between the
// result's own left environments and the new right part; each cut keeps its bond, shared out
// among the sectors afresh).
// `r`'s cores and per-site figures from the result's blocks: the cores made dense (`dense`), else
// only their bonds recorded.
template <class T>
void finish_result(SweepResult<T>& r, const std::vector<BlockTensor<T>>& cores, Kernels<T>& K, bool dense);

template <class T>
ChargedResult<T> symmetric_sweep(const ChargedStack<T>& stack, TrainKind kind, const SweepOptions& o, Kernels<T>& K,
                                 Reporter& reporter, const std::function<void()>& check_interrupt);

// The sum Σ_k w_k·(stack k) in one sweep, as sweep.hpp's sums: one sketch (the same test tensors)
// of every term, the terms' sketches added at each cut before its sectors' SVDs, each term's S
// projected on the shared output core. The stacks may differ in depth but share their physical
// legs and total charge (InputError when the totals differ: such a sum conserves no charge).
//
// Over MPI ranks (src, or a sum by sdc or sdcr, without fit sweeps; symmetric/block_exchange.hpp,
// and reduction_sweep.hpp for sdc and sdcr): dealing a sum's terms,
// a term whose stack is null is another rank's, each rank sweeps its own and every cut's sketch
// is gathered from all and added in term order; splitting one product's sketch columns, each
// rank sweeps its share of the columns' environments and computes those rows of each cut's
// sketch, whose sectors are factorised by a QR spread over the ranks (split_sector_svd). Either
// way each cut's sector SVDs are dealt to the ranks and their factors sent to all, so that every
// rank holds the one-process result.
template <class T>
ChargedResult<T> symmetric_sweep(const std::vector<ChargedTerm<T>>& terms, TrainKind kind, const SweepOptions& o,
                                 Kernels<T>& K, Reporter& reporter, const std::function<void()>& check_interrupt,
                                 RankExchange* ranks = nullptr, ResultNeeds needs = {});

}  // namespace srcc
