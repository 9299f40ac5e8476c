#pragma once
// Block tensors between MPI ranks: a tensor packed into bytes (its legs, labels, offset table and
// elements) and back, and every term's tensor of a cut gathered in term order from the ranks that
// hold them (sweep/rank_exchange.hpp), so that a charged sum's terms can be dealt to ranks and
// added in the order one process adds them.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "srcc/sweep/rank_exchange.hpp"
#include "srcc/symmetric/block_tensor.hpp"

namespace srcc {

// t as bytes: legs (charges, dims, dense positions), labels, blocks and elements (host order).
template <class T> std::vector<std::byte> packed_blocks(Kernels<T>& K, const BlockTensor<T>& t);
// The tensor `bytes` holds (packed_blocks), its elements adopted by K. Throws std::runtime_error
// on bytes that are not a whole tensor.
template <class T> BlockTensor<T> unpacked_blocks(Kernels<T>& K, const std::vector<std::byte>& bytes);

// Every term's tensor in term order, on every rank: `own` holds this rank's terms' (null for the
// terms of other ranks), which stay as they are; the others' arrive packed. Alone: `own` itself.
template <class T>
std::vector<BlockTensor<T>> every_term_blocks(Kernels<T>& K, RankExchange* ranks, const std::vector<const BlockTensor<T>*>& own,
                                              const std::string& what, std::int64_t site);

}  // namespace srcc
