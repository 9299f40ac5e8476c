#pragma once
// The left step of the deterministic methods (sdc, sdcr) and of the fit sweeps: the
// environment C_j[a, L] times site j of every layer, kept whole as
//   M_j[(a, x_0, x_k), R] = Σ_L C_j[a, L] · (site j of the stack)[L, x_0, x_k, R],
// then reduced to the next environment C_{j+1} = U^H M_j by an isometry U of its rows: the
// leading left singular vectors (sdc), a randomized range of M_j (sdcr), or the result's own
// left-orthonormal core (fit). docs/ALGORITHM.md gives the methods and their costs.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "srcc/backend/backend.hpp"
#include "srcc/core/tensor.hpp"
#include "srcc/movement/devices.hpp"
#include "srcc/movement/site_forms.hpp"
#include "srcc/sweep/rank_exchange.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

// The stack with every site's left and right bonds swapped. M_j is the right step's block of
// this stack (right_step.hpp), with C_j in place of S: one code path for both contractions.
Stack mirrored(const Stack& st);
// The form in which the dense left step reads layer `layer` (of `depth`) of the original stack.
SiteForm dense_left_form(std::size_t layer, std::size_t depth);

// M_j for the `rows` rows of `env` (C_j, rows × fused_left(j)); `forms[i]` layer i's site j in
// dense_left_form. Row-major (rows·x_0·x_k) × fused_right(j).
template <class T>
Buffer<T> dense_left_block(DeviceCtx<T> c, const Stack& mirror, std::size_t j,
                           const std::vector<Buffer<T>>& forms, const Buffer<T>& env,
                           std::size_t rows);

// The next environment and its rows.
template <class T> struct Reduced {
  Buffer<T> env;  // rank × cols, row-major, scaled to norm √rank (the sketch is scale-free)
  std::size_t rank = 0;
  double discarded = 0;  // sdc: the Frobenius norm of M_j that U^H M_j leaves out, relative
  double log_scale = 0;  // log of the factor that scaling applied
};

// sdc: C_{j+1} = Σ V^H from the SVD of M (m × cols, consumed), keeping at most `cap` values,
// and with `tol` > 0 the fewest whose tail is <= tol relative; values at or below
// `cutoff`·σ_max go too. Computed from M's Gram matrix where that resolves the cut, else from
// a QR of Mᵀ; `gram_first` (kept by the caller from cut to cut) says which to try first, and is
// set for the next cut.
template <class T>
Reduced<T> reduce_by_svd(Kernels<T>& K, Buffer<T>& m_rows, std::size_t m, std::size_t cols,
                         std::size_t cap, double cutoff, double tol, bool* gram_first = nullptr);

// The same for the terms of a sum, the summed network's M = [|c_1| M_1 | … | |c_K| M_K] (M_k
// row-major m × cols[k], consumed; c_k the weights), without forming M: each M_kᵀ = Q_k R_k, the
// SVD of the stacked |c_k| R_k (Σ min(cols_k, m) × m, small) gives M's singular values and left
// vectors U, and C_{k,j+1} = U^H M_k = (U^H R_kᵀ)·Q_kᵀ (the weights themselves enter in the
// right sweep). One scale for all the terms' environments.
// With `ranks` dealing the terms (rank_exchange.hpp) the vectors hold this rank's own terms: every
// rank's weighted R_k go to all (small: min(cols_k, m) × m each), rank 0 takes the SVD of the
// stack in term order and sends its V'^H and values to the others, and each rank projects its own
// terms; `site` names cut j in /log/transfers. The ranks' environments carry their own scales
// (`log_scales`, per own term: the log of the factor its M_k carries), which the stack brings to
// one; each rank's new environments share one scale (the sketch brings the terms' to one).
template <class T>
std::vector<Reduced<T>> reduce_sum_by_svd(DeviceCtx<T> c, std::vector<Buffer<T>>& m_rows, std::size_t m,
                                          const std::vector<std::size_t>& cols, const std::vector<T>& weights,
                                          std::size_t cap, double cutoff, double tol, RankExchange* ranks = nullptr,
                                          const std::vector<double>& log_scales = {}, std::int64_t site = -1);

// sdcr: U = Q of M·G for a Gaussian G (cols × width) drawn from `seed`, C_{j+1} = Q^H M. For a
// sum (weights c_k; {1} for a product), M·G = Σ_k c_k M_k G_k with G's rows drawn term after
// term, and C_{k,j+1} = Q^H M_k, at one scale for all terms.
// With `ranks` dealing the terms, the vectors hold this rank's own terms and `all_cols` every
// term's columns: each rank draws every term's G_k in turn (the same numbers as one process) and
// multiplies its own (at the terms' common scale, as reduce_sum_by_svd), the products go to all and
// are added in term order, rank 0 takes the QR and sends Q to the others.
template <class T>
std::vector<Reduced<T>> reduce_by_range(DeviceCtx<T> c, const std::vector<Buffer<T>>& m_rows, std::size_t m,
                                        const std::vector<std::size_t>& cols, const std::vector<T>& weights,
                                        std::size_t width, std::uint64_t seed, RankExchange* ranks = nullptr,
                                        const std::vector<std::size_t>& all_cols = {},
                                        const std::vector<double>& log_scales = {}, std::int64_t site = -1);

// fit: U = the core P[(a, x_0, x_k), b] (row-major m × b, on the device), C_{j+1} = P^H M.
template <class T>
Reduced<T> reduce_by_core(DeviceCtx<T> c, const Buffer<T>& m_rows, std::size_t m,
                          std::size_t cols, const Buffer<T>& core, std::size_t b);

}  // namespace srcc
