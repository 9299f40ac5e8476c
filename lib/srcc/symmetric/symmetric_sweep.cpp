// SRC on charged stacks: the sweep of sweep/sweep.cpp (Camaño, Epperly, Tropp, "Successive
// randomized compression", arXiv:2504.06475) with the tensors in their charge blocks; the header
// says how the sketch serves every sector at once.
#include "srcc/symmetric/symmetric_sweep.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>

#include "srcc/core/error.hpp"
#include "srcc/core/interrupt.hpp"
#include "srcc/core/options.hpp"
#include "srcc/core/rng.hpp"
#include "srcc/sweep/fit_ledger.hpp"
#include "srcc/sweep/sketch.hpp"
#include "srcc/sweep/truncation.hpp"
#include "srcc/symmetric/block_exchange.hpp"
#include "srcc/symmetric/block_ops.hpp"
#include "srcc/symmetric/charged_truncation.hpp"
#include "srcc/symmetric/env_parking.hpp"
#include "srcc/symmetric/reduction_sweep.hpp"
#include "srcc/symmetric/sector_svd.hpp"

namespace srcc {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Test columns kept out of every choice, whose residual estimates each cut's error, and the
// stream they are drawn from (the sketch itself draws from the seed as the dense sweep does).
constexpr std::size_t kHeldOut = 8;
constexpr std::uint64_t kHeldOutStream = 0x5eed0f;

// The fused left bond's sectors of an environment (kSketch, L(0) … L(k−1)): charge → dimension.
template <class T> std::map<Charge, std::size_t, ChargeOrder> fused_sector_dims(const BlockTensor<T>& c, const ChargeRule& rule) {
  std::map<Charge, std::size_t, ChargeOrder> out;
  for (const auto& b : c.blocks) {
    Charge q(rule.count(), 0);
    std::size_t dim = 1;
    for (std::size_t i = 1; i < c.rank(); ++i) {
      q = add_charge(rule, q, c.legs[i].charges[b.key[i]]);
      dim *= c.legs[i].dims[b.key[i]];
    }
    out[q] += dim;
  }
  return out;
}
std::size_t left_sector_dim(const std::map<Charge, std::size_t, ChargeOrder>& dims, const Charge& q) {
  const auto it = dims.find(q);
  return it == dims.end() ? 0 : it->second;
}

// Each environment's fused_sector_dims as numbers, to send: per cut its sector count, then each
// sector's charge and dimension.
template <class T>
std::vector<long long> packed_sector_dims(const std::vector<BlockTensor<T>>& envs, const ChargeRule& rule) {
  std::vector<long long> out{static_cast<long long>(envs.size())};
  for (const auto& c : envs) {
    const auto dims = fused_sector_dims(c, rule);
    out.push_back(static_cast<long long>(dims.size()));
    for (const auto& [q, d] : dims) {
      out.insert(out.end(), q.begin(), q.end());
      out.push_back(static_cast<long long>(d));
    }
  }
  return out;
}
std::vector<std::map<Charge, std::size_t, ChargeOrder>> unpacked_sector_dims(const std::vector<long long>& v,
                                                                              const ChargeRule& rule) {
  std::size_t at = 0;
  std::vector<std::map<Charge, std::size_t, ChargeOrder>> out(static_cast<std::size_t>(v.at(at++)));
  for (auto& dims : out) {
    const auto sectors = static_cast<std::size_t>(v.at(at++));
    for (std::size_t i = 0; i < sectors; ++i) {
      Charge q(v.begin() + static_cast<std::ptrdiff_t>(at), v.begin() + static_cast<std::ptrdiff_t>(at + rule.count()));
      at += rule.count();
      dims[q] = static_cast<std::size_t>(v.at(at++));
    }
  }
  return out;
}

// Every term's values in term order from this rank's own terms' (all of them, alone).
template <class V>
std::vector<std::vector<V>> every_term(RankExchange* ranks, const std::vector<std::vector<V>>& own, const std::string& what) {
  return ranks ? ranks->all_terms(own, what, -1) : own;
}

// A stack this rank holds (over ranks each holds its own terms'): its sites' physical legs and
// length are every term's.
template <class T> const ChargedStack<T>& own_stack(const std::vector<ChargedTerm<T>>& terms) {
  for (const auto& t : terms)
    if (t.stack) return *t.stack;
  throw std::logic_error("a rank sweeps a charged sum without a term of its own");
}

// Ω_j as blocks (sketch, X(0), X(k)): the dense sweep's draws, site by site from one generator;
// of the s columns drawn, those of `share` (all by default: over ranks, a rank's own).
template <class T>
std::vector<BlockTensor<T>> test_tensors(Kernels<T>& K, const ChargedStack<T>& st, std::size_t s, std::uint64_t seed,
                                         ContiguousShare share = {0, SIZE_MAX}) {
  Rng rng(seed);
  const std::size_t n = st.length(), k = st.depth(), count = std::min(share.count, s - share.first);
  std::vector<BlockTensor<T>> out;
  for (std::size_t j = 0; j + 1 < n; ++j) {
    const Leg& up = st.top_up(j);
    const Leg& down = st.bottom_down(j);
    const std::size_t per = up.sector_of.size() * down.sector_of.size();
    std::vector<T> drawn = draw_gaussian<T>(rng, s * per);
    if (count < s)
      drawn = std::vector<T>(drawn.begin() + static_cast<std::ptrdiff_t>(share.first * per),
                             drawn.begin() + static_cast<std::ptrdiff_t>((share.first + count) * per));
    Tensor<T> dense({count, up.sector_of.size(), down.sector_of.size()}, std::move(drawn));
    out.push_back(blocks_of_dense(K, dense, {single_sector_leg(count, Charge(st.rule.count(), 0)), up, down},
                                  {axis::kSketch, axis::X(0), axis::X(k)}));
  }
  return out;
}

// Z = (the stack's site j)·S: S (kOut, R(0) … R(k−1)) taken through the layers from the bottom,
// laid out (L(0) … L(k−1), X(0), X(k), kOut): both of its products at the cut (the sketch, over
// the L's, and the new S, over the rest) then read it as it lies, and Z is the largest tensor of
// the right step (one train: made so directly, the site permuted instead).
template <class T>
BlockTensor<T> right_block(Kernels<T>& K, const ChargedStack<T>& st, std::size_t j, const BlockTensor<T>& s, double& flops) {
  using namespace axis;
  const std::size_t k = st.depth();
  if (k == 1) return contract(K, st.sites[0][j], s, {R(0)}, &flops);
  // The bottom site laid out (r, x, l, y) so that Z comes out as (kOut, R(0) … R(k−2), X(k−1),
  // L(k−1), X(k)); each layer above then takes the place of its run (R(i), X(i+1)) with
  // (X(i), L(i)), never permuting Z (contract_in_place).
  const BlockTensor<T> bottom = permute_to(K, st.sites[k - 1][j], {R(k - 1), X(k - 1), L(k - 1), X(k)});
  BlockTensor<T> z = contract(K, s, bottom, {R(k - 1)}, &flops);
  for (std::size_t i = k - 1; i-- > 0;) z = contract_in_place(K, z, st.sites[i][j], {R(i), X(i + 1)}, {X(i), L(i)}, &flops);
  std::vector<int> order;
  for (std::size_t i = 0; i < k; ++i) order.push_back(L(i));
  order.insert(order.end(), {X(0), X(k), kOut});
  return permute_to(K, z, order);
}

// C_{j+1} from C_j (kSketch, L(0) … L(k−1)) and Ω_j, ordered so that the environment-sized
// tensors are never permuted (only sites and Ω are). One train: the Khatri–Rao block C ⊙ Ω
// through its site. A stack: V = Ω·W_0 (small), E = C·W_{k−1} (the bottom site laid out
// (l, x, y, r) so that E comes out as (a, …, x, y, r)), the layers between absorbed into E in
// place (as the dense left step does: an MPO's blocks are a few indices wide, so a permutation
// of E per layer cost more than the layer's products), and per column C_{j+1}[a] = V[a]ᵀ E[a]
// over (L(0), X(1), X(k)) (sweep/left_step.cpp's order).
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
  // E is (kSketch, L(0) … L(i), X(i+1), X(k), R(k−1), …): layer i takes the place of its run
  // (L(i), X(i+1)) with (X(i), R(i)), so that the next layer's run is again adjacent.
  for (std::size_t i = k - 1; i-- > 1;) e = contract_in_place(K, e, st.sites[i][j], {L(i), X(i + 1)}, {X(i), R(i)}, &flops);
  return contract_batched(K, v, e, {L(0), X(1), X(k)}, &flops);
}

// The environments C_0 … C_{n−1} (C_0 … C_last with `last`) of the test tensors `omega` (s
// columns), each (kSketch, L(0) … L(k−1)) kept at norm √s (reduction_sweep.hpp's scale convention).
// Over ranks (`split`, columns split) `omega` holds this rank's share of the `columns` and the
// scale is the whole environment's. With `parking`, each C_j goes where it says once C_{j+1} is made.
template <class T>
ChargedEnvironments<T> sweep_left(Kernels<T>& K, const ChargedStack<T>& st, const std::vector<BlockTensor<T>>& omega,
                                  SweepResult<T>& res, Reporter& reporter, const std::function<void()>& check_interrupt,
                                  RankExchange* split, std::size_t columns, EnvParking<T>* parking = nullptr,
                                  std::size_t last = SIZE_MAX) {
  using namespace axis;
  const std::size_t n = st.length(), k = st.depth(), s = omega.front().legs[0].size();
  ChargedEnvironments<T> out;
  std::vector<int> order{kSketch}, next{kSketch};
  for (std::size_t i = 0; i < k; ++i) {
    order.push_back(R(i));
    next.push_back(L(i));
  }
  out.env.push_back(first_environment(K, st, s));
  out.log_scale.assign(1, 0.0);
  for (std::size_t j = 0; j + 1 < n && j < last; ++j) {
    const auto t0 = Clock::now();
    BlockTensor<T> c = relabelled(permute_to(K, left_step(K, st, j, out.env.back(), omega[j], res.flops), order), next);
    double norm = norm_of(K, c);
    if (split) {
      double norm2 = 0;
      for (double part : split->joined(std::vector<double>{norm}, "sketch norm", static_cast<std::int64_t>(j))) norm2 += part * part;
      norm = std::sqrt(norm2);
    }
    if (!(norm > 0) || !std::isfinite(norm))
      throw NumericalError("the sketch of the product vanished or overflowed at cut " + std::to_string(j + 1));
    const double factor = std::sqrt(static_cast<double>(split ? columns : s)) / norm;
    scale_by(K, c, factor);
    out.log_scale.push_back(out.log_scale.back() + std::log(factor));
    out.env.push_back(std::move(c));
    if (parking && j > 0) parking->park(out.env[j], j);
    res.sites[j].seconds += since(t0);
    reporter.progress("left sweep", j + 1, n - 1);
    check_interrupt();
  }
  return out;
}

// The relative norm of the part of the held-out sketch y (X(0), kDown, kOut, kSketch) outside the
// rows of eta: an unbiased estimate of the cut's relative error (those columns chose nothing).
template <class T> double held_out_error(Kernels<T>& K, const BlockTensor<T>& y, const BlockTensor<T>& eta, double& flops) {
  using namespace axis;
  const double total = norm_of(K, y);
  if (!(total > 0)) return 0.0;
  const BlockTensor<T> coef = contract(K, conj_of(K, eta), y, {X(0), kDown, kOut}, &flops);
  const BlockTensor<T> back = permute_to(K, contract(K, coef, eta, {kNew}, &flops), y.labels);
  return norm_of(K, add_blocks<T>(K, {{&y, 1.0}, {&back, -1.0}})) / total;
}

// One term's sketch at cut j, (X(0), kDown, kOut, kSketch), at the sum's common scale: its rows
// (the cut's left side) first, so that each block is a piece of the sector matrices' adjoints,
// which the sector factorisations take their QR of (sector_svd gathers them as they lie).
template <class T>
BlockTensor<T> term_sketch(Kernels<T>& K, const BlockTensor<T>& env, const BlockTensor<T>& z, std::size_t depth, double scale,
                           double& flops) {
  using namespace axis;
  std::vector<int> ls;
  for (std::size_t i = 0; i < depth; ++i) ls.push_back(L(i));
  BlockTensor<T> y = relabelled(contract(K, z, env, ls, &flops), {X(0), kDown, kOut, kSketch});
  if (scale != 1) scale_by(K, y, scale);
  return y;
}


// How many directions each cut keeps at most: one figure for every cut (0: all), or one per cut.
struct CutCaps {
  CutCaps(std::size_t all) : all(all) {}  // NOLINT: a figure for every cut reads as one
  explicit CutCaps(std::vector<std::size_t> per_cut) : per_cut(std::move(per_cut)) {}
  std::size_t at(std::size_t j) const { return per_cut.empty() ? all : per_cut.at(j); }
  std::size_t all = 0;
  std::vector<std::size_t> per_cut;
};

// Tolerance mode, each cut's sketch grown on its own: where a cut's held-out estimate is above
// `target`, another block of test columns is drawn (the dense sweep's blocks and seeds,
// sweep/sketch_blocks.cpp), its environments are swept up to that cut, and the cut is sketched
// again; the columns, once drawn, serve every cut further left, as in the dense sweep. A cut
// keeps at most as many directions as it has columns, over all sectors, so it stops growing
// where that is every direction its sectors can have (the sketch is then exact).
struct SketchGrowth {
  double target = 0;       // kSketchTolFraction·tol
  std::size_t cap = 0;     // the most columns (--chi, or the exact bond)
  bool chi_cap = false;    // whether the cap is --chi's (a cut left above target then is counted)
  std::size_t step = 1;    // columns per block after the first (--block-step)
  std::uint64_t seed = 0;  // the run's seed (block b from sketch_block_seed(seed, b))
  std::size_t blocks = 1;  // drawn so far (block 0: the first left sweep's)
  std::size_t capped = 0;  // cuts stopped at a --chi cap above target
};

// A block of `w` more test columns drawn from `seed` (over ranks with the columns split, this
// rank's share) and swept from the left end up to cut j, brought to the scales of `env`, whose
// columns its own join at each cut.
template <class T>
ChargedEnvironments<T> grown_block(Kernels<T>& K, const ChargedStack<T>& st, const ChargedEnvironments<T>& env, std::size_t w,
                                   std::uint64_t seed, std::size_t j, RankExchange* split, SweepResult<T>& res,
                                   const std::function<void()>& check_interrupt) {
  SilentReporter quiet;
  const ContiguousShare share = split ? split->share(w) : ContiguousShare{0, w};
  ChargedEnvironments<T> e = sweep_left(K, st, test_tensors(K, st, w, seed, share), res, quiet, check_interrupt, split, w,
                                        static_cast<EnvParking<T>*>(nullptr), j);
  for (std::size_t i = 0; i <= j; ++i) scale_by(K, e.env[i], std::exp(env.log_scale[i] - e.log_scale[i]));
  return e;
}

// The right sweep of the sum over its terms' environments `envs` (one per term, from a sketch or
// a reduction), each cut keeping at most `keep_cap` directions and none below
// cutoff·σ_max: the cores (B form, the norm in core 0) and, in `res`, each cut's figures and the
// flops. With `held` (a sketch's held-out columns' environments, one per term) each cut's error
// is estimated; without, its estimate is NaN (the deterministic methods give none).
template <class T>
std::vector<BlockTensor<T>> right_sweep(const std::vector<ChargedTerm<T>>& terms, std::vector<ChargedEnvironments<T>> envs,
                                        std::vector<ChargedEnvironments<T>> held, const CutCaps& keep_cap, double cutoff,
                                        Kernels<T>& K, SweepResult<T>& res, Reporter& reporter,
                                        const std::function<void()>& check_interrupt, RankExchange* ranks,
                                        RankExchange* split = nullptr, std::size_t split_columns = 0,
                                        SketchGrowth* grow = nullptr) {
  using namespace axis;
  const ChargedStack<T>& first = own_stack(terms);
  const std::size_t n = first.length(), nt = terms.size();
  const ChargeRule& rule = first.rule;
  const bool estimate = !held.empty();
  // No direction is dropped as rounding by its sketched value: the Khatri–Rao test vectors
  // restricted to a sector of near-product configurations (a long block of spins all down, say)
  // have norms far below their mean square, so real directions of the product come out of the
  // sketch many orders of magnitude below their weight, also within one sector (an XXZ ground
  // state's H·ψ lost 3e-10 that way, where the dense sweep keeps the exact product to 1e-14).
  // A cut keeps up to χ̄ by the sketch's values, as the dense sweep keeps its sketch's range, and
  // each sector at most the rank its structure allows: the dimension of the left bonds' sector
  // it meets (a bound, not a value: near the ends it keeps the bonds at their true size). The
  // numerical rank comes from the truncation sweep's exact Schmidt values (--oversample, --tol,
  // truncate). --cutoff stays relative to the largest value of all.

  // Each term: its environments (and the held-out columns'), with their scales, and its S, which
  // starts as its weight.
  // Over ranks (terms dealt) a rank holds its own terms' stacks and environments; what the cuts
  // need of every term (total charges, left sectors, scales, each cut's sketch) is gathered.
  struct Term {
    const ChargedStack<T>* st = nullptr;  // null: another rank's term
    EnvParking<T>* parking = nullptr;
    ChargedEnvironments<T> env, held;
    std::vector<ChargedEnvironments<T>> grown;  // blocks drawn at cuts (`grow`), at env's scales
    BlockTensor<T> s_env;
  };
  std::vector<Term> t(nt);
  std::vector<std::vector<long long>> own_totals, own_dims;
  std::vector<std::vector<double>> own_scales, own_held_scales;
  for (std::size_t k = 0; k < nt; ++k) {
    if (!terms[k].stack) continue;
    const ChargedStack<T>& st = *terms[k].stack;
    const std::size_t depth = st.depth();
    t[k].st = &st;
    t[k].parking = terms[k].parking;
    t[k].env = std::move(envs[k]);
    if (estimate) t[k].held = std::move(held[k]);
    own_dims.push_back(packed_sector_dims(t[k].env.env, rule));
    own_scales.push_back(t[k].env.log_scale);
    if (estimate) own_held_scales.push_back(t[k].held.log_scale);
    Charge right(rule.count(), 0);
    std::vector<Leg> legs{Leg{}};
    std::vector<int> labels{kOut};
    for (std::size_t i = 0; i < depth; ++i) {
      const Leg& r = st.sites[i][n - 1].legs[1];
      right = add_charge(rule, right, r.charges.at(0));
      legs.push_back(r);
      labels.push_back(R(i));
    }
    own_totals.push_back(right);
    legs[0] = single_sector_leg(1, right);
    t[k].s_env = allocate_blocks(K, legs, labels, all_keys(legs));
    t[k].s_env.data = K.adopt(std::vector<T>(t[k].s_env.elements, terms[k].weight));
  }
  const auto totals = every_term(ranks, own_totals, "total charges");
  // A sum conserves the charges only where its terms have one total charge.
  for (std::size_t k = 1; k < nt; ++k)
    if (totals[k] != totals[0])
      throw InputError("the terms of the sum have different total charges (term 1 and term " + std::to_string(k + 1) +
                       "): their sum conserves none; run it with " + opt::kSymmetry.name() + " off");
  // Per term and cut: its left bonds' sector dims; per term: its environments' scales.
  std::vector<std::vector<std::map<Charge, std::size_t, ChargeOrder>>> env_dims;
  for (const auto& packed : every_term(ranks, own_dims, "left sectors")) env_dims.push_back(unpacked_sector_dims(packed, rule));
  const auto scales = every_term(ranks, own_scales, "sketch scales");
  const auto held_scales = estimate ? every_term(ranks, own_held_scales, "sketch scales") : scales;

  // The physical configurations left of each cut by charge (the top's up and the bottom's down
  // legs of the sites before it): no cut's sector has more independent directions.
  std::vector<std::map<Charge, std::size_t, ChargeOrder>> configurations(1);
  configurations[0][Charge(rule.count(), 0)] = 1;
  for (std::size_t j = 0; j + 1 < n; ++j) {
    std::map<Charge, std::size_t, ChargeOrder> next;
    const Leg& up = first.top_up(j);
    const Leg& down = first.bottom_down(j);
    for (const auto& [q, count] : configurations[j])
      for (std::size_t a = 0; a < up.sectors(); ++a)
        for (std::size_t b = 0; b < down.sectors(); ++b) {
          std::size_t& c = next[add_charge(rule, add_charge(rule, q, up.charges[a]), down.charges[b], -1)];
          c = std::min<std::size_t>(c + count * up.dims[a] * down.dims[b], std::size_t{1} << 40);
        }
    configurations.push_back(std::move(next));
  }

  // Right: the sum's sketch at each cut (each term's at a common scale), its sectors' SVDs, the
  // output core, and each term's S projected on it.
  std::vector<BlockTensor<T>> cores(n);
  const std::vector<int> core{kCoreL, kCoreR, kCoreU, kCoreD};
  auto common = [&](const std::vector<std::vector<double>>& log_scales, std::size_t j) {
    double most = -std::numeric_limits<double>::infinity();
    for (const auto& l : log_scales) most = std::max(most, -l[j]);
    std::vector<double> f;
    for (const auto& l : log_scales) f.push_back(std::exp(-l[j] - most));
    return f;
  };
  // The sum of every term's part in term order (gathered from the ranks that hold them).
  auto summed = [&](const std::vector<BlockTensor<T>>& own, const std::string& what, std::size_t j) {
    const auto all = every_term_blocks(K, ranks, terms, own, what, static_cast<std::int64_t>(j));
    if (nt == 1) return all[0];
    std::vector<std::pair<const BlockTensor<T>*, double>> parts;
    for (const auto& a : all) parts.emplace_back(&a, 1.0);
    return add_blocks(K, parts);
  };
  for (std::size_t j = n; j-- > 1;) {
    const auto t0 = Clock::now();
    std::vector<BlockTensor<T>> z(nt), y(nt), yh(nt);
    const auto f = common(scales, j), fh = common(held_scales, j);
    for (std::size_t k = 0; k < nt; ++k) {
      if (!t[k].st) continue;
      const std::size_t depth = t[k].st->depth();
      z[k] = right_block(K, *t[k].st, j, t[k].s_env, res.flops);
      if (t[k].parking) t[k].parking->fetch(t[k].env.env[j], j);
      if (!estimate) continue;
      yh[k] = term_sketch(K, t[k].held.env[j], z[k], depth, fh[k], res.flops);
      t[k].held.env[j] = BlockTensor<T>();
    }
    SectorSvd<T> svd;
    BlockTensor<T> eta, held_sketch;
    double error = std::numeric_limits<double>::quiet_NaN();
    while (true) {
      for (std::size_t k = 0; k < nt; ++k) {
        if (!t[k].st) continue;
        BlockTensor<T>& c = t[k].env.env[j];
        std::vector<const BlockTensor<T>*> parts{&c};  // and the blocks drawn since, as more columns
        for (const auto& g : t[k].grown)
          if (!g.env[j].legs.empty()) parts.push_back(&g.env[j]);
        if (parts.size() > 1) {
          c = stack_first(K, parts);
          for (auto& g : t[k].grown) g.env[j] = BlockTensor<T>();
        }
        y[k] = term_sketch(K, c, z[k], t[k].st->depth(), f[k], res.flops);
      }
      // Over ranks each takes a share of the sectors' SVDs, and all then hold all of them; a
      // product's columns split, each rank holds its rows of the sketch (split_sector_svd).
      const BlockTensor<T> sketch = split ? y[0] : summed(y, "sketch", j);
      const std::vector<int> rows{X(0), kDown, kOut}, signs{+1, -1, -1};
      if (split) {
        svd = split_sector_svd(K, *split, sketch, rows, signs, rule, static_cast<std::int64_t>(j));
      } else {
        svd = sector_svd(K, sketch, rows, signs, rule, Factorization::kSvdLeft,
                         ranks && ranks->spread() ? dealt_sectors<T>(*ranks) : nullptr);
        if (ranks && ranks->spread()) share_sector_factors(K, *ranks, svd, static_cast<std::int64_t>(j));
      }
      double total = 0;
      std::vector<std::size_t> caps;
      for (const auto& g : svd.groups) {
        const Charge left = negate_charge(rule, g.charge);
        std::size_t bound = 0;
        for (const auto& dims : env_dims) bound += left_sector_dim(dims[j], left);
        caps.push_back(std::min(bound, left_sector_dim(configurations[j], left)));
      }
      const std::size_t columns = split ? split_columns : sketch.legs[sketch.axis(kSketch)].size();
      choose_ranks(svd, grow ? columns : keep_cap.at(j), cutoff, 0.0, total, caps);
      res.sites[j].sketch_columns = static_cast<std::int64_t>(columns);
      eta = left_factor(K, svd, kNew, group_charges(svd, rule, true));
      // Dropped sketch weight alone underestimates (the kept directions were fitted to those very
      // columns); the held-out columns do not.
      if (estimate) {
        if (held_sketch.legs.empty()) held_sketch = summed(yh, "held-out sketch", j);
        error = held_out_error(K, held_sketch, eta, res.flops);
      }
      if (!grow || !(error > grow->target)) break;
      std::size_t exact = 0;  // every direction the sectors can have: the sketch keeps them all
      for (std::size_t c : caps) exact += c;
      if (columns >= exact) break;
      // Over ranks with the columns split, every rank takes some of each block's columns.
      const std::size_t least = split ? static_cast<std::size_t>(split->size()) : 1;
      if (columns + least > grow->cap) {
        if (grow->chi_cap) ++grow->capped;
        break;
      }
      const std::size_t w = std::min(std::max(grow->step, least), grow->cap - columns);
      for (auto& term : t)
        if (term.st)
          term.grown.push_back(grown_block(K, *term.st, term.env, w, sketch_block_seed(grow->seed, grow->blocks), j, split,
                                           res, check_interrupt));
      ++grow->blocks;
      split_columns += w;
    }
    for (auto& term : t)
      if (term.st) term.env.env[j] = BlockTensor<T>();
    res.sites[j].error_estimate = error;
    const BlockTensor<T> bra = conj_of(K, eta);
    for (std::size_t k = 0; k < nt; ++k) {
      if (!t[k].st) continue;
      const std::size_t depth = t[k].st->depth();
      std::vector<int> order{kNew}, next{kOut};
      for (std::size_t i = 0; i < depth; ++i) {
        order.push_back(L(i));
        next.push_back(R(i));
      }
      const BlockTensor<T> b = relabelled(bra, {kNew, X(0), X(depth), kOut});
      t[k].s_env = relabelled(permute_to(K, contract(K, b, z[k], {X(0), X(depth), kOut}, &res.flops), order), next);
    }
    cores[j] = relabelled(permute_to(K, eta, {kNew, kOut, X(0), kDown}), core);
    res.sites[j].seconds += since(t0);
    reporter.progress("right sweep", n - j, n);
    check_interrupt();
  }
  {
    // Site 0: Σ W_0·S over the terms, each with its unit left bonds made one.
    std::vector<BlockTensor<T>> z0(nt);
    for (std::size_t k = 0; k < nt; ++k) {
      const Term& term = t[k];
      if (!term.st) continue;
      const std::size_t depth = term.st->depth();
      BlockTensor<T> z = right_block(K, *term.st, 0, term.s_env, res.flops);
      std::vector<int> order;
      for (std::size_t i = 0; i < depth; ++i) order.push_back(L(i));
      order.insert(order.end(), {kOut, X(0), X(depth)});
      z = permute_to(K, z, order);
      Charge left(rule.count(), 0);
      for (std::size_t i = 0; i < depth; ++i) left = add_charge(rule, left, z.legs[i].charges.at(0));
      BlockTensor<T> c;
      c.legs = {single_sector_leg(1, left), z.legs[depth], z.legs[depth + 1], z.legs[depth + 2]};
      c.labels = core;
      for (const auto& b : z.blocks) {
        auto nb = b;
        nb.key = BlockKey{0, b.key[depth], b.key[depth + 1], b.key[depth + 2]};
        c.blocks.push_back(std::move(nb));
      }
      c.elements = z.elements;
      c.data = z.data;
      z0[k] = std::move(c);
    }
    cores[0] = summed(z0, "first core", 0);
    reporter.progress("right sweep", n, n);
  }
  return cores;
}

// The SRC sweep of the sum with s sketch columns (and the held-out ones), each cut keeping at most
// `keep_cap` directions.
// Over ranks a sum's terms are dealt (`ranks` in that mode) or one product's s columns split
// (where every rank gets some); the held-out columns are every rank's.
template <class T>
std::vector<BlockTensor<T>> sketch_terms(const std::vector<ChargedTerm<T>>& terms, const SweepOptions& o, std::size_t s,
                                         std::size_t keep_cap, Kernels<T>& K, SweepResult<T>& res, Reporter& reporter,
                                         const std::function<void()>& check_interrupt, RankExchange* ranks,
                                         SketchGrowth* grow = nullptr) {
  SilentReporter quiet;  // the sweeps after the first are part of it
  RankExchange* dealt = ranks && ranks->terms_dealt() ? ranks : nullptr;
  RankExchange* split = ranks && ranks->columns_split() && terms.size() == 1 && s >= static_cast<std::size_t>(ranks->size())
                            ? ranks
                            : nullptr;
  const ContiguousShare share = split ? split->share(s) : ContiguousShare{0, s};
  std::vector<ChargedEnvironments<T>> envs(terms.size()), held(terms.size());
  bool first = true;
  for (std::size_t k = 0; k < terms.size(); ++k) {
    if (!terms[k].stack) continue;  // another rank's
    const ChargedStack<T>& st = *terms[k].stack;
    envs[k] = sweep_left(K, st, test_tensors(K, st, s, o.seed, share), res, first ? reporter : quiet, check_interrupt, split, s,
                         terms[k].parking);
    held[k] = sweep_left(K, st, test_tensors(K, st, kHeldOut, Rng::derive_seed(o.seed, kHeldOutStream)), res, quiet,
                         check_interrupt, nullptr, kHeldOut);  // eight columns: never parked
    first = false;
  }
  return right_sweep(terms, std::move(envs), std::move(held), keep_cap, o.cutoff, K, res, reporter, check_interrupt, dealt,
                     split, s, grow);
}

// The most a cut's bond can be: the fused bond of the stacks there, and the physical dimensions
// on either side (a sketch beyond it is exact).
template <class T> std::size_t exact_bond(const std::vector<ChargedTerm<T>>& terms, RankExchange* ranks) {
  const ChargedStack<T>& st = own_stack(terms);
  const std::size_t n = st.length();
  std::size_t most = 1;
  auto capped = [](double v) { return v > 1e18 ? std::size_t{1} << 60 : static_cast<std::size_t>(v); };
  std::vector<std::vector<double>> own;  // per own term, per cut: its fused bond
  for (const auto& t : terms) {
    if (!t.stack) continue;
    own.emplace_back(n, 1.0);
    for (std::size_t j = 1; j < n; ++j)
      for (const auto& layer : t.stack->sites) own.back()[j] *= static_cast<double>(layer[j].legs[0].size());
  }
  const auto bonds = every_term(ranks, own, "bond bounds");
  for (std::size_t j = 1; j < n; ++j) {
    double fused = 0, left = 1, right = 1;
    for (const auto& b : bonds) fused += b[j];  // a sum's bond is at most the sum of its terms'
    for (std::size_t i = 0; i < n; ++i)
      (i < j ? left : right) *= static_cast<double>(st.top_up(i).size() * st.bottom_down(i).size());
    most = std::max(most, capped(std::min({fused, left, right})));
  }
  return most;
}

// Whether any rank parks a term's environments on disk (every rank answers alike).
template <class T> bool parks_environments(const std::vector<ChargedTerm<T>>& terms, RankExchange* ranks) {
  double parks = std::any_of(terms.begin(), terms.end(), [](const auto& t) { return t.parking != nullptr; }) ? 1 : 0;
  if (ranks && ranks->spread())
    for (double p : ranks->joined(std::vector<double>{parks}, "parked environments", -1)) parks = std::max(parks, p);
  return parks > 0;
}

}  // namespace

template <class T>
void finish_result(SweepResult<T>& r, const std::vector<BlockTensor<T>>& cores, Kernels<T>& K, bool dense) {
  for (std::size_t j = 0; j < cores.size(); ++j) {
    if (dense) r.cores.push_back(dense_of_blocks(K, cores[j]));
    r.sites[j].bond_left = static_cast<std::int64_t>(cores[j].legs[0].dense_size());
    r.sites[j].bond_right = static_cast<std::int64_t>(cores[j].legs[1].dense_size());
  }
  r.finish_sites();
}

template <class T>
ChargedResult<T> symmetric_sweep(const std::vector<ChargedTerm<T>>& terms, TrainKind kind, const SweepOptions& o,
                                 Kernels<T>& K, Reporter& reporter, const std::function<void()>& check_interrupt,
                                 RankExchange* ranks, ResultNeeds needs) {
  if (o.method != Method::kSrc && !o.dense_left())
    throw UsageError("the symmetric sweep takes src, sdc or sdcr (with --fit-sweeps)");
  if (ranks && ranks->spread() && (o.fit_sweep_cap() > 0 || (ranks->columns_split() && (terms.size() != 1 || o.dense_left()))))
    throw std::logic_error("over ranks the symmetric sweep deals a sum's terms or splits a product's columns (src), "
                           "without fit sweeps");
  RankExchange* dealt = ranks && ranks->terms_dealt() ? ranks : nullptr;
  const std::size_t n = own_stack(terms).length();
  const ChargeRule& rule = own_stack(terms).rule;
  ChargedResult<T> out;
  SweepResult<T>& res = out.sweep;
  res.kind = kind;
  res.sites.assign(n, SiteStats{});
  const std::size_t exact = exact_bond(terms, dealt), cap = o.chi > 0 ? std::min(o.chi, exact) : exact;
  const bool truncate = o.final_truncation();
  std::vector<BlockTensor<T>> cores;
  if (o.dense_left()) {
    // sdc, sdcr: one left sweep of reductions (tolerance mode: sdc cuts its exact values at
    // kSketchTolFraction·tol, sdcr keeps up to the cap), then the right sweep over them.
    ChargedReduction<T> how;
    how.kind = method_row(o.method).svd_reduction ? ChargedReduction<T>::Kind::kSvd : ChargedReduction<T>::Kind::kRange;
    how.cap = o.tolerance_mode() ? cap : o.sketch_columns();
    how.cutoff = effective_cutoff<real_t<T>>(0.0, o.numerical_zeros);
    how.tol = o.tolerance_mode() ? kSketchTolFraction * o.tol : 0.0;
    how.seed = Rng::derive_seed(o.seed, kRangeStreams);
    cores = right_sweep(terms, reduced_environments(K, terms, how, res, reporter, check_interrupt, dealt), {},
                        truncate ? 0 : o.chi, truncate ? 0.0 : o.cutoff, K, res, reporter, check_interrupt, dealt);
    res.estimated = false;
  } else if (!o.tolerance_mode()) {
    const std::size_t s = o.sketch_columns();
    cores = sketch_terms(terms, o, s, truncate ? s : o.chi, K, res, reporter, check_interrupt, ranks);
  } else if (!parks_environments(terms, ranks)) {
    // Tolerance mode: each cut's sketch grows until its held-out estimate is within
    // kSketchTolFraction·tol (SketchGrowth).
    SketchGrowth grow;
    grow.target = kSketchTolFraction * o.tol;
    grow.cap = cap;
    grow.chi_cap = o.chi > 0 && o.chi < exact;
    grow.step = std::max<std::size_t>(o.block_step, 1);
    grow.seed = o.seed;
    const std::size_t s = std::min(cap, std::max<std::size_t>(o.block_start, 1));
    cores = sketch_terms(terms, o, s, s, K, res, reporter, check_interrupt, ranks, &grow);
    res.capped_cuts = static_cast<std::int64_t>(grow.capped);
  } else {
    // Tolerance mode with environments parked on disk: whole sweeps with a growing
    // sketch (each round at least doubles it) until every cut's held-out estimate is within
    // kSketchTolFraction·tol, or the sketch reaches its cap (--chi, or the exact bond); rounds
    // cost at most about twice the last one.
    std::size_t s = std::min(cap, std::max<std::size_t>(o.block_start, 1));
    double flops = 0;
    while (true) {
      res.sites.assign(n, SiteStats{});
      res.flops = 0;
      cores = sketch_terms(terms, o, s, s, K, res, reporter, check_interrupt, ranks);
      flops += res.flops;
      double worst = 0;
      for (const auto& site : res.sites) worst = std::max(worst, std::isfinite(site.error_estimate) ? site.error_estimate : 0.0);
      if (worst <= kSketchTolFraction * o.tol) break;
      if (s >= cap) {
        if (o.chi > 0 && s < exact) res.capped_cuts = static_cast<std::int64_t>(n - 1);
        break;
      }
      s = std::min(cap, s + std::max(o.block_step, s));
    }
    res.flops = flops;
  }
  if (truncate) {
    std::vector<double> truncated;
    // The Schmidt form is the last sweep's only where no fit sweep follows.
    SchmidtForm schmidt;
    const bool last = needs.schmidt && o.fit_sweep_cap() == 0;
    cores = symmetric_truncate(K, std::move(cores), o.chi, o.cutoff, o.tol, o.numerical_zeros, truncated, rule, true,
                               last ? &schmidt : nullptr);
    if (last) out.schmidt = std::move(schmidt);
    for (std::size_t j = 1; j < n; ++j) {
      res.sites[j].truncation_error = truncated[j];
      const double e = res.sites[j].error_estimate;
      if (std::isfinite(e)) res.sites[j].error_estimate = std::sqrt(e * e + truncated[j] * truncated[j]);
    }
  }
  double fit_estimate = 0;
  if (o.fit_sweep_cap() > 0) {
    // Two-site variational sweeps: the right sweep over the result's own left environments, each
    // cut factorising its two sites' product whole, so that a cut keeps its bond but shares it
    // out among the sectors afresh (a one-site sweep would keep each sector's dimension as the
    // method chose it).
    double err2 = 0;  // the method's estimate, as finish_sites combines it
    for (const auto& site : res.sites)
      if (std::isfinite(site.error_estimate)) err2 += site.error_estimate * site.error_estimate;
    FitLedger ledger(norm_of(K, cores.front()),
                     res.estimated && !truncate ? std::sqrt(err2) : std::numeric_limits<double>::quiet_NaN());
    SilentReporter quiet;
    std::vector<std::int64_t> columns;  // the method's, which the sweeps' environments must not replace
    for (const auto& site : res.sites) columns.push_back(site.sketch_columns);
    for (std::size_t k = 0; k < o.fit_sweep_cap(); ++k) {
      check_interrupt();
      const auto t0 = Clock::now();
      std::vector<BlockTensor<T>> phi = cores;
      left_orthonormalize(K, phi, rule);
      ChargedReduction<T> how;
      how.kind = ChargedReduction<T>::Kind::kCore;
      how.cores = &phi;
      how.whole_rows = true;
      std::vector<std::size_t> bonds;
      for (const auto& c : cores) bonds.push_back(c.legs[0].size());
      cores = right_sweep(terms, reduced_environments(K, terms, how, res, quiet, check_interrupt), {}, CutCaps(bonds), 0.0,
                          K, res, quiet, check_interrupt, nullptr);
      const bool done = ledger.record(res, norm_of(K, cores.front()), since(t0), o.fit_tol);
      reporter.progress("fit sweep", k + 1, o.fit_sweep_cap());
      if (done) break;
    }
    for (std::size_t j = 0; j < n; ++j) res.sites[j].sketch_columns = columns[j];
    res.estimated = false;  // the per-cut figures of the last sweep are not error estimates
    fit_estimate = ledger.left();
  }
  finish_result(res, cores, K, needs.dense);
  if (!res.fit.empty()) res.error_estimate = fit_estimate;
  out.cores = std::move(cores);
  return out;
}

template <class T>
ChargedResult<T> symmetric_sweep(const ChargedStack<T>& st, TrainKind kind, const SweepOptions& o, Kernels<T>& K,
                                 Reporter& reporter, const std::function<void()>& check_interrupt) {
  return symmetric_sweep(std::vector<ChargedTerm<T>>{{&st, T(1)}}, kind, o, K, reporter, check_interrupt, nullptr);
}

#define SRCC_INSTANTIATE(T)                                                                                       \
  template ChargedResult<T> symmetric_sweep(const ChargedStack<T>&, TrainKind, const SweepOptions&, Kernels<T>&, \
                                            Reporter&, const std::function<void()>&);                            \
  template ChargedResult<T> symmetric_sweep(const std::vector<ChargedTerm<T>>&, TrainKind, const SweepOptions&,   \
                                            Kernels<T>&, Reporter&, const std::function<void()>&, RankExchange*,        \
                                            ResultNeeds);                                                        \
  template void finish_result(SweepResult<T>&, const std::vector<BlockTensor<T>>&, Kernels<T>&, bool);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
