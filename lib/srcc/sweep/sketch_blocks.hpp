#pragma once
// The sketch of the product: blocks of Gaussian test tensors Ω_j and their environments
// C_j = Ω·(everything to the left of cut j), swept from the left (docs/ALGORITHM.md). A fixed
// sketch is one block of s columns; tolerance mode adds blocks until each cut's estimate meets
// the tolerance. Each block's columns are split over the devices (Devices), whose stores keep
// the environments until the right sweep has used them.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "srcc/log/reporter.hpp"
#include "srcc/movement/devices.hpp"
#include "srcc/movement/site_feed.hpp"
#include "srcc/plan/plan.hpp"
#include "srcc/sweep/dense_left_step.hpp"
#include "srcc/sweep/rank_exchange.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

template <class T> class SketchBlocks {
 public:
  // `seconds[j]` collects the time spent at site j; `plan` (may be null) gives the batches and
  // the environments' tiers.
  // With `ranks` splitting the columns (rank_exchange.hpp), this rank sweeps its share of each
  // block's columns; the left sweep's scale and each cut's sketch are the ranks' together.
  SketchBlocks(const Stack& stack, Devices<T>& devices, SiteFeed<T>& feed, std::uint64_t seed,
               const Plan* plan, Reporter& reporter, const std::function<void()>& check_interrupt,
               std::vector<double>& seconds, RankExchange* ranks = nullptr);

  std::size_t count() const { return blocks_.size(); }
  std::size_t columns(std::size_t block) const { return blocks_.at(block).columns; }
  // The rows of block's environment at cut j: its columns for a Gaussian block, the rank the
  // reduction kept for a dense one.
  std::size_t rows(std::size_t block, std::size_t j) const {
    const Block& b = blocks_.at(block);
    return b.rows.empty() ? b.columns : b.rows.at(j);
  }

  // Draws a block of `columns` sketch columns and sweeps its environments up to cut `last`.
  void add(std::size_t columns, std::size_t last);

  // A block whose environments come from the dense left step (dense_left_step.hpp), up to cut
  // `last`, all on device 0 (the reduction couples all rows, so they are not split), built cut
  // by cut from outside so that the terms of a sum can be reduced together: begin_dense, then
  // for j = 0 … last−1 dense_block (M_j from C_j) and advance_dense (C_{j+1}, the reduction of
  // M_j, perhaps with the other terms'), then end_dense. begin_dense returns the block's index.
  std::size_t begin_dense(std::size_t last);
  // M_j, row-major (rows(block, j)·x_0·x_k) × fused_right(j), on device 0.
  Buffer<T> dense_block(std::size_t block, std::size_t j);
  void advance_dense(std::size_t block, std::size_t j, Reduced<T> next);
  void end_dense(std::size_t block);
  // Cut j's discarded norm of a dense block's reduction (0 where none).
  double discarded(std::size_t block, std::size_t j) const {
    const Block& b = blocks_.at(block);
    return j < b.discarded.size() ? b.discarded[j] : 0.0;
  }

  // Each environment is kept at a scale of its own (norm √rows, against overflow and underflow
  // on long trains): stored C_j = e^{log_scale} · C_j. One product's sketch does not depend on
  // it; the terms of a sum are brought to a common scale with it.
  double log_scale(std::size_t block, std::size_t j) const { return blocks_.at(block).log_scale.at(j); }

  // Y = C_j Z'ᵀ for the first `cols` columns of a block, on device 0: column-major rows × cols.
  // C_j comes from its tier in the plan's row batches; other devices compute their slices' rows,
  // other ranks theirs (gathered on every rank).
  Buffer<T> sketch(std::size_t block, std::size_t j, std::size_t cols, const Buffer<T>& z,
                   std::size_t rows);

  // Cut j's environments of every block are no longer needed.
  void release(std::size_t j);

 private:
  using Ctx = typename Devices<T>::Ctx;
  struct Slice : Devices<T>::Slice {
    std::vector<Buffer<T>> omega;  // per site 0 … n−2: (columns, u_j, d_j) on the device
  };
  struct Block {
    std::size_t columns = 0;
    std::size_t last = 0;  // environments exist for cuts 0 … last
    std::vector<Slice> slices;
    std::vector<std::size_t> rows;  // dense blocks: each cut's rows
    std::vector<double> discarded;  // dense blocks: each cut's reduction loss (sdc)
    std::vector<double> log_scale;  // each cut's (log_scale())
    Buffer<T> env;                  // a dense block being built: the newest environment
  };

  void draw(Block& b);
  void sweep_left(Block& b, std::size_t id);
  std::size_t right_batch(std::size_t j, std::size_t s) const;
  Buffer<T> adopt(std::vector<T>&& host, const char* what, std::size_t j, std::size_t d);

  const Stack& st_;
  const Stack mirror_;  // the dense left step's view of the stack (dense_left_step.hpp)
  Devices<T>& devices_;
  SiteFeed<T>& feed_;
  std::uint64_t seed_;
  const Plan* plan_;
  Reporter& reporter_;
  const std::function<void()>& check_interrupt_;
  std::vector<double>& seconds_;
  RankExchange* ranks_;  // null, or splitting the columns over ranks
  std::vector<Block> blocks_;
};

}  // namespace srcc
