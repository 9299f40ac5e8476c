#include "srcc/symmetric/reduction_sweep.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <set>
#include <string>

#include "srcc/core/error.hpp"
#include "srcc/core/rng.hpp"
#include "srcc/sweep/sketch.hpp"
#include "srcc/symmetric/block_exchange.hpp"
#include "srcc/symmetric/block_ops.hpp"
#include "srcc/symmetric/env_parking.hpp"
#include "srcc/symmetric/sector_svd.hpp"

namespace srcc {

namespace {

using Clock = std::chrono::steady_clock;

// The rows of M_j: (a, x_0, x_k), their charge a + x_0 − x_k the next environment's.
const std::vector<int>& row_labels() {
  static const std::vector<int> rows{axis::kSketch, axis::X(0), axis::kDown};
  return rows;
}
const std::vector<int> kRowSigns{+1, +1, -1};

std::vector<int> bond_labels(std::size_t depth, int (*label)(std::size_t)) {
  std::vector<int> out;
  for (std::size_t i = 0; i < depth; ++i) out.push_back(label(i));
  return out;
}

// M_j = C_j·(site j of every layer): axes kSketch, X(0), kDown and R(0) … R(k−1), in some order.
// C_j is (kSketch, L(0) … L(k−1)); each layer but the bottom takes the place of its run, (L(0))
// with (X(0), R(0), X(1)) at the top and (X(i), L(i)) with (R(i), X(i+1)) below, so that M grows
// as (kSketch, X(0), R(0) … R(i), X(i+1), L(i+1) …) and is never permuted; the bottom's run
// is then the last one, a plain product.
template <class T>
BlockTensor<T> left_block(Kernels<T>& K, const ChargedStack<T>& st, std::size_t j, const BlockTensor<T>& c, double& flops) {
  using namespace axis;
  const std::size_t k = st.depth();
  BlockTensor<T> m = c;
  for (std::size_t i = 0; i < k; ++i) {
    const std::vector<int> run = i == 0 ? std::vector<int>{L(0)} : std::vector<int>{X(i), L(i)};
    if (i + 1 == k) {
      m = contract(K, m, st.sites[i][j], run, &flops);
    } else if (i == 0) {
      m = contract_in_place(K, m, st.sites[0][j], run, {X(0), R(0), X(1)}, &flops);
    } else {
      m = contract_in_place(K, m, st.sites[i][j], run, {R(i), X(i + 1)}, &flops);
    }
  }
  m.labels[m.axis(X(k))] = kDown;
  return m;
}

// sdc's rows for a sum: each M_kᵀ = Q_k R_k by sectors, the weighted R_k stacked, (new, rows…):
// its left singular vectors over the rows are those of [|c_1| M_1 | … | |c_K| M_K].
template <class T>
BlockTensor<T> stacked_r_factors(Kernels<T>& K, const std::vector<ChargedTerm<T>>& terms, const std::vector<BlockTensor<T>>& m,
                                 const ChargeRule& rule, RankExchange* dealt, std::size_t site) {
  std::vector<BlockTensor<T>> r(terms.size());
  for (std::size_t k = 0; k < terms.size(); ++k) {
    if (!terms[k].stack) continue;  // another rank's
    const std::size_t depth = terms[k].stack->depth();
    SectorSvd<T> qr = sector_svd(K, m[k], bond_labels(depth, axis::R), std::vector<int>(depth, +1), rule, Factorization::kQr);
    double total = 0;
    choose_ranks(qr, 0, 0.0, 0.0, total);
    std::vector<int> order{axis::kNew};
    order.insert(order.end(), row_labels().begin(), row_labels().end());
    r[k] = permute_to(K, right_factor(K, qr, axis::kNew, group_charges(qr, rule)), order);
    scale_by(K, r[k], std::abs(terms[k].weight));
  }
  const auto all = every_term_blocks(K, dealt, terms, r, "R factors", static_cast<std::int64_t>(site));
  std::vector<const BlockTensor<T>*> parts;
  for (const auto& t : all) parts.push_back(&t);
  return stack_first(K, parts);
}

// sdcr's sketch of the rows: Σ_k |c_k| M_k G_k (rows…, kTest), G_k Gaussian over M_k's columns and
// a test leg with a sector for every charge those columns carry, of `width` columns or fewer: a
// sector's rank is at most its rows (the distinct row combinations of that charge) and at most its
// columns summed over the terms, and a Gaussian test that wide finds its whole range (almost
// surely), so wider tests only cost.
//
// Over ranks (`dealt`) a rank holds its own terms' M_k: every term's blocks (their keys and sizes,
// no elements) go to all, so that each rank makes every term's test leg and draws every G_k in
// turn, the one process's numbers; it multiplies its own, and the products are added in term
// order on every rank.
template <class T>
BlockTensor<T> range_sketch(Kernels<T>& K, const std::vector<ChargedTerm<T>>& terms, const std::vector<BlockTensor<T>>& own_m,
                            const ChargeRule& rule, std::size_t width, Rng& rng, double& flops, RankExchange* dealt,
                            std::size_t site) {
  constexpr int kTest = axis::kOut;  // the test columns: no other axis of M_j has this label
  std::vector<BlockTensor<T>> shapes = own_m;
  for (auto& shape : shapes) {
    shape.data = Buffer<T>();
    shape.elements = 0;
  }
  const std::vector<BlockTensor<T>> m = every_term_blocks(K, dealt, terms, shapes, "M shapes", static_cast<std::int64_t>(site));
  std::map<Charge, std::size_t, ChargeOrder> charges;
  std::vector<std::vector<std::size_t>> col_axes(terms.size());
  // Per column charge: its distinct row and column combinations (per term for the columns).
  std::map<Charge, std::set<BlockKey>, ChargeOrder> rows;
  std::map<Charge, std::size_t, ChargeOrder> row_dim, col_dim;
  for (std::size_t k = 0; k < terms.size(); ++k) {
    for (int label : m[k].labels)
      if (label >= axis::R(0) && label < axis::R(0) + 1000) col_axes[k].push_back(m[k].axis(label));
    std::sort(col_axes[k].begin(), col_axes[k].end(),
              [&](std::size_t a, std::size_t b) { return m[k].labels[a] < m[k].labels[b]; });
    std::vector<std::size_t> row_axes;
    for (int label : row_labels()) row_axes.push_back(m[k].axis(label));
    std::map<Charge, std::set<BlockKey>, ChargeOrder> cols;
    for (const auto& b : m[k].blocks) {
      Charge q(rule.count(), 0);
      BlockKey c, r;
      for (std::size_t a : col_axes[k]) {
        q = add_charge(rule, q, m[k].legs[a].charges[b.key[a]]);
        c.push_back(b.key[a]);
      }
      for (std::size_t a : row_axes) r.push_back(b.key[a]);
      auto size_of = [&](const BlockKey& key, const std::vector<std::size_t>& axes) {
        std::size_t n = 1;
        for (std::size_t i = 0; i < axes.size(); ++i) n *= m[k].legs[axes[i]].dims[key[i]];
        return n;
      };
      if (cols[q].insert(c).second) col_dim[q] += size_of(c, col_axes[k]);
      // Rows are shared by the terms (the same legs): each combination counted once.
      if (rows[q].insert(r).second) row_dim[q] += size_of(r, row_axes);
      charges.emplace(q, 0);
    }
  }
  for (auto& [q, d] : charges) d = std::max<std::size_t>(1, std::min({width, col_dim[q], row_dim.count(q) ? row_dim[q] : width}));
  Leg test;
  for (const auto& [q, d] : charges) {
    test.charges.push_back(q);
    test.dims.push_back(d);
  }
  std::vector<BlockTensor<T>> y;
  std::vector<std::pair<const BlockTensor<T>*, double>> parts;
  std::vector<int> order = row_labels();
  order.push_back(kTest);
  for (std::size_t k = 0; k < terms.size(); ++k) {
    std::vector<Leg> legs;
    std::vector<int> labels;
    for (std::size_t a : col_axes[k]) {
      legs.push_back(m[k].legs[a]);
      labels.push_back(m[k].labels[a]);
    }
    legs.push_back(test);
    labels.push_back(kTest);
    const std::size_t last = legs.size() - 1;
    BlockTensor<T> g = allocate_blocks(K, legs, labels, all_keys(legs, [&](const BlockKey& key) {
                                         Charge q(rule.count(), 0);
                                         for (std::size_t a = 0; a < last; ++a) q = add_charge(rule, q, legs[a].charges[key[a]]);
                                         return q == test.charges[key[last]];
                                       }));
    // A narrower sector's test scaled up by √(width/its width): every sector's sketch then has the
    // norm of the same M in expectation, so that the values compared across sectors are alike.
    std::vector<T> draws = draw_gaussian<T>(rng, g.elements);
    for (const auto& b : g.blocks) {
      const auto f = static_cast<real_t<T>>(std::sqrt(double(width) / double(test.dims[b.key[last]])));
      if (f != 1)
        for (std::size_t e = 0; e < b.size; ++e) draws[b.offset + e] *= f;
    }
    if (!terms[k].stack) {  // another rank's: its draws taken, its product that rank's
      y.emplace_back();
      continue;
    }
    g.data = K.adopt(std::move(draws));
    y.push_back(permute_to(K, contract(K, own_m[k], g, bond_labels(terms[k].stack->depth(), axis::R), &flops), order));
  }
  const std::vector<BlockTensor<T>> all = every_term_blocks(K, dealt, terms, y, "range sketches", static_cast<std::int64_t>(site));
  for (std::size_t k = 0; k < terms.size(); ++k) parts.emplace_back(&all[k], std::abs(terms[k].weight));
  return terms.size() == 1 && std::abs(terms[0].weight) == 1 ? all[0] : add_blocks(K, parts);
}

// η (kNew, kSketch, X(0), kDown) from a tensor whose rows are those of M_j: its sectors' SVDs,
// the kept values chosen over all sectors.
template <class T>
BlockTensor<T> isometry_of(Kernels<T>& K, const BlockTensor<T>& rows, const ChargeRule& rule, std::size_t cap, double cutoff,
                           double tol, RankExchange* dealt = nullptr, std::size_t site = 0) {
  // Over ranks the sectors' SVDs are dealt and their factors sent to all.
  const bool spread = dealt && dealt->spread();
  SectorSvd<T> svd = sector_svd(K, rows, row_labels(), kRowSigns, rule, Factorization::kSvdLeft,
                                spread ? dealt_sectors<T>(*dealt) : nullptr);
  if (spread) share_sector_factors(K, *dealt, svd, static_cast<std::int64_t>(site));
  double total = 0;
  choose_ranks(svd, cap, cutoff, tol, total);
  std::vector<int> order{axis::kNew};
  order.insert(order.end(), row_labels().begin(), row_labels().end());
  return permute_to(K, left_factor(K, svd, axis::kNew, group_charges(svd, rule)), order);
}

// The fit's η: core j of the left-orthonormal result, its right bond the new leg.
template <class T> BlockTensor<T> core_isometry(Kernels<T>& K, const BlockTensor<T>& core) {
  using namespace axis;
  BlockTensor<T> eta = permute_to(K, core, {kCoreL, kCoreR, kCoreU, kCoreD});
  eta.labels = {kSketch, kNew, X(0), kDown};
  return permute_to(K, eta, {kNew, kSketch, X(0), kDown});
}

// M_j as the environment of cut j+1, (kSketch, L(0) … L(k−1)), times `factor`: its rows (a, x_0,
// x_k) fused into the one leg, its right bonds named as the next site's left ones.
template <class T>
BlockTensor<T> whole_rows(Kernels<T>& K, const BlockTensor<T>& m, std::size_t depth, double factor, const ChargeRule& rule) {
  std::vector<int> order = row_labels(), labels{axis::kSketch};
  const auto r = bond_labels(depth, axis::R), l = bond_labels(depth, axis::L);
  order.insert(order.end(), r.begin(), r.end());
  labels.insert(labels.end(), l.begin(), l.end());
  BlockTensor<T> c = relabelled(fuse_leading(K, permute_to(K, m, order), row_labels().size(), kRowSigns, rule), labels);
  scale_by(K, c, factor);
  return c;
}

}  // namespace

template <class T> BlockTensor<T> first_environment(Kernels<T>& K, const ChargedStack<T>& st, std::size_t rows) {
  std::vector<Leg> legs{single_sector_leg(rows, Charge(st.rule.count(), 0))};
  std::vector<int> labels{axis::kSketch};
  for (std::size_t i = 0; i < st.depth(); ++i) {
    legs.push_back(st.sites[i][0].legs[0]);
    labels.push_back(axis::L(i));
  }
  BlockTensor<T> c = allocate_blocks(K, legs, labels, all_keys(legs));
  c.data = K.adopt(std::vector<T>(c.elements, T(1)));
  return c;
}

template <class T>
std::vector<ChargedEnvironments<T>> reduced_environments(Kernels<T>& K, const std::vector<ChargedTerm<T>>& terms,
                                                         const ChargedReduction<T>& how, SweepResult<T>& res,
                                                         Reporter& reporter, const std::function<void()>& check_interrupt,
                                                         RankExchange* dealt) {
  using Kind = typename ChargedReduction<T>::Kind;
  if (dealt && dealt->spread() && (how.kind == Kind::kCore || !dealt->terms_dealt()))
    throw std::logic_error("over ranks the charged reduction deals a sum's terms by sdc or sdcr only");
  const ChargedStack<T>* any = nullptr;
  for (const auto& t : terms) any = any ? any : t.stack;
  const ChargedStack<T>& first = *any;
  const std::size_t n = first.length(), nt = terms.size();
  std::vector<ChargedEnvironments<T>> out(nt);
  std::vector<BlockTensor<T>> carried(nt);  // each term's C_j, which the next cut starts from
  for (std::size_t k = 0; k < nt; ++k) {
    if (!terms[k].stack) continue;  // another rank's
    carried[k] = first_environment(K, *terms[k].stack, 1);
    out[k].env.push_back(carried[k]);
    out[k].log_scale.push_back(0.0);
  }
  for (std::size_t j = 0; j + 1 < n; ++j) {
    const auto t0 = Clock::now();
    std::vector<BlockTensor<T>> m(nt);
    for (std::size_t k = 0; k < nt; ++k)
      if (terms[k].stack) m[k] = left_block(K, *terms[k].stack, j, carried[k], res.flops);
    BlockTensor<T> eta;
    if (how.kind == Kind::kCore) {
      eta = core_isometry(K, how.cores->at(j));
    } else if (how.kind == Kind::kRange) {
      Rng rng(Rng::derive_seed(how.seed, j));
      eta = isometry_of(K, range_sketch(K, terms, m, first.rule, how.cap, rng, res.flops, dealt, j), first.rule, how.cap,
                        how.cutoff, 0.0, dealt, j);
    } else {
      eta = isometry_of(K, nt == 1 ? m[0] : stacked_r_factors(K, terms, m, first.rule, dealt, j), first.rule, how.cap,
                        how.cutoff, how.tol, dealt, j);
    }
    const BlockTensor<T> bra = conj_of(K, eta);
    std::vector<std::vector<double>> norms;  // this rank's terms' (all of them, alone), in term order
    std::vector<BlockTensor<T>> next(nt);
    for (std::size_t k = 0; k < nt; ++k) {
      if (!terms[k].stack) continue;
      const std::size_t depth = terms[k].stack->depth();
      std::vector<int> order{axis::kNew};
      const auto r = bond_labels(depth, axis::R);
      order.insert(order.end(), r.begin(), r.end());
      BlockTensor<T> c = permute_to(K, contract(K, bra, m[k], row_labels(), &res.flops), order);
      c.labels = {axis::kSketch};
      const auto l = bond_labels(depth, axis::L);
      c.labels.insert(c.labels.end(), l.begin(), l.end());
      norms.push_back({norm_of(K, c)});
      next[k] = std::move(c);
    }
    double norm2 = 0;  // over every term, in term order
    for (const auto& v : dealt ? dealt->all_terms(norms, "environment norms", static_cast<std::int64_t>(j)) : norms)
      norm2 += v[0] * v[0];
    if (!(norm2 > 0) || !std::isfinite(norm2))
      throw NumericalError("the product's environment vanished or overflowed at cut " + std::to_string(j + 1));
    const double factor = std::sqrt(static_cast<double>(eta.legs[0].size()) / norm2);
    for (std::size_t k = 0; k < nt; ++k) {
      if (!terms[k].stack) continue;
      scale_by(K, next[k], factor);
      carried[k] = std::move(next[k]);
      out[k].env.push_back(how.whole_rows ? whole_rows(K, m[k], terms[k].stack->depth(), factor, first.rule) : carried[k]);
      out[k].log_scale.push_back(out[k].log_scale.back() + std::log(factor));
      if (terms[k].parking && j > 0) terms[k].parking->park(out[k].env[j], j);
    }
    res.sites[j].seconds += std::chrono::duration<double>(Clock::now() - t0).count();
    reporter.progress("left sweep", j + 1, n - 1);
    check_interrupt();
  }
  return out;
}

#define SRCC_INSTANTIATE(T)                                                                                         \
  template BlockTensor<T> first_environment(Kernels<T>&, const ChargedStack<T>&, std::size_t);                    \
  template std::vector<ChargedEnvironments<T>> reduced_environments(Kernels<T>&, const std::vector<ChargedTerm<T>>&, \
                                                                    const ChargedReduction<T>&, SweepResult<T>&,      \
                                                                    Reporter&, const std::function<void()>&,          \
                                                                    RankExchange*);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
