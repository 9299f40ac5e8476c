#pragma once
// The left sweep of the deterministic methods on charged stacks (sdc, sdcr) and of the fit
// sweeps: as in sweep/dense_left_step.hpp, each cut's
//   M_j[(a, x_0, x_k), R] = Σ_L C_j[a, L] · (the stack's site j)[L, x_0, x_k, R]
// is kept whole, here in its charge blocks, and reduced to C_{j+1} = η^H M_j by an isometry η of
// its rows. M_j is block diagonal in the charge of (a, x_0, x_k), so η is one isometry per charge
// sector, and the rows that sectors keep are chosen over all sectors at once:
//   - sdc: η from each sector's SVD, the χ̄ largest singular values over all sectors (exact
//     values of the product's environment: rounding-level ones and --tol's tail go too);
//   - sdcr: each sector's own Gaussian test (every sector gets χ̄ columns, drawn for its columns
//     alone), η from the SVDs of the sectors' sketches M_q G_q, the χ̄ largest values over all;
//   - fit: η the result's own left-orthonormal core; for the two-site fit the environment returned
//     for cut j+1 is M_j itself, its rows (a, x_0, x_k) fused into the one leg kSketch, while the
//     sweep carries on with η^H M_j: the right sweep over it then factorises sites j and j+1 together.
// A sum's terms share η: sdc takes it from the SVD of their weighted R factors stacked (each
// M_kᵀ = Q_k R_k), sdcr from Σ_k |c_k| M_k G_k; each term keeps its own C_{k,j+1} = η^H M_{k,j}.
#include <cstdint>
#include <functional>
#include <vector>

#include "srcc/log/reporter.hpp"
#include "srcc/sweep/sweep_data.hpp"
#include "srcc/symmetric/charged_stack.hpp"

namespace srcc {

class RankExchange;

// One term's environments C_0 … C_{n−1}, each (kSketch, L(0) … L(k−1)); the stored C_j is
// e^{log_scale[j]} times the true one (each is kept at norm √rows; the terms of a sum at one scale).
// One the term's parking sent to scratch (ChargedTerm::parking) keeps its legs and block table
// but no numbers until the right sweep fetches it.
template <class T> struct ChargedEnvironments {
  std::vector<BlockTensor<T>> env;
  std::vector<double> log_scale;
};

// C_0: `rows` rows of ones over the stack's left boundary bonds (one sector each, neutral in all).
template <class T> BlockTensor<T> first_environment(Kernels<T>& K, const ChargedStack<T>& st, std::size_t rows);

// How each cut's rows are reduced (the header's list).
template <class T> struct ChargedReduction {
  enum class Kind { kSvd, kRange, kCore } kind = Kind::kSvd;
  std::size_t cap = 0;       // kSvd, kRange: at most this many rows per cut (0: no cap)
  double cutoff = 0;         // kSvd, kRange: values at or below cutoff·σ_max go
  double tol = 0;            // kSvd: the fewest values whose tail is at most tol relative (0: off)
  std::uint64_t seed = 0;    // kRange: each cut's tests from its own stream of this seed
  const std::vector<BlockTensor<T>>* cores = nullptr;  // kCore: the result, left-orthonormal, (l, r, u, d)
  bool whole_rows = false;   // kCore: return each cut's M_j (rows fused), not η^H M_j (the two-site fit)
};

// Every term's environments, reduced cut by cut as `how` says. Per-site seconds go to `res`, the
// GEMMs' flops to res.flops. Over MPI ranks (`dealt`: a sum's terms dealt; sdc, sdcr) a term whose
// stack is null is another rank's and gets no environments here: each rank forms its own terms'
// M_j; sdc's R factors (sdcr's products with the tests) of every term go to all ranks
// (symmetric/block_exchange.hpp), which combine them in term order and take η alike (the sectors'
// SVDs dealt), and the terms' norms meet in the common scale.
template <class T>
std::vector<ChargedEnvironments<T>> reduced_environments(Kernels<T>& K, const std::vector<ChargedTerm<T>>& terms,
                                                         const ChargedReduction<T>& how, SweepResult<T>& res,
                                                         Reporter& reporter, const std::function<void()>& check_interrupt,
                                                         RankExchange* dealt = nullptr);

}  // namespace srcc
