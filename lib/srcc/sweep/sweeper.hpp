#pragma once
// The sweep's machinery (sweep.cpp, fit_sweeps.cpp): the terms' stacks, devices, site feeds and
// sketch blocks, and the right sweep that turns their sketches into cores. Internal to
// sweep/: run_sweep (sweep.hpp) is its interface.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "srcc/movement/devices.hpp"
#include "srcc/movement/site_feed.hpp"
#include "srcc/sweep/range_finder.hpp"
#include "srcc/sweep/right_step.hpp"
#include "srcc/sweep/sketch_blocks.hpp"
#include "srcc/sweep/sweep_data.hpp"
#include "srcc/sweep/rank_exchange.hpp"
#include "srcc/train/term_sum.hpp"

namespace srcc::detail {

using Clock = std::chrono::steady_clock;
inline double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// One run of the sweep over the terms of a sum (one term for a product): built, run once.
template <class T> class Sweeper {
 public:
  Sweeper(const std::vector<SweepTerm<T>>& terms, const SweepOptions& opt, Backend& backend,
          TransferLog& log, Reporter& reporter, const std::function<void()>& check_interrupt,
          const std::vector<Backend*>& extra, Ranks* ranks)
      : opt_(opt), log_(log), reporter_(reporter), check_interrupt_(check_interrupt),
        ranks_(ranks, share_mode(terms), terms.size(), check_interrupt, log) {
    std::vector<const Stack*> stacks;
    for (const auto& t : terms) stacks.push_back(t.stack);
    bounds_ = sum_bond_bounds(stacks);
    n_ = stacks.front()->length();
    seconds_.assign(n_, 0.0);
    // Over ranks: a sum's terms (src, sdc, sdcr: the dense left step's reduction meets the ranks'
    // terms in dense_left_step.hpp) or one product's Gaussian sketch columns (src only: a dense
    // left step reduces all of a term's rows at once); never fit sweeps.
    if (ranks_.spread() && (opt.fit_sweep_cap() > 0 || (opt.dense_left() && !ranks_.terms_dealt()) ||
                            (ranks_.terms_dealt() && terms.size() < static_cast<std::size_t>(ranks_.size()))))
      throw std::logic_error("a sweep is shared by ranks only for src (a sum's terms or a product's columns) or a "
                             "sum by sdc or sdcr, without fit sweeps, with a term per rank");
    stacks_ = stacks;
    for (std::size_t k = 0; k < terms.size(); ++k)
      if (ranks_.mine(k))
        parts_.push_back(
            std::make_unique<Part>(terms[k], backend, extra, log, opt, reporter, check_interrupt, seconds_, ranks_));
  }

  SweepResult<T> run();

 private:
  // One term: its stack, weight, plan, and the devices, feed and sketch blocks that hold its
  // sites and environments. All terms' devices are the same backends; the shared work (the
  // range of each cut, the cores) runs on the first term's device 0.
  struct Part {
    Part(const SweepTerm<T>& t, Backend& backend, const std::vector<Backend*>& extra, TransferLog& log,
         const SweepOptions& opt, Reporter& reporter, const std::function<void()>& check_interrupt,
         std::vector<double>& seconds, RankExchange& ranks)
        : st(*t.stack),
          weight(t.weight),
          plan(t.plan),
          devices(backend, extra, log, tier_rule(t.plan), t.plan ? t.plan->budgets.scratch_dir : std::string()),
          feed(st, *t.source, log, devices.movers()),
          blocks(st, devices, feed, opt.seed, plan, reporter, check_interrupt, seconds, &ranks) {}
    const Stack& st;
    T weight;
    const Plan* plan;
    Devices<T> devices;
    SiteFeed<T> feed;         // after the devices: it sends to each of them
    SketchBlocks<T> blocks;   // after the feed: its left sweeps read sites
  };

  // A sum's terms are dealt to ranks; one product's sketch columns are split over them (but
  // for two sites, which every rank computes whole: it has no sketch).
  static RankExchange::Mode share_mode(const std::vector<SweepTerm<T>>& terms) {
    if (terms.size() > 1) return RankExchange::Mode::kTerms;
    return terms.front().stack->length() > 2 ? RankExchange::Mode::kColumns : RankExchange::Mode::kAlone;
  }

  Part& part(std::size_t k) { return *parts_[k]; }
  // The first term's stack: its sites and physical legs are every term's.
  const Stack& st() const { return parts_.front()->st; }
  DeviceCtx<T> ctx() { return part(0).devices.ctx(0); }
  std::vector<T> weights() const {
    std::vector<T> w;
    for (const auto& p : parts_) w.push_back(p->weight);
    return w;
  }
  Kernels<T>& K() { return ctx().K; }
  CountingGemm<T>& gemm() { return ctx().gemm; }
  Mover<T>& mover() { return ctx().mover; }

  static typename EnvStore<T>::TierRule tier_rule(const Plan* plan) {
    return [plan](std::size_t j) { return plan ? plan->tier(j) : Tier::kMemory; };
  }

  // The sketch's width (the plans are sized for it); in tolerance mode the cap of a cut's
  // sketch: --chi's, or the largest bond the product can have.
  std::size_t sketch_width() const {
    const std::size_t s = opt_.sketch_columns();
    return s > 0 ? s : *std::max_element(bounds_.begin(), bounds_.end());
  }

  // The terms' M_j (row-major rows × cols[k] each, on device 0; consumed; `scales` the logs of the
  // factors their environments carry) to their next environments, at one scale
  // (dense_left_step.hpp); cut j+1 is the one made.
  using JointReduction = std::function<std::vector<Reduced<T>>(std::size_t j, std::vector<Buffer<T>>& m,
                                                               std::size_t rows, const std::vector<std::size_t>& cols,
                                                               const std::vector<double>& scales)>;

  // How sdc and sdcr turn M_j into the next environment (dense_left_step.hpp): at most the
  // sketch's width of rows; sdc in tolerance mode keeps the fewest whose tail is within the
  // sketch's share of --tol, the rest being the truncation sweep's.
  JointReduction method_reduction();

  // A dense block in every term's sketch blocks, built cut by cut: each term's M_j from its own
  // environment, then `reduce` turns them all into the next environments together. Returns the
  // block's index (the same in every term).
  std::size_t dense_sweep(const JointReduction& reduce);

  // Hands host data to device 0's backend (a logged device move where it copies).
  Buffer<T> adopt(std::vector<T>&& host, const std::string& what, std::size_t j) {
    return mover().up(std::move(host), what, static_cast<std::int64_t>(j));
  }

  Tensor<T> fetch_core(const Buffer<T>& b, Shape shape, std::size_t j) {
    Tensor<T> core(std::move(shape));
    core.data = mover().fetch(b, core.size(), "result site", static_cast<std::int64_t>(j));
    return core;
  }

  // Z' of term k's site j (right_step.cpp) on device 0, from its right-step forms.
  Buffer<T> right_block(std::size_t k, std::size_t j, const Buffer<T>& s_env, std::size_t b,
                        double* norm = nullptr) {
    Part& p = part(k);
    std::vector<Buffer<T>> w;
    for (std::size_t i = 0; i < p.st.depth(); ++i) w.push_back(p.feed.form(i, j, p.feed.right_form(i), 0));
    return srcc::right_block(ctx(), p.st, j, w, s_env, b, norm);
  }

  // The first `cols` columns of a block's sketch of cut j, Y = Σ_k C_{k,j} Z'_kᵀ: the terms'
  // environments share the block's test tensors, so this is the sketch of the sum.
  // Each term's environments are kept at their own scale (SketchBlocks::log_scale): the terms'
  // sketches are brought to one before they are added, the largest factor being 1.
  Buffer<T> sketch(std::size_t block, std::size_t j, std::size_t cols, const std::vector<Buffer<T>>& z,
                   std::size_t rows);

  // Grows the range of cut j's sketch: all of block 0 in fixed mode; blocks until the
  // leave-one-out estimate meets the tolerance (or the cap) in tolerance mode.
  RangeEstimate find_range(RangeFinder<T>& finder, std::size_t j, const std::vector<Buffer<T>>& z,
                           std::size_t rows, std::size_t cap);

  // What the right sweep keeps of each core's range.
  struct Keep {
    std::size_t rank_cap;  // 0 = the whole sketch
    double cutoff;
    bool numerical_zeros;
  };

  void right_sweep(SweepResult<T>& out, const Keep& keep);

  // The bond kept by the sweep itself is χ̄ unless a final truncation follows (then the whole
  // sketch is kept and the truncation sweep applies χ̄, cutoff and tol) or it is a fit sweep.
  void right_sweep_sites(SweepResult<T>& out, const Keep& keep);

  // Oversampled runs: truncate the right-canonical result to χ̄ / cutoff / tol.
  void final_truncation(SweepResult<T>& out);

  // One-site variational sweeps at the result's bonds (docs/ALGORITHM.md). Each takes the
  // result left-orthonormal, builds its left environments F_j = φ_{<j}^H · (product) with the
  // dense left step, and runs the right sweep with F_j as the sketch: the core the right
  // sweep's QR factors is then B_j = (right environment)·(site j)·F_j, the minimiser of
  // ‖Aψ − φ‖ over core j with the others fixed, so the error never grows. Every sweep's result
  // is an orthogonal projection of Aψ, so ‖Aψ − φ_k‖² = ‖Aψ‖² − ‖φ_k‖²: a sweep removes
  // exactly ‖φ_k‖² − ‖φ_{k−1}‖² of the squared error. Returns the global estimate: where the
  // starting point had one and was itself such a projection (src, no truncation sweep), that
  // estimate less what the sweeps removed; NaN otherwise.
  double fit(SweepResult<T>& out);

  // n = 2: the exact product Θ[(u_0 d_0), (u_1 d_1)] and one truncated SVD.
  void two_site(SweepResult<T>& out);

  // Over ranks: the terms' sketches, Z' norms and first blocks in term order on every rank
  // (`what` names them in /log/transfers).
  std::vector<std::vector<T>> all_terms(std::vector<Buffer<T>>& own, std::size_t n, const std::string& what,
                                        std::size_t j);
  // Σ_k f_k · x_k over all terms in term order (f_k = 1 without factors), as one process adds it.
  Buffer<T> add_terms(std::vector<std::vector<T>>&& x, std::size_t n, const std::vector<real_t<T>>& factors,
                      std::size_t j);
  // Over ranks: Σ_k f_k · x_k as add_terms makes it, from this rank's own terms' buffers, the
  // terms gathered into one buffer of the backend (on a host backend directly, its own terms
  // packed into memory kept from cut to cut).
  Buffer<T> sum_over_ranks(const std::vector<Buffer<T>>& own, std::size_t n, const std::vector<real_t<T>>& factors,
                           const std::string& what, std::size_t j);
  // Rank 0's core and estimate of a cut on every rank: the ranks go on with one range.
  void agree(Buffer<T>& core, std::size_t& rank, std::size_t rows, RangeEstimate& e, std::size_t j);

  SweepOptions opt_;
  TransferLog& log_;
  Reporter& reporter_;
  const std::function<void()>& check_interrupt_;
  RankExchange ranks_;  // how ranks share the sweep (this process alone: all of it)
  std::size_t n_ = 0;
  std::vector<const Stack*> stacks_;  // every term's, on every rank
  std::vector<std::size_t> bounds_;  // the largest rank of each cut of the sum (sum_bond_bounds)
  std::vector<double> seconds_;      // per site (before the parts, whose sketch blocks add to it)
  std::vector<std::unique_ptr<Part>> parts_;  // the terms (one for a product)
  std::int64_t capped_ = 0;
  // The block whose environments the right sweep reads: the Gaussian sketch's first (its
  // blocks in tolerance mode) or a dense one (sdc, sdcr, a fit sweep).
  std::size_t active_ = 0;
  bool dense_ = false;
  void use_dense(std::size_t block) {
    active_ = block;
    dense_ = true;
  }
  std::size_t right_site_ = 0;  // the right sweep's current site (for error messages)
  std::vector<T> own_terms_;  // sum_over_ranks' packing, kept: its pages stay mapped
  bool sdc_gram_first_ = true;  // sdc: whether the next cut tries M's Gram matrix first (reduce_by_svd)
};

}  // namespace srcc::detail
