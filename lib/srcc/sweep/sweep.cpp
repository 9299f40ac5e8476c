// Successive Randomized Compression: C. Camaño, E. N. Epperly, J. A. Tropp, "Successive
// randomized compression: a randomized algorithm for the compressed MPO-MPS product",
// arXiv:2504.06475. docs/ALGORITHM.md describes the steps implemented here.
//
// Index conventions. A stack has k layers (0 = top, k-1 = bottom) and n sites; at site j layer
// i has legs (l_i, r_i, u_i, d_i), with d_i = u_{i+1}. x_0 = u_0 is the product's up leg and
// x_k = d_{k-1} its down leg (1 for an MPS). Every contraction is a (strided batched)
// row-major GEMM over contiguous memory; the only permutations are of sites (site_forms) and,
// when the product has a down leg, one of each step's intermediate to put x_k beside x_0.
//
// This file holds the order of the work: the sketch blocks and their left sweeps
// (sketch_blocks.cpp, the step in left_step.cpp), then the right sweep, site by site from the
// right: the block Z'[(b, x_0, x_k), L] of site j from S[b, R] (right_step.cpp), the sketch
// Y = C_j Z'ᵀ stored column-major as (b x_0 x_k) × s, so that the Q of its QR, read row-major,
// is directly the core η_j[l, r, u, d], and S ← conj(η_j) Z'. Then, for oversampled or
// tolerance runs, the truncation sweep.
//
// Cost per site for an MPO (bond D) times an MPS (bond χ), output bond χ̄, sketch s, physical d:
// left s·(d²D² + dDχ² + dD²χ), right χ̄·(dDχ² + d²D²χ) + s·χ̄·dDχ + χ̄²·dDχ multiply-adds, plus
// the QR of a (χ̄ d) × s matrix: 14 N⁴ + 4 N³ when every size is N and d = 2.
#include "srcc/sweep/sweep.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <new>
#include <utility>

#include "srcc/core/error.hpp"
#include "srcc/core/rng.hpp"
#include "srcc/movement/site_forms.hpp"
#include "srcc/sweep/dense_left_step.hpp"
#include "srcc/sweep/out_of_memory.hpp"
#include "srcc/sweep/sketch.hpp"
#include "srcc/sweep/sweeper.hpp"
#include "srcc/sweep/truncation.hpp"
#include "srcc/sweep/truncation_sweep.hpp"
#include "srcc/train/term_sum.hpp"

namespace srcc {

namespace detail {

template <class T>
SweepResult<T> Sweeper<T>::run() {
  SweepResult<T> out;
  out.kind = st().result_kind();
  out.cores.resize(n_);
  out.sites.resize(n_);
  double fit_estimate = 0;
  if (n_ == 2) {
    two_site(out);  // exact, whatever the method
  } else {
    if (opt_.dense_left()) use_dense(dense_sweep(method_reduction()));
    else if (!opt_.tolerance_mode())
      for (auto& p : parts_) p->blocks.add(sketch_width(), n_ - 1);
    out.estimated = !opt_.dense_left();
    const bool truncate = opt_.final_truncation();
    // A deterministic method's environments carry the left part's singular values, which span
    // many orders of magnitude on a train not in canonical form: the sketch's columns then look
    // dependent at rounding level while the directions they bring carry real weight (an XXZ
    // H·ψ of a random charged state lost 40–70% of its norm to that test). Only a Gaussian
    // sketch's rounding-level directions are dropped.
    right_sweep(out, {truncate ? 0 : opt_.chi, truncate ? 0.0 : opt_.cutoff,
                      opt_.numerical_zeros && !truncate && !opt_.dense_left()});
    if (truncate) final_truncation(out);
    if (opt_.fit_sweep_cap() > 0) fit_estimate = fit(out);
  }
  for (std::size_t j = 0; j < n_; ++j) out.sites[j].seconds = seconds_[j];
  out.finish_sites();
  if (!out.fit.empty()) out.error_estimate = fit_estimate;
  out.capped_cuts = capped_;
  for (const auto& p : parts_) out.flops += p->devices.flops();
  log_.settle();  // copies timed on a device: read their clocks while the device is here
  return out;
}

template <class T>
typename Sweeper<T>::JointReduction Sweeper<T>::method_reduction() {
  const std::size_t cap = sketch_width();
  if (method_row(opt_.method).svd_reduction) {
    const double cutoff = effective_cutoff<real_t<T>>(0.0, opt_.numerical_zeros);
    const double tol = opt_.tolerance_mode() ? kSketchTolFraction * opt_.tol : 0.0;
    return [this, cap, cutoff, tol](std::size_t j, std::vector<Buffer<T>>& m, std::size_t rows,
                                    const std::vector<std::size_t>& cols, const std::vector<double>& scales) {
      // One product: the SVD of M itself; a sum: of its terms' R factors (no M formed), over
      // ranks of every rank's terms'.
      if (stacks_.size() == 1)
        return std::vector<Reduced<T>>{reduce_by_svd(K(), m[0], rows, cols[0], cap, cutoff, tol, &sdc_gram_first_)};
      return reduce_sum_by_svd(ctx(), m, rows, cols, weights(), cap, cutoff, tol, &ranks_, scales,
                               static_cast<std::int64_t>(j));
    };
  }
  // sdcr: each cut's Gaussian test from its own stream of the run's seed.
  const std::uint64_t base = Rng::derive_seed(opt_.seed, kRangeStreams);
  return [this, cap, base](std::size_t j, std::vector<Buffer<T>>& m, std::size_t rows, const std::vector<std::size_t>& cols,
                           const std::vector<double>& scales) {
    std::vector<std::size_t> every;
    for (const Stack* s : stacks_) every.push_back(s->fused_right(j));
    return reduce_by_range(ctx(), m, rows, cols, weights(), cap, Rng::derive_seed(base, j), &ranks_, every, scales,
                           static_cast<std::int64_t>(j));
  };
}

template <class T> std::size_t Sweeper<T>::dense_sweep(const JointReduction& reduce) {
  std::vector<std::size_t> ids;
  for (auto& p : parts_) ids.push_back(p->blocks.begin_dense(n_ - 1));
  for (std::size_t j = 0; j + 1 < n_; ++j) {
    check_interrupt_();
    std::vector<Buffer<T>> m;
    std::vector<std::size_t> cols;
    std::vector<double> scales;
    for (std::size_t k = 0; k < parts_.size(); ++k) {
      m.push_back(part(k).blocks.dense_block(ids[k], j));
      cols.push_back(part(k).st.fused_right(j));
      scales.push_back(part(k).blocks.log_scale(ids[k], j));
    }
    const auto t0 = Clock::now();
    std::vector<Reduced<T>> next;
    try {
      next = reduce(j, m, part(0).blocks.rows(ids[0], j) * st().up_dim(j) * st().down_dim(j), cols, scales);
    } catch (const std::bad_alloc&) {
      throw out_of_memory("left sweep", j);
    }
    seconds_[j] += since(t0);
    for (std::size_t k = 0; k < parts_.size(); ++k) part(k).blocks.advance_dense(ids[k], j, std::move(next[k]));
  }
  for (std::size_t k = 0; k < parts_.size(); ++k) part(k).blocks.end_dense(ids[k]);
  return ids.front();
}

template <class T>
Buffer<T> Sweeper<T>::sketch(std::size_t block, std::size_t j, std::size_t cols, const std::vector<Buffer<T>>& z,
                 std::size_t rows) {
  Buffer<T> y = part(0).blocks.sketch(block, j, cols, z[0], rows);
  if (ranks_.terms_dealt()) {
    std::vector<Buffer<T>> own{std::move(y)};
    std::vector<std::vector<double>> scales{{part(0).blocks.log_scale(block, j)}};
    for (std::size_t k = 1; k < parts_.size(); ++k) {
      own.push_back(part(k).blocks.sketch(block, j, cols, z[k], rows));
      scales.push_back({part(k).blocks.log_scale(block, j)});
    }
    const auto all = ranks_.all_terms(scales, "sketch scale", static_cast<std::int64_t>(j));
    double least = all.front().front();
    for (const auto& a : all) least = std::min(least, a.front());
    std::vector<real_t<T>> factors;
    for (const auto& a : all) factors.push_back(static_cast<real_t<T>>(std::exp(least - a.front())));
    return sum_over_ranks(own, rows * cols, factors, "sketch", j);
  }
  if (parts_.size() == 1) return y;
  double least = part(0).blocks.log_scale(block, j);
  for (auto& p : parts_) least = std::min(least, p->blocks.log_scale(block, j));
  auto factor = [&](std::size_t k) {
    return static_cast<real_t<T>>(std::exp(least - part(k).blocks.log_scale(block, j)));
  };
  if (factor(0) != 1) K().scale(rows * cols, factor(0), y.data());
  for (std::size_t k = 1; k < parts_.size(); ++k) {
    Buffer<T> term = part(k).blocks.sketch(block, j, cols, z[k], rows);
    K().add(rows * cols, factor(k), term.data(), y.data());
  }
  return y;
}

template <class T>
RangeEstimate Sweeper<T>::find_range(RangeFinder<T>& finder, std::size_t j, const std::vector<Buffer<T>>& z,
                         std::size_t rows, std::size_t cap) {
  // With as many columns as rows, or as the largest rank the cut can have (bounds_), the
  // sketch spans the whole range: exact, whatever the leave-one-out formula says.
  const std::size_t exact = std::min(rows, bounds_[j]);
  const bool dense = dense_;
  if (!opt_.tolerance_mode() || dense) {
    const std::size_t take = std::min(part(0).blocks.rows(active_, j), cap);
    finder.add(sketch(active_, j, take, z, rows), take);
    RangeEstimate e = finder.estimate();
    // The leave-one-out formula assumes Gaussian test columns: for the others it means nothing.
    if (dense) e.error = std::numeric_limits<double>::quiet_NaN();
    if (finder.columns() >= exact) e.error = 0;
    return e;
  }
  // The truncation sweep that follows truncates at tol (paper Appendix C).
  const double target = kSketchTolFraction * opt_.tol;
  RangeEstimate e;
  for (std::size_t b = 0; finder.columns() < cap && !finder.exhausted(); ++b) {
    if (b == part(0).blocks.count())
      for (auto& p : parts_) p->blocks.add(b == 0 ? opt_.block_start : opt_.block_step, j);
    const std::size_t take = std::min(part(0).blocks.columns(b), cap - finder.columns());
    finder.add(sketch(b, j, take, z, rows), take);
    e = finder.estimate();
    if (ranks_.spread()) {
      std::vector<double> pair{e.error, e.norm};
      ranks_.from_first(pair, "range estimate", static_cast<std::int64_t>(j));
      e = {pair[0], pair[1]};
    }
    if (finder.columns() >= exact) e.error = 0;
    if (e.error <= target * e.norm) return e;
  }
  if (e.error > target * e.norm) {
    ++capped_;
    reporter_.warning("cut " + std::to_string(j - 1) + "|" + std::to_string(j) +
                      ": sketch stopped at its cap of " + std::to_string(finder.columns()) +
                      " columns (--chi) with estimated error " + std::to_string(e.error / e.norm) +
                      " > tolerance " + std::to_string(target));
  }
  return e;
}

template <class T>
std::vector<std::vector<T>> Sweeper<T>::all_terms(std::vector<Buffer<T>>& own, std::size_t n, const std::string& what,
                                                  std::size_t j) {
  std::vector<std::vector<T>> host;
  for (auto& b : own) {
    host.push_back(mover().down(b, n, what, static_cast<std::int64_t>(j)));
    b = Buffer<T>();
  }
  return ranks_.all_terms(host, what, static_cast<std::int64_t>(j));
}

template <class T>
Buffer<T> Sweeper<T>::add_terms(std::vector<std::vector<T>>&& x, std::size_t n, const std::vector<real_t<T>>& factors,
                                std::size_t j) {
  auto factor = [&](std::size_t k) { return factors.empty() ? real_t<T>(1) : factors[k]; };
  Buffer<T> sum = adopt(std::move(x[0]), "sum of terms", j);
  if (factor(0) != 1) K().scale(n, factor(0), sum.data());
  for (std::size_t k = 1; k < x.size(); ++k) {
    Buffer<T> term = adopt(std::move(x[k]), "sum of terms", j);
    K().add(n, factor(k), term.data(), sum.data());
  }
  return sum;
}

template <class T>
Buffer<T> Sweeper<T>::sum_over_ranks(const std::vector<Buffer<T>>& own, std::size_t n,
                                     const std::vector<real_t<T>>& factors, const std::string& what, std::size_t j) {
  // Every term's values in gather_terms' layout, in the backend's memory (on a host backend
  // gathered into it directly).
  const Buffer<T> all = mover().through_host(
      own, n, ranks_.terms() * n,
      [&](const std::vector<const T*>& mine, T* every) {
        own_terms_.resize(mine.size() * n);
        for (std::size_t k = 0; k < mine.size(); ++k) std::copy_n(mine[k], n, own_terms_.data() + k * n);
        ranks_.gather_terms(own_terms_.data(), every, n, what, static_cast<std::int64_t>(j));
      },
      what, static_cast<std::int64_t>(j));
  auto term = [&](std::size_t k) { return all.data() + ranks_.term_slot(k) * n; };
  auto factor = [&](std::size_t k) { return factors.empty() ? real_t<T>(1) : factors[k]; };
  Buffer<T> sum = K().allocate(std::max<std::size_t>(n, 1));
  K().copy(n, term(0), sum.data());
  if (factor(0) != 1) K().scale(n, factor(0), sum.data());
  for (std::size_t k = 1; k < ranks_.terms(); ++k) K().add(n, factor(k), term(k), sum.data());
  return sum;
}

template <class T>
void Sweeper<T>::agree(Buffer<T>& core, std::size_t& rank, std::size_t rows, RangeEstimate& e, std::size_t j) {
  if (!ranks_.spread()) return;
  // Rank 0's estimate and rank first, then its core into a buffer of that size (on a host
  // backend the broadcast writes it in place).
  std::vector<double> head{e.error, e.norm, static_cast<double>(rank)};
  ranks_.from_first(head, "range estimate", static_cast<std::int64_t>(j));
  e = {head[0], head[1]};
  const auto first_rank = static_cast<std::size_t>(head[2]);
  const bool first = ranks_.rank() == 0;
  core = mover().through_host(
      core, rank * rows, first_rank * rows,
      [&](const T* mine, T* out) {
        if (first) std::copy_n(mine, first_rank * rows, out);
        ranks_.from_first_into(out, first_rank * rows, "result site", static_cast<std::int64_t>(j));
      },
      "result site", static_cast<std::int64_t>(j));
  rank = first_rank;
}

template <class T>
void Sweeper<T>::right_sweep(SweepResult<T>& out, const Keep& keep) {
  try {
    right_sweep_sites(out, keep);
  } catch (const std::bad_alloc&) {
    throw out_of_memory("right sweep", right_site_);
  }
}

template <class T>
void Sweeper<T>::right_sweep_sites(SweepResult<T>& out, const Keep& keep) {
  double log_scale = 0;  // log of the factor taken out of S (see below)
  std::size_t b = 1;
  const std::size_t terms = parts_.size();
  // S_k of each term, starting from its weight: the sum's cores come out of the terms' sketches
  // added up, and its first core is Σ_k Z'_k.
  std::vector<Buffer<T>> s_env;
  // With the columns split over ranks, each holds a share of S's rows (rank 0 the one row at the
  // right end) and computes those rows of Z'; the rows are gathered (rank_exchange.hpp).
  const bool split = ranks_.columns_split();
  std::size_t b_mine = split ? ranks_.share(1).count : 1;
  for (std::size_t k = 0; k < terms; ++k)
    s_env.push_back(adopt(std::vector<T>(b_mine, part(k).weight), "environment", n_ - 1));
  for (std::size_t j = n_; j-- > 0;) {
    check_interrupt_();
    right_site_ = j;
    const auto t0 = Clock::now();
    const std::size_t u = st().up_dim(j), dd = st().down_dim(j);
    const std::size_t rows = b * u * dd;
    std::vector<std::vector<double>> norms;
    std::vector<Buffer<T>> z;
    for (std::size_t k = 0; k < terms; ++k) {
      double norm = 0;
      z.push_back(right_block(k, j, s_env[k], b_mine, &norm));
      norms.push_back({norm});
    }
    double z_norm2 = 0;
    if (split) {
      // The ranks' rows of Z' in rank order are Z' (b is its slowest index), gathered straight
      // into a buffer of the backend's (recycled: no fresh pages per cut).
      const std::size_t per_row = u * dd * st().fused_left(j);
      const auto site = static_cast<std::int64_t>(j);
      z[0] = mover().through_host(
          z[0], b_mine * per_row, b * per_row,
          [&](const T* mine, T* whole) { ranks_.join_shares(mine, whole, b, per_row, "right block", site); },
          "right block", site);
      for (double n : ranks_.joined(std::vector<double>{norms[0][0]}, "right block norm", site)) z_norm2 += n * n;
    } else {
      for (const auto& n : ranks_.all_terms(norms, "right block norm", static_cast<std::int64_t>(j)))
        z_norm2 += n.front() * n.front();
    }
    if (j == 0) {
      if (ranks_.terms_dealt()) z[0] = add_terms(all_terms(z, rows, "right block", 0), rows, {}, 0);
      else
        for (std::size_t k = 1; k < terms; ++k) K().add(rows, 1, z[k].data(), z[0].data());
      out.cores[0] = fetch_core(z[0], {1, b, u, dd}, 0);
      out.log_scale = apply_log_scale(out.cores[0], log_scale);
      seconds_[0] += since(t0);
      reporter_.progress("right sweep", n_, n_);
      break;
    }
    // Beyond min(rows, the largest rank of the cut) columns the sketch is exact; --chi caps
    // it too.
    const std::size_t cap = std::min({rows, bounds_[j], sketch_width()});
    const std::size_t max_cols = opt_.tolerance_mode() && !dense_
                                     ? cap
                                     : std::min(cap, part(0).blocks.rows(active_, j));
    RangeFinder<T> finder(mover(), gemm(), rows, max_cols, static_cast<std::int64_t>(j));
    const RangeEstimate found = find_range(finder, j, z, rows, cap);
    // The next site's forms go up while the device works on this core and S. Not earlier: in
    // tolerance mode find_range may run a left sweep, whose own window they would add to.
    for (auto& p : parts_)
      p->feed.upload_ahead(j - 1, [&p](std::size_t layer) { return p->feed.right_form(layer); }, 0);
    std::size_t rank = 0;
    Buffer<T> core = finder.core(keep.rank_cap, keep.cutoff, 0.0, rank, keep.numerical_zeros);
    RangeEstimate est = found;
    agree(core, rank, rows, est, j);
    // S ← conj(η_j) · Z' / ‖Z'‖. S carries the norm of everything to its right, which shrinks
    // or grows geometrically along the train: it is kept at norm at most 1 (η_j has
    // orthonormal rows), with the logarithm of the scale on the side, so that float32 runs
    // neither underflow nor overflow midway (Q does not depend on it). ‖Z'‖ came with Z' (for
    // a sum, the terms' in quadrature: one scale for all, which keeps their sum in proportion);
    // the factor rides on the product's alpha, with no pass over S of its own.
    const double z_norm = std::sqrt(z_norm2);
    T alpha(1);
    if (z_norm > 0 && std::isfinite(z_norm)) {
      alpha = T(static_cast<real_t<T>>(1.0 / z_norm));
      log_scale += std::log(z_norm);
    }
    Buffer<T> conj_core = K().allocate(rank * rows);
    K().conj(rank * rows, core.data(), conj_core.data());
    // Split columns: this rank's share of S's next rows (of the core's rows).
    const auto next_rows = split ? ranks_.share(rank) : RankExchange::Share{0, rank};
    for (std::size_t k = 0; k < terms; ++k) {
      const std::size_t nl = part(k).st.fused_left(j);
      Buffer<T> next = K().allocate(std::max<std::size_t>(next_rows.count, 1) * nl);
      if (next_rows.count > 0)
        gemm()(Op::kNone, Op::kNone, next_rows.count, nl, rows, alpha, conj_core.data() + next_rows.first * rows, rows,
               z[k].data(), nl, T(0), next.data(), nl);
      s_env[k] = std::move(next);
      part(k).blocks.release(j);
    }
    b_mine = next_rows.count;
    out.cores[j] = fetch_core(core, {rank, b, u, dd}, j);
    auto& stats = out.sites[j];
    stats.sketch_columns = static_cast<std::int64_t>(finder.columns());
    stats.norm_estimate = est.norm;
    stats.error_estimate = est.norm > 0 ? est.error / est.norm : 0.0;
    b = rank;
    seconds_[j] += since(t0);
    reporter_.progress("right sweep", n_ - j, n_);
  }
}

template <class T>
void Sweeper<T>::final_truncation(SweepResult<T>& out) {
  const auto t0 = Clock::now();
  const auto discarded =
      truncate_train(out.cores, opt_.chi, opt_.cutoff, opt_.tol, mover(), gemm(), opt_.numerical_zeros);
  for (std::size_t j = 0; j < discarded.size(); ++j) {
    // The estimate of cut j (stored at site j+1) now also holds what the truncation removed.
    auto& s = out.sites[j + 1];
    s.truncation_error = discarded[j];
    if (!std::isfinite(s.error_estimate) && !out.estimated) continue;  // still unknown
    const double e = std::isfinite(s.error_estimate) ? s.error_estimate : 0.0;
    s.error_estimate = std::sqrt(e * e + discarded[j] * discarded[j]);
  }
  seconds_[0] += since(t0);
  reporter_.progress("truncation sweep", 1, 1);
}

template <class T>
void Sweeper<T>::two_site(SweepResult<T>& out) {
  check_interrupt_();
  const auto t0 = Clock::now();
  const std::size_t u1 = st().up_dim(1), d1 = st().down_dim(1);
  const std::size_t u0 = st().up_dim(0), d0 = st().down_dim(0);
  // With S = (the term's weight) the right block of site 1 is Z'[(u_1 d_1), L]: taking the
  // identity as η_1 it is the environment for site 0, whose block is then Θᵀ row-major = Θ
  // column-major; a sum's Θ is the terms' added up.
  Buffer<T> theta;
  std::vector<Buffer<T>> own;
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    Buffer<T> weight = adopt(std::vector<T>(1, part(k).weight), "environment", 1);
    Buffer<T> z1 = right_block(k, 1, weight, 1);
    Buffer<T> t = right_block(k, 0, z1, u1 * d1);
    if (ranks_.terms_dealt()) own.push_back(std::move(t));
    else if (k == 0) theta = std::move(t);
    else K().add(u0 * d0 * u1 * d1, 1, t.data(), theta.data());
  }
  const std::size_t size = u0 * d0 * u1 * d1;
  if (ranks_.terms_dealt()) theta = add_terms(all_terms(own, size, "two-site block", 0), size, {}, 0);
  const std::size_t m = u0 * d0, n = u1 * d1, kk = std::min(m, n);
  Buffer<T> uf = K().allocate(m * kk), vt = K().allocate(kk * n);
  std::vector<real_t<T>> sigma(kk);
  K().svd(m, n, theta.data(), uf.data(), sigma.data(), vt.data());
  const std::size_t rank = truncation_rank(
      sigma, effective_cutoff<real_t<T>>(opt_.cutoff, opt_.numerical_zeros), opt_.tol, opt_.chi);
  double total = 0;
  for (auto s : sigma) total += static_cast<double>(s) * static_cast<double>(s);
  Tensor<T> uh = fetch_core(uf, {m, kk}, 0), vh = fetch_core(vt, {n, kk}, 1);
  Tensor<T> c0({1, rank, u0, d0}), c1({rank, 1, u1, d1});
  for (std::size_t i = 0; i < rank; ++i) {
    for (std::size_t q = 0; q < m; ++q) c0.data[i * m + q] = uh.data[i * m + q] * sigma[i];
    for (std::size_t c = 0; c < n; ++c) c1.data[i * n + c] = vh.data[c * kk + i];
  }
  out.cores[0] = std::move(c0);
  out.cores[1] = std::move(c1);
  // Exact: the error is what the truncation removed.
  out.sites[1].truncation_error = total > 0 ? discarded_norm(sigma, rank) / std::sqrt(total) : 0;
  out.sites[1].error_estimate = out.sites[1].truncation_error;
  out.sites[1].norm_estimate = std::sqrt(total);
  seconds_[0] = seconds_[1] = since(t0) / 2;
  reporter_.progress("right sweep", 2, 2);
}

#define SRCC_INSTANTIATE(T) template class Sweeper<T>;
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace detail


template <class T>
SweepResult<T> run_sweep(const std::vector<SweepTerm<T>>& terms, const SweepOptions& options,
                         Backend& backend, TransferLog& log, Reporter& reporter,
                         const std::function<void()>& check_interrupt,
                         const std::vector<Backend*>& more_devices, Ranks* ranks) {
  validate(options);
  std::vector<const Stack*> stacks;
  for (const auto& t : terms) {
    validate_stack(*t.stack);
    stacks.push_back(t.stack);
  }
  validate_terms(stacks);
  if (stacks.front()->length() < 2)
    throw InputError(stacks.front()->layers.front().where() +
                     ": a train of one site has no bond to compress (need at least 2 sites)");
  return detail::Sweeper<T>(terms, options, backend, log, reporter, check_interrupt, more_devices, ranks).run();
}

template <class T>
SweepResult<T> run_sweep(const Stack& stack, SiteSource<T>& source, const SweepOptions& options,
                         Backend& backend, TransferLog& log, Reporter& reporter,
                         const std::function<void()>& check_interrupt, const Plan* plan,
                         const std::vector<Backend*>& more_devices) {
  return run_sweep(std::vector<SweepTerm<T>>{{&stack, &source, T(1), plan}}, options, backend, log, reporter,
                   check_interrupt, more_devices);
}

template <class T>
SweepResult<T> run_sweep(const StackData<T>& data, const SweepOptions& options, Backend& backend,
                         TransferLog& log, Reporter& reporter,
                         const std::function<void()>& check_interrupt, const Plan* plan, Ranks* ranks) {
  MemorySiteSource<T> source(data.sites);
  return run_sweep(std::vector<SweepTerm<T>>{{&data.stack, &source, T(1), plan}}, options, backend, log, reporter,
                   check_interrupt, {}, ranks);
}

#define SRCC_INSTANTIATE(T)                                                                 \
  template SweepResult<T> run_sweep(const std::vector<SweepTerm<T>>&, const SweepOptions&,  \
                                    Backend&, TransferLog&, Reporter&,                      \
                                    const std::function<void()>&, const std::vector<Backend*>&, Ranks*); \
  template SweepResult<T> run_sweep(const Stack&, SiteSource<T>&, const SweepOptions&,      \
                                    Backend&, TransferLog&, Reporter&,                      \
                                    const std::function<void()>&, const Plan*,               \
                                    const std::vector<Backend*>&);                           \
  template SweepResult<T> run_sweep(const StackData<T>&, const SweepOptions&, Backend&,     \
                                    TransferLog&, Reporter&, const std::function<void()>&, \
                                    const Plan*, Ranks*);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
