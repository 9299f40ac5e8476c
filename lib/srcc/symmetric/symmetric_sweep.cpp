// SRC on charged stacks: the sweep of sweep/sweep.cpp (Camaño, Epperly, Tropp, "Successive
// randomized compression", arXiv:2504.06475) with the tensors in their charge blocks; the header
// says how the sketch serves every sector at once.
#include "srcc/symmetric/symmetric_sweep.hpp"

#include <chrono>
#include <cmath>

#include "srcc/core/error.hpp"
#include "srcc/core/rng.hpp"
#include "srcc/sweep/sketch.hpp"
#include "srcc/sweep/truncation.hpp"
#include "srcc/symmetric/block_ops.hpp"
#include "srcc/symmetric/sector_svd.hpp"

namespace srcc {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Test columns kept out of every choice, whose residual estimates each cut's error, and the
// stream they are drawn from (the sketch itself draws from the seed as the dense sweep does).
constexpr std::size_t kHeldOut = 8;
constexpr std::uint64_t kHeldOutStream = 0x5eed0f;

template <class T> BlockTensor<T> relabelled(BlockTensor<T> t, std::vector<int> labels) {
  t.labels = std::move(labels);
  return t;
}

std::vector<Charge> group_charges(const std::vector<Charge>& charges, const ChargeRule& rule, bool negate) {
  std::vector<Charge> out;
  for (const auto& q : charges) out.push_back(negate ? negate_charge(rule, q) : q);
  return out;
}

template <class T> std::vector<Charge> charges_of(const SectorSvd<T>& svd) {
  std::vector<Charge> out;
  for (const auto& g : svd.groups) out.push_back(g.charge);
  return out;
}

// Ω_j as blocks (sketch, X(0), X(k)): the dense sweep's draws, site by site from one generator.
template <class T>
std::vector<BlockTensor<T>> test_tensors(Kernels<T>& K, const ChargedStack<T>& st, std::size_t s, std::uint64_t seed) {
  Rng rng(seed);
  const std::size_t n = st.length(), k = st.depth();
  std::vector<BlockTensor<T>> out;
  for (std::size_t j = 0; j + 1 < n; ++j) {
    const Leg& up = st.top_up(j);
    const Leg& down = st.bottom_down(j);
    Tensor<T> dense({s, up.sector_of.size(), down.sector_of.size()},
                    draw_gaussian<T>(rng, s * up.sector_of.size() * down.sector_of.size()));
    out.push_back(blocks_of_dense(K, dense, {single_sector_leg(s, Charge(st.rule.count(), 0)), up, down},
                                  {axis::kSketch, axis::X(0), axis::X(k)}));
  }
  return out;
}

// Z = (the stack's site j)·S: S (kOut, R(0) … R(k−1)) taken through the layers from the bottom;
// the result has kOut, every L(i), X(0) and X(k).
template <class T>
BlockTensor<T> right_block(Kernels<T>& K, const ChargedStack<T>& st, std::size_t j, const BlockTensor<T>& s, double& flops) {
  const std::size_t k = st.depth();
  BlockTensor<T> z = s;
  for (std::size_t i = k; i-- > 0;) {
    std::vector<int> over{axis::R(i)};
    if (i + 1 < k) over.push_back(axis::X(i + 1));
    z = contract(K, z, st.sites[i][j], over, &flops);
  }
  return z;
}

// C_{j+1} from C_j (kSketch, L(0) … L(k−1)) and Ω_j, ordered so that the environment-sized
// tensors are never permuted (only sites and Ω are). One train: the Khatri–Rao block C ⊙ Ω
// through its site. A stack: V = Ω·W_0 (small), E = C·W_{k−1} (the bottom site laid out
// (l, x, y, r) so that E comes out as (a, …, x, y, r)), the layers between absorbed into E, and
// per column C_{j+1}[a] = V[a]ᵀ E[a] over (L(0), X(1), X(k)) (sweep/left_step.cpp's order).
template <class T>
BlockTensor<T> left_step(Kernels<T>& K, const ChargedStack<T>& st, std::size_t j, const BlockTensor<T>& c,
                         const BlockTensor<T>& omega, double& flops) {
  using namespace axis;
  const std::size_t k = st.depth();
  if (k == 1) {
    const BlockTensor<T> t = khatri_rao(K, c, omega);  // (kSketch, X(0), L(0), X(1))
    return contract(K, t, st.sites[0][j], {X(0), L(0), X(1)}, &flops);
  }
  const BlockTensor<T> v = contract(K, omega, st.sites[0][j], {X(0)}, &flops);
  const BlockTensor<T> bottom = permute_to(K, st.sites[k - 1][j], {L(k - 1), X(k - 1), X(k), R(k - 1)});
  BlockTensor<T> e = contract(K, c, bottom, {L(k - 1)}, &flops);
  for (std::size_t i = k - 1; i-- > 1;) e = contract(K, e, st.sites[i][j], {L(i), X(i + 1)}, &flops);
  return contract_batched(K, v, e, {L(0), X(1), X(k)}, &flops);
}

// The environments C_0 … C_{n−1} of the test tensors `omega` (s columns), each (kSketch, L(0) …
// L(k−1)) at norm √s (one product's sketch does not depend on the scale).
template <class T>
std::vector<BlockTensor<T>> sweep_left(Kernels<T>& K, const ChargedStack<T>& st, const std::vector<BlockTensor<T>>& omega,
                                       SweepResult<T>& res, Reporter& reporter, const std::function<void()>& check_interrupt) {
  using namespace axis;
  const std::size_t n = st.length(), k = st.depth(), s = omega.front().legs[0].size();
  std::vector<BlockTensor<T>> env;
  std::vector<Leg> legs{single_sector_leg(s, Charge(st.rule.count(), 0))};
  std::vector<int> labels{kSketch}, order{kSketch}, next{kSketch};
  for (std::size_t i = 0; i < k; ++i) {
    legs.push_back(st.sites[i][0].legs[0]);
    labels.push_back(L(i));
    order.push_back(R(i));
    next.push_back(L(i));
  }
  BlockTensor<T> c0 = allocate_blocks(K, legs, labels, all_keys(legs));
  c0.data = K.adopt(std::vector<T>(c0.elements, T(1)));
  env.push_back(std::move(c0));
  for (std::size_t j = 0; j + 1 < n; ++j) {
    const auto t0 = Clock::now();
    BlockTensor<T> c = relabelled(permute_to(K, left_step(K, st, j, env.back(), omega[j], res.flops), order), next);
    const double norm = norm_of(K, c);
    if (!(norm > 0) || !std::isfinite(norm))
      throw NumericalError("the sketch of the product vanished or overflowed at cut " + std::to_string(j + 1));
    scale_by(K, c, std::sqrt(static_cast<double>(s)) / norm);
    env.push_back(std::move(c));
    res.sites[j].seconds += since(t0);
    reporter.progress("left sweep", j + 1, n - 1);
    check_interrupt();
  }
  return env;
}

// The relative norm of the part of the held-out sketch y_h (kSketch, L…)·z outside the rows of eta:
// an unbiased estimate of the cut's relative error (the held-out columns chose nothing).
template <class T>
double held_out_error(Kernels<T>& K, const BlockTensor<T>& env_h, const BlockTensor<T>& z, const BlockTensor<T>& eta,
                      const std::vector<int>& ls, double& flops) {
  using namespace axis;
  const std::vector<int> rows{kOut, X(0), X(static_cast<std::size_t>(ls.size()))};
  std::vector<int> order{kSketch};
  order.insert(order.end(), rows.begin(), rows.end());
  BlockTensor<T> y = permute_to(K, contract(K, env_h, z, ls, &flops), order);
  const double total = norm_of(K, y);
  if (!(total > 0)) return 0.0;
  const BlockTensor<T> coef = contract(K, conj_of(K, eta), y, rows, &flops);
  const BlockTensor<T> back = permute_to(K, contract(K, coef, eta, {kNew}, &flops), order);
  BlockTensor<T> rest = y;
  rest.data = K.allocate(std::max<std::size_t>(y.elements, 1));
  K.copy(y.elements, y.data.data(), rest.data.data());
  for (const auto& b : back.blocks) {
    const auto* at = rest.find(b.key);
    if (at) K.add(b.size, real_t<T>(-1), back.at(b), rest.at(*at));
  }
  return norm_of(K, rest) / total;
}

}  // namespace

template <class T>
std::vector<BlockTensor<T>> symmetric_truncate(Kernels<T>& K, std::vector<BlockTensor<T>> cores, std::size_t chi,
                                               double cutoff, double tol, bool numerical_zeros, std::vector<double>& truncated,
                                               const ChargeRule& rule, bool from_b_form) {
  using namespace axis;
  const std::size_t n = cores.size();
  truncated.assign(n, 0.0);
  const std::vector<int> core{kCoreL, kCoreR, kCoreU, kCoreD};
  // Right to left by QRs, keeping everything: cores 1 … n−1 right-orthonormal, the norm in core 0.
  auto to_b_form = [&] {
    for (std::size_t j = n; j-- > 1;) {
      SectorSvd<T> svd = sector_svd(K, cores[j], {kCoreR, kCoreU, kCoreD}, {-1, +1, -1}, rule, Factorization::kQr);
      double total = 0;
      choose_ranks(svd, 0, 0.0, 0.0, total);
      const auto charges = group_charges(charges_of(svd), rule, true);
      BlockTensor<T> u = left_factor(K, svd, kCoreL, charges);
      BlockTensor<T> sv = relabelled(right_factor(K, svd, kNew, charges), {kNew, kCoreR});
      cores[j] = std::move(u);
      cores[j - 1] = relabelled(permute_to(K, contract(K, cores[j - 1], sv, {kCoreR}), {kCoreL, kNew, kCoreU, kCoreD}), core);
    }
  };
  if (!from_b_form) to_b_form();
  const double cut = effective_cutoff<real_t<T>>(cutoff, numerical_zeros);
  for (std::size_t j = 0; j + 1 < n; ++j) {
    SectorSvd<T> svd = sector_svd(K, cores[j], {kCoreL, kCoreU, kCoreD}, {+1, +1, -1}, rule);
    double total = 0;
    const double dropped = choose_ranks(svd, chi, cut, tol, total);
    truncated[j + 1] = total > 0 ? dropped / total : 0.0;
    const auto charges = charges_of(svd);
    cores[j] = relabelled(permute_to(K, left_factor(K, svd, kNew, charges), {kCoreL, kNew, kCoreU, kCoreD}), core);
    BlockTensor<T> sv = relabelled(right_factor(K, svd, kNew, charges), {kNew, kCoreL});
    cores[j + 1] = relabelled(contract(K, sv, cores[j + 1], {kCoreL}), core);
  }
  to_b_form();
  return cores;
}

template <class T>
ChargedResult<T> symmetric_sweep(const ChargedStack<T>& st, TrainKind kind, const SweepOptions& o, Kernels<T>& K,
                                 Reporter& reporter, const std::function<void()>& check_interrupt) {
  using namespace axis;
  if (o.method != Method::kSrc || o.tolerance_mode() || o.fit_sweep_cap() > 0)
    throw UsageError("the symmetric sweep takes src with --chi (and --oversample, --cutoff)");
  const std::size_t n = st.length(), k = st.depth(), s = o.sketch_columns();
  const std::size_t keep_cap = o.final_truncation() ? s : o.chi;
  ChargedResult<T> out;
  SweepResult<T>& res = out.sweep;
  res.kind = kind;
  res.sites.assign(n, SiteStats{});
  const double cut = effective_cutoff<real_t<T>>(o.cutoff, o.numerical_zeros);

  // Left: the environments of the sketch and of the held-out columns.
  const std::vector<BlockTensor<T>> omega = test_tensors(K, st, s, o.seed);
  const std::vector<BlockTensor<T>> omega_h = test_tensors(K, st, kHeldOut, Rng::derive_seed(o.seed, kHeldOutStream));
  std::vector<BlockTensor<T>> env = sweep_left(K, st, omega, res, reporter, check_interrupt);
  SilentReporter quiet;  // the held-out columns' sweep is part of the one above
  std::vector<BlockTensor<T>> env_h = sweep_left(K, st, omega_h, res, quiet, check_interrupt);

  // Right: S_{j} (kOut, R(0) … R(k−1)), the output core of each cut from its sketch's sectors.
  BlockTensor<T> s_env;
  {
    Charge right(st.rule.count(), 0);
    std::vector<Leg> legs{Leg{}};
    std::vector<int> labels{kOut};
    for (std::size_t i = 0; i < k; ++i) {
      const Leg& r = st.sites[i][n - 1].legs[1];
      right = add_charge(st.rule, right, r.charges.at(0));
      legs.push_back(r);
      labels.push_back(R(i));
    }
    legs[0] = single_sector_leg(1, right);
    s_env = allocate_blocks(K, legs, labels, all_keys(legs));
    s_env.data = K.adopt(std::vector<T>(s_env.elements, T(1)));
  }
  std::vector<BlockTensor<T>> cores(n);
  const std::vector<int> core{kCoreL, kCoreR, kCoreU, kCoreD};
  for (std::size_t j = n; j-- > 1;) {
    const auto t0 = Clock::now();
    BlockTensor<T> z = right_block(K, st, j, s_env, res.flops);
    std::vector<int> ls;
    for (std::size_t i = 0; i < k; ++i) ls.push_back(L(i));
    const BlockTensor<T> y = contract(K, env[j], z, ls, &res.flops);
    env[j] = BlockTensor<T>();
    SectorSvd<T> svd = sector_svd(K, y, {kOut, X(0), X(k)}, {-1, +1, -1}, st.rule, Factorization::kSvdLeft);
    double total = 0;
    choose_ranks(svd, keep_cap, cut, 0.0, total);
    res.sites[j].sketch_columns = static_cast<std::int64_t>(s);
    BlockTensor<T> eta = left_factor(K, svd, kNew, group_charges(charges_of(svd), st.rule, true));
    // Dropped sketch weight alone underestimates (the kept directions were fitted to those very
    // columns); the held-out columns do not.
    res.sites[j].error_estimate = held_out_error(K, env_h[j], z, eta, ls, res.flops);
    env_h[j] = BlockTensor<T>();
    std::vector<int> next{kOut};
    for (std::size_t i = 0; i < k; ++i) next.push_back(R(i));
    std::vector<int> order{kNew};
    order.insert(order.end(), ls.begin(), ls.end());
    s_env = relabelled(permute_to(K, contract(K, conj_of(K, eta), z, {kOut, X(0), X(k)}, &res.flops), order), next);
    cores[j] = relabelled(eta, core);
    res.sites[j].seconds += since(t0);
    reporter.progress("right sweep", n - j, n);
    check_interrupt();
  }
  {
    // Site 0: W_0·S with its unit left bonds made one.
    BlockTensor<T> z = right_block(K, st, 0, s_env, res.flops);
    std::vector<int> order;
    for (std::size_t i = 0; i < k; ++i) order.push_back(L(i));
    order.insert(order.end(), {kOut, X(0), X(k)});
    z = permute_to(K, z, order);
    Charge left(st.rule.count(), 0);
    for (std::size_t i = 0; i < k; ++i) left = add_charge(st.rule, left, z.legs[i].charges.at(0));
    BlockTensor<T> c;
    c.legs = {single_sector_leg(1, left), z.legs[k], z.legs[k + 1], z.legs[k + 2]};
    c.labels = core;
    for (const auto& b : z.blocks) {
      auto nb = b;
      nb.key = BlockKey{0, b.key[k], b.key[k + 1], b.key[k + 2]};
      c.blocks.push_back(std::move(nb));
    }
    c.elements = z.elements;
    c.data = z.data;
    cores[0] = std::move(c);
    reporter.progress("right sweep", n, n);
  }
  if (o.final_truncation()) {
    std::vector<double> truncated;
    cores = symmetric_truncate(K, std::move(cores), o.chi, o.cutoff, 0.0, o.numerical_zeros, truncated, st.rule, true);
    for (std::size_t j = 1; j < n; ++j) {
      res.sites[j].truncation_error = truncated[j];
      const double e = res.sites[j].error_estimate;
      res.sites[j].error_estimate = std::sqrt(e * e + truncated[j] * truncated[j]);
    }
  }
  for (auto& c : cores) res.cores.push_back(dense_of_blocks(K, c));
  res.finish_sites();
  out.cores = std::move(cores);
  return out;
}

#define SRCC_INSTANTIATE(T)                                                                                       \
  template ChargedResult<T> symmetric_sweep(const ChargedStack<T>&, TrainKind, const SweepOptions&, Kernels<T>&, \
                                            Reporter&, const std::function<void()>&);                            \
  template std::vector<BlockTensor<T>> symmetric_truncate(Kernels<T>&, std::vector<BlockTensor<T>>, std::size_t,   \
                                                          double, double, bool, std::vector<double>&, const ChargeRule&,  \
                                                          bool);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
