#pragma once
// Block tensors between MPI ranks: a tensor packed into bytes (its legs, labels, offset table and
// elements) and back, and every term's tensor of a cut gathered in term order from the ranks that
// hold them (sweep/rank_exchange.hpp), so that a charged sum's terms can be dealt to ranks and
// added in the order one process adds them.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "srcc/sweep/rank_exchange.hpp"
#include "srcc/symmetric/block_tensor.hpp"
#include "srcc/symmetric/charged_stack.hpp"
#include "srcc/symmetric/sector_svd.hpp"

namespace srcc {

// t as bytes: legs (charges, dims, dense positions), labels, blocks and elements (host order).
template <class T> std::vector<std::byte> packed_blocks(Kernels<T>& K, const BlockTensor<T>& t);
// The tensor `bytes` holds (packed_blocks), its elements adopted by K. Throws std::runtime_error
// on bytes that are not a whole tensor.
template <class T> BlockTensor<T> unpacked_blocks(Kernels<T>& K, std::span<const std::byte> bytes);

// Every term's tensor in term order, on every rank: `tensors[k]` is this rank's term k's where
// terms[k].stack is set (its own terms), and stays as it is; the other ranks' arrive packed.
// Alone: `tensors` itself.
template <class T>
std::vector<BlockTensor<T>> every_term_blocks(Kernels<T>& K, RankExchange* ranks, const std::vector<ChargedTerm<T>>& terms,
                                              const std::vector<BlockTensor<T>>& tensors, const std::string& what,
                                              std::int64_t site);

// The sector SVDs (U and σ, as sector_svd's kSvdLeft) of a tensor whose first axis the ranks
// hold in shares (`mine`: this rank's rows of a product's sketch, its columns split; the axes
// `row_labels` the sector matrices' rows, the split axis among their columns): each rank takes
// the QR of its part of each sector's Aᴴ, the R factors go to every rank, and the rank each
// sector is dealt to (dealt_sectors) stacks them in rank order, takes their R (Aᴴ's, to
// rounding) and the SVD of its adjoint; the factors then go to all (share_sector_factors). Only
// R factors travel, never the sketch's rows.
template <class T>
SectorSvd<T> split_sector_svd(Kernels<T>& K, RankExchange& ranks, const BlockTensor<T>& mine,
                              const std::vector<int>& row_labels, const std::vector<int>& row_signs,
                              const ChargeRule& rule, std::int64_t site);

// A cut's sector SVDs shared by the ranks: the sectors dealt by their cost, the largest first,
// each to the least loaded rank (ties: the lower) — the same deal on every rank, from the
// sectors' sizes alone (sector_svd's `share`) ...
template <class T> SectorShare<T> dealt_sectors(const RankExchange& ranks);
// ... and then the U and σ of each sector sent by the rank that took it to all (no Vᵀ: the
// sweep's kSvdLeft needs none), so that every rank holds every sector's factors, the one
// process's to the bit.
template <class T> void share_sector_factors(Kernels<T>& K, RankExchange& ranks, SectorSvd<T>& svd, std::int64_t site);

}  // namespace srcc
