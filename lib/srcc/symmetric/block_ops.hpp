#pragma once
// The operations of the symmetric sweep on block-sparse tensors, all through the backend's
// kernels (so they run wherever the dense sweep runs): axis permutations (block by block, as
// transpositions of two axes), contractions (one GEMM per pair of blocks that meet, the pairs of
// one output block a chain accumulated in place, all chains handed to the backend together:
// tasks over a CPU's threads, batched launches of one shape each on a GPU), the Khatri–Rao
// product of a sketch environment with a test tensor, conjugation and norms.
#include <vector>

#include "srcc/symmetric/block_tensor.hpp"

namespace srcc {

// t with its axes in the order of `labels` (a permutation of t.labels). Shares t's data when the
// order is already right.
template <class T> BlockTensor<T> permute_to(Kernels<T>& K, const BlockTensor<T>& t, const std::vector<int>& labels);

// Σ over the axes labelled `over` (each in both, with the same sectors) of a·b: the result's axes
// are a's other axes in order, then b's. An operand whose contracted axes already form its first
// or last run (in the order of `over`) is used as it lies; another is permuted first. `flops` (when given) accumulates the GEMMs' real flops.
template <class T>
BlockTensor<T> contract(Kernels<T>& K, const BlockTensor<T>& a, const BlockTensor<T>& b, const std::vector<int>& over,
                        double* flops = nullptr);

// The same for every index of a shared first axis (the sketch column, one sector in both), which
// is kept, not summed: for each column, one matrix product (a batched GEMM per pair of blocks).
// The result's axes are the batch axis, a's other free axes, then b's.
template <class T>
BlockTensor<T> contract_batched(Kernels<T>& K, const BlockTensor<T>& a, const BlockTensor<T>& b,
                                const std::vector<int>& over, double* flops = nullptr);

// Σ over the run `over` of t·op, where `over` is a contiguous run of t's axes (in that order) and
// op has them too: op's other axes take the run's place, in the order `op_free`, t's axes before
// and after it staying where they are (out[p, g, q] = Σ_c op[c, g] t[p, c, q]). For each pair of
// blocks one GEMM batched over the indices before the run, op's block shared: t is read as it
// lies, never permuted. How a stack's layers are absorbed into an environment.
template <class T>
BlockTensor<T> contract_in_place(Kernels<T>& K, const BlockTensor<T>& t, const BlockTensor<T>& op,
                                 const std::vector<int>& over, const std::vector<int>& op_free, double* flops = nullptr);

// out[a, x, L…, y] = env[a, L…] · omega[a, x, y]: env's first axis and omega's are the sketch
// leg (one sector); the result's labels are omega's x, env's and omega's y in that order.
template <class T> BlockTensor<T> khatri_rao(Kernels<T>& K, const BlockTensor<T>& env, const BlockTensor<T>& omega);

// Σ_i alpha_i·t_i of tensors with the same labels in the same order and the same legs: the union
// of their blocks (a block one of them lacks is zero there).
template <class T>
BlockTensor<T> add_blocks(Kernels<T>& K, const std::vector<std::pair<const BlockTensor<T>*, double>>& parts);

// The tensors stacked along their first axis: the same labels, the same legs but the first, whose
// sectors of one charge are laid one after another in the order of `parts`.
template <class T> BlockTensor<T> stack_first(Kernels<T>& K, const std::vector<const BlockTensor<T>*>& parts);

// t's first `count` axes fused into one axis, labelled as the first: a sector per charge
// Σ_i signs[i]·q_i of their sector combinations, each combination's indices (row-major) a run of
// its sector, the runs in the order of all_keys over those legs; the other axes as they are. No
// arithmetic: the same numbers, indexed as a matrix whose rows are the fused axes.
template <class T>
BlockTensor<T> fuse_leading(Kernels<T>& K, const BlockTensor<T>& t, std::size_t count, const std::vector<int>& signs,
                            const ChargeRule& rule);

template <class T> BlockTensor<T> conj_of(Kernels<T>& K, const BlockTensor<T>& t);
template <class T> double norm_of(Kernels<T>& K, const BlockTensor<T>& t);
template <class T> void scale_by(Kernels<T>& K, BlockTensor<T>& t, double alpha);

}  // namespace srcc
