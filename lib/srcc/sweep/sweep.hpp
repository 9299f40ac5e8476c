#pragma once
// Successive Randomized Compression (SRC) of a stack of trains: the compressed product
// A_1 · … · A_{k-1} · ψ (or a single train) as a new train, following
//   C. Camaño, E. N. Epperly, J. A. Tropp, "Successive randomized compression: a randomized
//   algorithm for the compressed MPO-MPS product", arXiv:2504.06475.
// See docs/ALGORITHM.md for the sweep and its accuracy controls.
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "srcc/backend/backend.hpp"
#include "srcc/core/tensor.hpp"
#include "srcc/log/reporter.hpp"
#include "srcc/log/site_stats.hpp"
#include "srcc/log/transfer_log.hpp"
#include "srcc/parallel/ranks.hpp"
#include "srcc/plan/plan.hpp"
#include "srcc/plan/sweep_options.hpp"
#include "srcc/sweep/sweep_data.hpp"
#include "srcc/train/site_source.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

// Runs the sweep over sites from `source`. With a plan, environments go to the tiers and the
// contractions use the batches it chose; without one everything stays in memory, unbatched.
// `more_devices` (several GPUs) take equal slices of the sketch columns for the left sweep and
// the sketch; the factorisations and the right sweep stay on `backend`. The draws do not depend
// on the split, so the result equals the one-device result to rounding. Calls
// `check_interrupt` between sites (it throws to stop the run).
template <class T>
SweepResult<T> run_sweep(const Stack& stack, SiteSource<T>& source, const SweepOptions& options,
                         Backend& backend, TransferLog& log, Reporter& reporter,
                         const std::function<void()>& check_interrupt = [] {},
                         const Plan* plan = nullptr,
                         const std::vector<Backend*>& more_devices = {});

// The compressed sum Σ_k c_k A_k ψ_k in one sweep: every term is sketched with the same test
// tensors (the draws depend only on the seed, the site and the physical legs), so the sketch
// of a cut is the sum of the terms' sketches, exactly the sketch of the summed network, and
// one QR per cut serves them all (docs/ALGORITHM.md, "Sums of products"). With `ranks` (of more
// than one; src without fit sweeps) the ranks share the sweep (rank_exchange.hpp): a sum's
// terms dealt to them (at least a term per rank), one product's sketch columns split; every
// rank returns the same result. The terms must have
// the same sites and physical legs (validate_terms). sdc and sdcr reduce the terms' dense left
// steps together, as the summed network's. One term of weight 1 is run_sweep above, to the bit.
template <class T>
SweepResult<T> run_sweep(const std::vector<SweepTerm<T>>& terms, const SweepOptions& options,
                         Backend& backend, TransferLog& log, Reporter& reporter,
                         const std::function<void()>& check_interrupt = [] {},
                         const std::vector<Backend*>& more_devices = {}, Ranks* ranks = nullptr);

// The same over sites held in memory.
template <class T>
SweepResult<T> run_sweep(const StackData<T>& data, const SweepOptions& options, Backend& backend,
                         TransferLog& log, Reporter& reporter,
                         const std::function<void()>& check_interrupt = [] {},
                         const Plan* plan = nullptr, Ranks* ranks = nullptr);

}  // namespace srcc
