#pragma once
// A block-sparse tensor read as a matrix — some axes the rows, the others the columns — is block
// diagonal in the rows' charge (Σ sign·q over the row axes): one dense matrix per charge sector,
// factorised on its own. This unit gathers each sector's blocks into one column-major matrix,
// takes its SVD, chooses how many singular values each sector keeps (the largest over all
// sectors, so that a bond of χ̄ goes where the weight is), and gives back the kept factors as
// block tensors with a new leg whose sectors are the kept ones.
#include <algorithm>
#include <cstddef>
#include <functional>
#include <vector>

#include "srcc/symmetric/block_tensor.hpp"

namespace srcc {

template <class T> struct SectorSvd {
  using R = real_t<T>;
  struct Group {
    Charge charge;                             // the rows' charge
    std::size_t m = 0, n = 0;                  // the sector's matrix: rows × columns
    std::vector<BlockKey> row_keys, col_keys;  // over the row (column) axes, with their offsets
    std::vector<std::size_t> row_offset, col_offset;
    Buffer<T> u, vt;                           // m × k and k × n, column-major, k = min(m, n) (kSvdLeft: no vt)
    std::vector<R> sigma;                      // k values, descending
    std::size_t keep = 0;                      // set by choose_ranks
  };
  std::vector<Leg> row_legs, col_legs;
  std::vector<int> row_labels, col_labels;
  std::vector<Group> groups;  // in charge order
};

// How each sector's matrix A is factorised: the SVD; the SVD's U and σ alone (no right_factor
// after it: a sector with fewer rows than columns takes them from the QR of Aᴴ, without forming
// the long right factor); or a QR, A = Q·R, as U = Q, σ = 1, Vᵀ = R (nothing to choose: an
// orthonormal basis of every sector, as a sweep to canonical form needs); or the R of Aᴴ's QR
// alone, in vt (min(n, m) × m; no U, no σ): part of a QR of Aᴴ whose rows several processes hold
// (symmetric/block_exchange.hpp), finished by left_svd_of_adjoint.
enum class Factorization { kSvd, kSvdLeft, kQr, kAdjointR };

// Which sectors this process factorises, from the sectors as grouped (true: its own), where
// several share the work (symmetric/block_exchange.hpp); null: all of them.
template <class T> using SectorShare = std::function<std::vector<bool>(const SectorSvd<T>&)>;

// Each sector of `t` factorised, with the axes `row_labels` as rows (their charge signs in
// `row_signs`) and the other axes, in t's order, as columns; with `share`, only the sectors it
// calls this process's (the others keep their sizes and no factors).
template <class T>
SectorSvd<T> sector_svd(Kernels<T>& K, const BlockTensor<T>& t, const std::vector<int>& row_labels,
                        const std::vector<int>& row_signs, const ChargeRule& rule,
                        Factorization how = Factorization::kSvd, const SectorShare<T>& share = nullptr);

// A group's U and σ from B (`rows` × m, column-major) with Aᴴ = Q·B, Q's columns orthonormal:
// the SVD of Bᴴ, whose left factor and values are A's.
template <class T>
void left_svd_of_adjoint(Kernels<T>& K, typename SectorSvd<T>::Group& g, const Buffer<T>& b, std::size_t rows);

// The work of factorising a group: m·n·min(m, n).
template <class T> std::size_t sector_cost(const typename SectorSvd<T>::Group& g) { return g.m * g.n * std::min(g.m, g.n); }

// How many values each sector keeps: the largest over all sectors, at most `cap` (0: no cap), none
// below cutoff·σ_max, and no tail of relative norm ≤ tol dropped beyond that (truncation.hpp's
// rules on the merged values); at least one over all. `sector_caps` (per group, when given) bound
// what a sector may keep: the rank its structure allows. Returns the discarded norm √Σσ² and sets
// `total` to the norm of all values.
template <class T>
double choose_ranks(SectorSvd<T>& svd, std::size_t cap, double cutoff, double tol, double& total,
                    const std::vector<std::size_t>& sector_caps = {});

// The groups' charges in order, negated under `rule` when `negate` (a new leg that takes the
// rows' charge to the other side).
template <class T> std::vector<Charge> group_charges(const SectorSvd<T>& svd, const ChargeRule& rule, bool negate = false) {
  std::vector<Charge> out;
  for (const auto& g : svd.groups) out.push_back(negate ? negate_charge(rule, g.charge) : g.charge);
  return out;
}

// The kept left factors as a tensor (new, rows…): a new leg (labelled `label`) of one sector per
// group that keeps something, its charge `charge_of(group charge)`; blocks Uᵀ restricted to the
// kept columns. Its rows are orthonormal.
template <class T>
BlockTensor<T> left_factor(Kernels<T>& K, const SectorSvd<T>& svd, int label, const std::vector<Charge>& new_charges);
// The kept diag(σ)·Vᵀ as a tensor (new, columns…), the new leg as in left_factor.
template <class T>
BlockTensor<T> right_factor(Kernels<T>& K, const SectorSvd<T>& svd, int label, const std::vector<Charge>& new_charges);

}  // namespace srcc
