#include "srcc/sweep/sketch_blocks.hpp"

#include <chrono>
#include <cmath>
#include <new>
#include <string>
#include <utility>

#include "srcc/core/error.hpp"
#include "srcc/core/rng.hpp"
#include "srcc/core/scaled_norm.hpp"
#include "srcc/sweep/left_step.hpp"
#include "srcc/sweep/out_of_memory.hpp"
#include "srcc/sweep/sketch.hpp"

namespace srcc {

namespace {

using Clock = std::chrono::steady_clock;

// Withdraws the ranges a left sweep asked its devices to warm, however it ends, before the
// buffers they lie in may be freed.
template <class T> struct WarmingStop {
  std::vector<Kernels<T>*> kernels;
  ~WarmingStop() {
    for (auto* k : kernels) k->warm(nullptr, 0);
  }
};

}  // namespace

template <class T>
SketchBlocks<T>::SketchBlocks(const Stack& stack, Devices<T>& devices, SiteFeed<T>& feed,
                              std::uint64_t seed, const Plan* plan, Reporter& reporter,
                              const std::function<void()>& check_interrupt,
                              std::vector<double>& seconds, RankExchange* ranks)
    : st_(stack),
      mirror_(mirrored(stack)),
      devices_(devices),
      feed_(feed),
      seed_(seed),
      plan_(plan),
      reporter_(reporter),
      check_interrupt_(check_interrupt),
      seconds_(seconds),
      ranks_(ranks && ranks->columns_split() ? ranks : nullptr) {}

template <class T>
Buffer<T> SketchBlocks<T>::adopt(std::vector<T>&& host, const char* what, std::size_t j,
                                 std::size_t d) {
  return devices_.ctx(d).mover.up(std::move(host), what, static_cast<std::int64_t>(j));
}

template <class T> std::size_t SketchBlocks<T>::right_batch(std::size_t j, std::size_t s) const {
  return plan_ ? std::clamp<std::size_t>(plan_->site_plans[j].right_batch, 1, s) : s;
}

template <class T> void SketchBlocks<T>::add(std::size_t columns, std::size_t last) {
  Block b;
  b.columns = columns;
  b.last = last;
  // This rank's share of the columns (all of them in one process), over its devices.
  const auto share = ranks_ ? ranks_->share(columns) : RankExchange::Share{0, columns};
  for (auto sl : devices_.split(share.count)) {
    sl.first += share.first;
    b.slices.push_back({sl, {}});
  }
  b.log_scale.assign(last + 1, 0.0);
  draw(b);
  const std::size_t id = blocks_.size();
  sweep_left(b, id);
  blocks_.push_back(std::move(b));
}

// The draws do not depend on the split: site by site, all columns from one generator, then cut
// into the slices' rows.
template <class T> void SketchBlocks<T>::draw(Block& b) {
  Rng rng(sketch_block_seed(seed_, blocks_.size()));
  const std::size_t n = st_.length(), k = st_.depth();
  for (std::size_t j = 0; j + 1 < n; ++j) {
    const std::size_t up = st_.up_dim(j), down = st_.down_dim(j), ud = up * down;
    std::vector<T> all = draw_gaussian<T>(rng, b.columns * ud);
    // Drawn as Ω[a, x_0, x_k]; a stack contracts it into its top layer over x_0 and so takes
    // each column's matrix transposed, Ω[a, x_k, x_0] (the same numbers on every backend).
    if (k > 1 && up > 1 && down > 1) {
      std::vector<T> column(ud);
      for (std::size_t a = 0; a < b.columns; ++a) {
        T* om = all.data() + a * ud;
        for (std::size_t x = 0; x < up; ++x)
          for (std::size_t y = 0; y < down; ++y) column[y * up + x] = om[x * down + y];
        std::copy(column.begin(), column.end(), om);
      }
    }
    for (auto& sl : b.slices)
      sl.omega.push_back(adopt(std::vector<T>(all.begin() + static_cast<std::ptrdiff_t>(sl.first * ud),
                                              all.begin() + static_cast<std::ptrdiff_t>((sl.first + sl.columns) * ud)),
                               "sketch", j, sl.device));
  }
}

template <class T> void SketchBlocks<T>::sweep_left(Block& b, std::size_t id) {
  std::vector<Buffer<T>> env;
  for (auto& sl : b.slices) env.push_back(adopt(std::vector<T>(sl.columns, T(1)), "environment", 0, sl.device));
  // One uniform rescaling of each C_{j+1} (all slices alike) to norm √columns: it leaves the
  // sketched range and the scale-free leave-one-out estimator unchanged and keeps long trains
  // away from overflow and underflow (most of all in float32). The factor is applied by the
  // next step's threads to the columns they are about to read (one pass less over C).
  real_t<T> pending = 1;
  // Each step's output is allocated one step early and warmed by the kernels (Kernels::warm):
  // while memory only grows, that moves the allocation, not the peak, so not while the plan
  // still spills environments.
  const std::size_t ns = b.slices.size();
  std::vector<Buffer<T>> ahead(ns);
  WarmingStop<T> stop_warming;
  for (const auto& sl : b.slices) stop_warming.kernels.push_back(&devices_.ctx(sl.device).K);
  for (std::size_t j = 0; j < b.last; ++j) {
    check_interrupt_();
    const auto t0 = Clock::now();
    // Every slice on its own device, concurrently; the sites at j are fetched once first (the
    // threads only read them).
    std::vector<Buffer<T>> next(ns);
    std::vector<double> norms(ns, 0.0);
    feed_.site(0, j);
    if (j + 1 < b.last) feed_.site(0, j + 1);  // read ahead: the threads upload its forms early
    devices_.run_side_by_side(ns, [&](std::size_t i) {
      try {
        const auto& sl = b.slices[i];
        Ctx c = devices_.ctx(sl.device);
        Buffer<T> out = std::exchange(ahead[i], Buffer<T>());
        if (out.data() == nullptr) out = c.K.allocate(sl.columns * st_.fused_right(j));
        // Memory only grows once C_{j+1} stays in memory (the newest environments are kept there).
        const bool kept = plan_ == nullptr || plan_->tier(j + 1) == Tier::kMemory;
        if (j + 1 < b.last && kept)
          ahead[i] = c.K.allocate_warmed(sl.columns * st_.fused_right(j + 1));
        else
          c.K.warm(nullptr, 0);
        std::vector<Buffer<T>> forms;
        for (std::size_t layer = 0; layer < st_.depth(); ++layer)
          forms.push_back(feed_.form(layer, j, feed_.left_form(layer), sl.device));
        const std::size_t batch =
            plan_ ? std::clamp<std::size_t>(plan_->site_plans[j].left_batch, 1, sl.columns) : sl.columns;
        next[i] = advance_left(c, st_, j, sl.columns, batch, env[i], pending, sl.omega[j], forms,
                               norms[i], std::move(out));
        if (j + 1 < b.last)
          feed_.upload_ahead(j + 1, [this](std::size_t layer) { return feed_.left_form(layer); }, sl.device);
      } catch (const std::bad_alloc&) {
        throw out_of_memory("left sweep", j);
      }
    });
    // The scale is the whole block's: every rank's slices' norms, in rank order.
    if (ranks_) norms = ranks_->joined(norms, "environment norm", static_cast<std::int64_t>(j));
    const double total = scaled_norm(norms.data(), norms.size());
    if (!std::isfinite(total))
      throw NumericalError("left sweep, site " + std::to_string(j) + ": sketched environment is not finite");
    pending = static_cast<real_t<T>>(total > 0 ? std::sqrt(static_cast<double>(b.columns)) / total : 1.0);
    // C_{j+1} is computed from the scaled C_j and gets `pending` itself (in the next step).
    b.log_scale[j + 1] = b.log_scale[j] + std::log(static_cast<double>(pending));
    for (std::size_t i = 0; i < ns; ++i) {
      // C_j is no longer needed by the left sweep: it waits for the right sweep in its tier.
      devices_.ctx(b.slices[i].device).store.put(id, j, std::move(env[i]), b.slices[i].columns, st_.fused_left(j));
      env[i] = std::move(next[i]);
    }
    seconds_[j] += std::chrono::duration<double>(Clock::now() - t0).count();
    reporter_.progress("left sweep", j + 1, b.last);
  }
  for (std::size_t i = 0; i < ns; ++i) {
    const auto& sl = b.slices[i];
    Ctx c = devices_.ctx(sl.device);
    if (pending != 1) c.K.scale(sl.columns * st_.fused_left(b.last), pending, env[i].data());
    c.store.put(id, b.last, std::move(env[i]), sl.columns, st_.fused_left(b.last));
  }
  devices_.settle_stores();
}

template <class T> std::size_t SketchBlocks<T>::begin_dense(std::size_t last) {
  Block b;
  b.last = last;
  b.rows.assign(last + 1, 1);
  b.discarded.assign(last + 1, 0.0);
  b.log_scale.assign(last + 1, 0.0);
  // C_0 is the number 1: the part left of the first site is empty.
  b.env = adopt(std::vector<T>(1, T(1)), "environment", 0, 0);
  blocks_.push_back(std::move(b));
  return blocks_.size() - 1;
}

template <class T> Buffer<T> SketchBlocks<T>::dense_block(std::size_t block, std::size_t j) {
  Block& b = blocks_.at(block);
  const auto t0 = Clock::now();
  try {
    std::vector<Buffer<T>> forms;
    for (std::size_t layer = 0; layer < st_.depth(); ++layer)
      forms.push_back(feed_.form(layer, j, dense_left_form(layer, st_.depth()), 0));
    Buffer<T> m = dense_left_block(devices_.ctx(0), mirror_, j, forms, b.env, b.rows[j]);
    seconds_[j] += std::chrono::duration<double>(Clock::now() - t0).count();
    return m;
  } catch (const std::bad_alloc&) {
    throw out_of_memory("left sweep", j);
  }
}

template <class T> void SketchBlocks<T>::advance_dense(std::size_t block, std::size_t j, Reduced<T> next) {
  Block& b = blocks_.at(block);
  devices_.ctx(0).store.put(block, j, std::move(b.env), b.rows[j], st_.fused_left(j));
  b.env = std::move(next.env);
  b.rows[j + 1] = next.rank;
  b.discarded[j + 1] = next.discarded;
  b.log_scale[j + 1] = b.log_scale[j] + next.log_scale;
  reporter_.progress("left sweep", j + 1, b.last);
}

template <class T> void SketchBlocks<T>::end_dense(std::size_t block) {
  Block& b = blocks_.at(block);
  devices_.ctx(0).store.put(block, b.last, std::move(b.env), b.rows[b.last], st_.fused_left(b.last));
  devices_.settle_stores();
  b.columns = *std::max_element(b.rows.begin(), b.rows.end());
  b.slices.push_back({{0, 0, b.columns}, {}});
}

template <class T>
Buffer<T> SketchBlocks<T>::sketch(std::size_t block, std::size_t j, std::size_t cols,
                                  const Buffer<T>& z, std::size_t rows) {
  const std::size_t nl = st_.fused_left(j);
  Ctx c0 = devices_.ctx(0);
  // Over ranks this rank's columns [first, first + mine) of the cols, gathered below.
  const auto& slices = blocks_[block].slices;
  const std::size_t first = ranks_ && !slices.empty() ? slices.front().first : 0;
  std::size_t mine = cols;
  if (ranks_) {
    mine = 0;
    for (const auto& sl : slices) mine += sl.first < cols ? std::min(sl.columns, cols - sl.first) : 0;
  }
  Buffer<T> y = c0.K.allocate(std::max<std::size_t>(mine, 1) * rows);
  std::vector<T> z_host;  // Z' for the other devices, fetched once
  for (auto sl : slices) {
    if (sl.first >= cols) break;
    const std::size_t take = std::min(sl.columns, cols - sl.first);
    sl.first -= first;  // its place in this rank's columns
    if (sl.device == 0) {
      c0.store.for_rows(block, j, take, right_batch(j, take),
                        [&](const T* env, std::size_t a0, std::size_t count) {
                          c0.gemm(Op::kNone, Op::kTrans, count, rows, nl, T(1), env, nl, z.data(),
                                  nl, T(0), y.data() + (sl.first + a0) * rows, rows);
                        });
      continue;
    }
    // Another device: Z' goes there, its rows of Y come back to device 0.
    Ctx c = devices_.ctx(sl.device);
    const auto site = static_cast<std::int64_t>(j);
    if (z_host.empty()) z_host = c0.mover.down(z, rows * nl, "right block", site);
    Buffer<T> zd = adopt(std::vector<T>(z_host), "right block", j, sl.device);
    Buffer<T> yd = c.K.allocate(take * rows);
    c.store.for_rows(block, j, take, right_batch(j, take),
                     [&](const T* env, std::size_t a0, std::size_t count) {
                       c.gemm(Op::kNone, Op::kTrans, count, rows, nl, T(1), env, nl, zd.data(),
                              nl, T(0), yd.data() + a0 * rows, rows);
                     });
    Buffer<T> back = adopt(c.mover.down(yd, take * rows, "sketch", site), "sketch", j, 0);
    c0.K.copy(take * rows, back.data(), y.data() + sl.first * rows);
  }
  if (!ranks_) return y;
  // Column-major: the ranks' column shares, in rank order, are the sketch's columns in order
  // (each rank's share of the block's columns, cut at `cols`).
  const auto site = static_cast<std::int64_t>(j);
  return c0.mover.through_host(
      y, mine * rows, cols * rows,
      [&](const T* own, T* all) { ranks_->join_shares(own, all, blocks_[block].columns, rows, "sketch", site, cols); },
      "sketch", site);
}

template <class T> void SketchBlocks<T>::release(std::size_t j) {
  for (std::size_t blk = 0; blk < blocks_.size(); ++blk) devices_.release(blk, j);
}

#define SRCC_INSTANTIATE(T) template class SketchBlocks<T>;
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
