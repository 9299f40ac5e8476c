// The dense left step (dense_left_step.hpp). Index conventions as in sweep.cpp.
//
// Cost per site for an MPO (bond D) times an MPS (bond χ), environment rows s, physical d:
// forming M_j takes s·(dDχ² + d²D²χ) multiply-adds (the right step's count with χ̄ = s: the
// sketch's contraction into the top layer, which SRC does first, cannot be done here); then
// sdc's reduction of the (s·d) × (Dχ) matrix (its Gram matrix, (sd)²·Dχ, or a QR of about as
// many, an (sd) × (sd) SVD and s·(sd)·Dχ for C_{j+1}), or sdcr's two products
// 2·s·(sd)·Dχ and a QR of (sd) × s, or the fit's one product s·(sd)·Dχ.
#include "srcc/sweep/dense_left_step.hpp"

#include <limits>

#include <algorithm>
#include <cmath>
#include <span>
#include <utility>

#include "srcc/core/rng.hpp"
#include "srcc/sweep/right_step.hpp"
#include "srcc/sweep/sketch.hpp"
#include "srcc/sweep/truncation.hpp"

namespace srcc {

Stack mirrored(const Stack& st) {
  Stack m = st;
  for (auto& layer : m.layers)
    for (auto& d : layer.dims) std::swap(d[kLegL], d[kLegR]);
  return m;
}

// The right step reads the bottom layer as (r | u, l, d) and the others as (u, l | r, d): with
// l and r swapped that is (l | u, r, d) and (u, r | l, d) of the original site.
SiteForm dense_left_form(std::size_t layer, std::size_t depth) {
  return layer + 1 == depth ? SiteForm::kLUrd : SiteForm::kUrLd;
}

template <class T>
Buffer<T> dense_left_block(DeviceCtx<T> c, const Stack& mirror, std::size_t j,
                           const std::vector<Buffer<T>>& forms, const Buffer<T>& env,
                           std::size_t rows) {
  return right_block(c, mirror, j, forms, env, rows);
}

namespace {

// Scales the pieces (pointer, elements) of environments of `rank` rows together so that the
// whole has norm √rank: the environments of a long train neither underflow nor overflow, and the
// sketched range does not change; the terms of a sum keep their proportions. Returns the
// logarithm of the factor applied (Reduced::log_scale).
template <class T>
double to_sketch_scale(Kernels<T>& K, std::size_t rank, const std::vector<std::pair<T*, std::size_t>>& pieces) {
  // One piece's norm as it is (a product's environments as they always were); several in quadrature.
  double total = 0;
  for (const auto& [p, n] : pieces) {
    const double norm = static_cast<double>(K.norm(n, p));
    total = pieces.size() == 1 ? norm : total + norm * norm;
  }
  if (pieces.size() > 1) total = std::sqrt(total);
  if (!(total > 0 && std::isfinite(total))) return 0;
  const auto factor = static_cast<real_t<T>>(std::sqrt(static_cast<double>(rank)) / total);
  for (const auto& [p, n] : pieces) K.scale(n, factor, p);
  return std::log(static_cast<double>(factor));
}

// The terms' environments at one scale.
template <class T> void to_common_scale(Kernels<T>& K, std::vector<Reduced<T>>& envs, const std::vector<std::size_t>& cols) {
  std::vector<std::pair<T*, std::size_t>> pieces;
  for (std::size_t k = 0; k < envs.size(); ++k) pieces.emplace_back(envs[k].env.data(), envs[k].rank * cols[k]);
  const double log_scale = envs.empty() ? 0.0 : to_sketch_scale(K, envs.front().rank, pieces);
  for (auto& e : envs) e.log_scale = log_scale;
}

// C_{j+1} = op(U) · M for the rank × m matrix op(U) (U at `u`, leading dimension `ld`), at
// sketch scale, by `gemm` (Kernels::gemm's strided signature: counted or not).
template <class T, class Gemm>
Reduced<T> project(Kernels<T>& K, Gemm&& gemm, Op op, const T* u, std::size_t ld, std::size_t rank,
                   const Buffer<T>& m_rows, std::size_t m, std::size_t cols) {
  Reduced<T> out;
  out.rank = rank;
  out.env = K.allocate(rank * cols);
  gemm(op, Op::kNone, rank, cols, m, T(1), u, ld, 0, m_rows.data(), cols, 0, T(0), out.env.data(), cols, 0, 1);
  out.log_scale = to_sketch_scale<T>(K, rank, {{out.env.data(), rank * cols}});
  return out;
}

// The terms' environments C_{k,j+1} = op(U)·M_k (U rank × m at `u`, leading dimension `ld`), at
// one scale.
template <class T>
std::vector<Reduced<T>> project_all(DeviceCtx<T> c, Op op, const T* u, std::size_t ld, std::size_t rank,
                                    const std::vector<Buffer<T>>& m_rows, std::size_t m,
                                    const std::vector<std::size_t>& cols) {
  std::vector<Reduced<T>> out(m_rows.size());
  for (std::size_t k = 0; k < m_rows.size(); ++k) {
    out[k].rank = rank;
    out[k].env = c.K.allocate(rank * cols[k]);
    c.gemm(op, Op::kNone, rank, cols[k], m, T(1), u, ld, m_rows[k].data(), cols[k], T(0), out[k].env.data(), cols[k]);
  }
  to_common_scale(c.K, out, cols);
  return out;
}

}  // namespace

namespace {

// The Gram matrix's eigenvalues carry an absolute error of about ε·‖M‖₂²: its eigenvectors are
// trusted for a cut only where every value the cut's decision reads, and the weight it leaves
// out, lie above this share of ‖M‖² (a thousandfold margin over the perturbation bound
// 2·rank·ε·‖M‖² on the squared error the cut adds; tests/sweep/sdc_reduction_test.cpp).
constexpr double kGramResolution = 1e-10;

// Σ V^H of M: the first `rank` rows of op(U)·M where op(U)'s rows are M's leading left singular
// vectors conjugated, with the relative weight they leave out. sdc's reduction is not counted
// in the sweep's flops (nor in the plan's).
template <class T>
Reduced<T> leading_rows(Kernels<T>& K, Op op, const T* u, std::size_t ld, std::size_t rank,
                        const Buffer<T>& m_rows, std::size_t m, std::size_t cols, double discarded) {
  Reduced<T> out = project(K, [&K](auto... a) { K.gemm(a...); }, op, u, ld, rank, m_rows, m, cols);
  out.discarded = discarded;
  return out;
}

// Σ σ_i² from index `from` on.
template <class R> double sum_of_squares(const std::vector<R>& sigma, std::size_t from = 0) {
  const double tail = discarded_norm(sigma, from);
  return tail * tail;
}

// The norm of the values from `rank` on relative to all of them (0 for no values).
template <class R> double relative_tail(const std::vector<R>& sigma, std::size_t rank) {
  const double total = discarded_norm(sigma, 0);
  return total > 0 ? discarded_norm(sigma, rank) / total : 0.0;
}

}  // namespace

template <class T>
Reduced<T> reduce_by_svd(Kernels<T>& K, Buffer<T>& m_rows, std::size_t m, std::size_t cols,
                         std::size_t cap, double cutoff, double tol, bool* gram_first) {
  using R = real_t<T>;
  if (cols < m) {
    // Wide Mᵀ: its SVD directly. M row-major m × cols is Mᵀ column-major cols × m, and
    // Mᵀ = U' Σ V'^H gives M = conj(V') Σ U'ᵀ: Σ V^H of M has rows σ_i U'[:, i]ᵀ, the first
    // columns of U', contiguous, each scaled by its σ_i.
    Buffer<T> u = K.allocate(cols * cols), vt = K.allocate(cols * m);
    std::vector<R> sigma(cols);
    K.svd(cols, m, m_rows.data(), u.data(), sigma.data(), vt.data());
    Reduced<T> out;
    out.rank = truncation_rank(sigma, cutoff, tol, cap);
    out.discarded = relative_tail(sigma, out.rank);
    for (std::size_t i = 0; i < out.rank; ++i) K.scale(cols, sigma[i], u.data() + i * cols);
    out.log_scale = to_sketch_scale<T>(K, out.rank, {{u.data(), out.rank * cols}});
    out.env = std::move(u);  // its first rank × cols elements
    return out;
  }
  // Tall Mᵀ (the usual case: M has s·d rows and D·χ columns). First the Gram matrix G = M·M^H
  // (m × m, one GEMM at the machine's rate) and its eigenvectors, M's left singular vectors:
  // G row-major is conj(G) column-major, whose SVD U'ΣU'^H has U' = conj(U), so U^H is U' read
  // row-major. Where the cut reads values the Gram matrix cannot resolve (a tight --tol,
  // --cutoff, or a tail below kGramResolution), M's own values come from Mᵀ = QR and the SVD of
  // the small R = U_R Σ V_R^H: M = conj(V_R) Σ (Q U_R)ᵀ, so U^H = V_Rᵀ, V_R^H read row-major and
  // conjugated. Either way C_{j+1} = U_r^H M by one GEMM, Q never formed: a third to a seventh
  // of LAPACK's SVD of Mᵀ. Neighbouring cuts of a train have alike spectra, so a cut the Gram
  // matrix could not resolve sends the next one straight to the QR (`*gram_first`), and a QR
  // cut that the Gram matrix would have resolved sends the next one back.
  auto resolved = [m](const std::vector<R>& sigma, std::size_t rank) {
    const double total = sum_of_squares(sigma), tail = sum_of_squares(sigma, rank);
    const auto at = [&](std::size_t i) { return static_cast<double>(sigma[i]) * static_cast<double>(sigma[i]); };
    return total > 0 && at(rank - 1) >= kGramResolution * at(0) &&
           (rank == m ? at(m - 1) : tail) >= kGramResolution * total;
  };
  if (gram_first == nullptr || *gram_first) {
    Buffer<T> g = K.allocate(m * m), u = K.allocate(m * m), vt = K.allocate(m * m);
    K.gemm(Op::kNone, Op::kConjTrans, m, m, cols, T(1), m_rows.data(), cols, 0, m_rows.data(), cols, 0, T(0),
           g.data(), m, 0, 1);
    std::vector<R> lambda(m), sigma(m);
    K.svd(m, m, g.data(), u.data(), lambda.data(), vt.data());
    for (std::size_t i = 0; i < m; ++i) sigma[i] = std::sqrt(std::max(lambda[i], R(0)));
    const std::size_t rank = truncation_rank(sigma, cutoff, tol, cap);
    if (resolved(sigma, rank))
      return leading_rows(K, Op::kNone, u.data(), m, rank, m_rows, m, cols, relative_tail(sigma, rank));
    if (gram_first != nullptr) *gram_first = false;
  }
  Buffer<T> q = K.allocate(m * cols), r = K.allocate(m * m);
  K.copy(m * cols, m_rows.data(), q.data());
  K.qr_r(cols, m, q.data(), r.data());
  q.reset();
  Buffer<T> u = K.allocate(m * m), vt = K.allocate(m * m);
  std::vector<R> sigma(m);
  K.svd(m, m, r.data(), u.data(), sigma.data(), vt.data());
  const std::size_t rank = truncation_rank(sigma, cutoff, tol, cap);
  if (gram_first != nullptr) *gram_first = resolved(sigma, rank);
  return leading_rows(K, Op::kConjTrans, vt.data(), m, rank, m_rows, m, cols, relative_tail(sigma, rank));
}

namespace {

// Rank 0's `n` values at `data` (a buffer of device 0's) on every rank.
template <class T> void from_first(DeviceCtx<T> c, RankExchange& ranks, Buffer<T>& data, std::size_t n,
                                   const std::string& what, std::int64_t site) {
  std::vector<T> host = ranks.rank() == 0 ? c.mover.down(data, n, what, site) : std::vector<T>(n);
  ranks.from_first(host, what, site);
  if (ranks.rank() != 0) data = c.mover.up(std::move(host), what, site);
}

// Over ranks, the factor that brings each own term's M_k to the terms' common scale: the ranks'
// environments carry their own factors (log_scales, per own term), the largest is brought to 1.
template <class T>
std::vector<real_t<T>> common_factors(RankExchange& ranks, const std::vector<double>& log_scales, std::int64_t site) {
  std::vector<std::vector<double>> own;
  for (double s : log_scales) own.push_back({s});
  double least = std::numeric_limits<double>::infinity();
  for (const auto& s : ranks.all_terms(own, "environment scale", site)) least = std::min(least, s.front());
  std::vector<real_t<T>> out;
  for (double s : log_scales) out.push_back(static_cast<real_t<T>>(std::exp(least - s)));
  return out;
}

}  // namespace

template <class T>
std::vector<Reduced<T>> reduce_by_range(DeviceCtx<T> c, const std::vector<Buffer<T>>& m_rows, std::size_t m,
                                        const std::vector<std::size_t>& cols, const std::vector<T>& weights,
                                        std::size_t width, std::uint64_t seed, RankExchange* ranks,
                                        const std::vector<std::size_t>& all_cols, const std::vector<double>& log_scales,
                                        std::int64_t site) {
  const bool dealt = ranks && ranks->terms_dealt();
  const std::vector<std::size_t>& every = dealt ? all_cols : cols;
  std::size_t all = 0;
  for (auto n : every) all += n;
  const std::size_t w = std::min({width, m, all});
  Rng rng(seed);
  // Y = Σ_k c_k M_k G_k (the summed network's left part times G) as the column-major m × w
  // matrix the QR takes: row-major w × m = Σ c_k G_kᵀ M_kᵀ.
  Buffer<T> y = c.K.allocate(w * m);
  if (!dealt) {
    for (std::size_t k = 0; k < m_rows.size(); ++k) {
      Buffer<T> g = c.mover.up(draw_gaussian<T>(rng, cols[k] * w), "sketch", -1);  // row-major cols_k × w
      c.gemm(Op::kTrans, Op::kTrans, w, m, cols[k], weights[k], g.data(), w, m_rows[k].data(), cols[k],
             T(k == 0 ? 0 : 1), y.data(), m);
    }
  } else {
    const auto factors = common_factors<T>(*ranks, log_scales, site);
    std::vector<T> own;  // this rank's terms' products, one after another
    for (std::size_t k = 0, mine = 0; k < every.size(); ++k) {
      std::vector<T> drawn = draw_gaussian<T>(rng, every[k] * w);  // every term's, in turn
      if (!ranks->mine(k)) continue;
      Buffer<T> g = c.mover.up(std::move(drawn), "sketch", site);
      c.gemm(Op::kTrans, Op::kTrans, w, m, cols[mine], weights[mine] * factors[mine], g.data(), w, m_rows[mine].data(),
             cols[mine], T(0), y.data(), m);
      const std::vector<T> product = c.mover.down(y, w * m, "range sketch", site);
      own.insert(own.end(), product.begin(), product.end());
      ++mine;
    }
    // Every term's in one gather, added in term order as one process adds them.
    std::vector<T> terms(every.size() * w * m);
    ranks->gather_terms(own.data(), terms.data(), w * m, "range sketch", site);
    std::vector<T> sum(terms.begin() + static_cast<std::ptrdiff_t>(ranks->term_slot(0) * w * m),
                       terms.begin() + static_cast<std::ptrdiff_t>((ranks->term_slot(0) + 1) * w * m));
    for (std::size_t k = 1; k < every.size(); ++k) {
      const T* term = terms.data() + ranks->term_slot(k) * w * m;
      for (std::size_t i = 0; i < sum.size(); ++i) sum[i] += term[i];
    }
    y = c.mover.up(std::move(sum), "range sketch", site);
  }
  Buffer<T> r = c.K.allocate(w * w);
  if (!dealt || ranks->rank() == 0) c.K.qr(m, w, y.data(), r.data());
  if (dealt) from_first(c, *ranks, y, w * m, "range", site);
  // Q column-major m × w is Qᵀ row-major; C_{j+1} = Q^H M = conj(Qᵀ) · M.
  Buffer<T> q_conj = c.K.allocate(w * m);
  c.K.conj(w * m, y.data(), q_conj.data());
  return project_all(c, Op::kNone, q_conj.data(), m, w, m_rows, m, cols);
}

template <class T>
std::vector<Reduced<T>> reduce_sum_by_svd(DeviceCtx<T> c, std::vector<Buffer<T>>& m_rows, std::size_t m,
                                          const std::vector<std::size_t>& cols, const std::vector<T>& weights,
                                          std::size_t cap, double cutoff, double tol, RankExchange* ranks,
                                          const std::vector<double>& log_scales, std::int64_t site) {
  using R = real_t<T>;
  const bool dealt = ranks && ranks->terms_dealt();
  // Each M_kᵀ (column-major cols_k × m) = Q_k R_k: Q_k replaces M_k, R_k (h_k × m, h_k its rank
  // bound) stays, and B = [|c_1| R_1; …; |c_K| R_K] (column-major, Σ h_k × m) is formed on the host
  // (over ranks, from every rank's own |c_k| R_k in term order).
  const std::size_t terms = m_rows.size();
  std::vector<std::size_t> heights(terms);
  std::vector<Buffer<T>> r(terms);
  std::vector<std::vector<T>> own(terms);
  const auto factors = dealt ? common_factors<T>(*ranks, log_scales, site) : std::vector<R>(terms, R(1));
  for (std::size_t k = 0; k < terms; ++k) {
    heights[k] = std::min(cols[k], m);
    r[k] = c.K.allocate(heights[k] * m);
    c.K.qr(cols[k], m, m_rows[k].data(), r[k].data());
    own[k] = c.mover.down(r[k], heights[k] * m, "range factor", site);
    const auto weight = static_cast<R>(std::abs(weights[k])) * factors[k];
    for (auto& v : own[k]) v *= weight;
  }
  // Every term's |c_k| R_k in term order (over ranks as views into what the exchange keeps).
  std::vector<std::span<const T>> every;
  if (dealt) {
    std::vector<std::span<const std::byte>> mine;
    for (const auto& rk : own) mine.push_back(std::as_bytes(std::span<const T>(rk)));
    for (const auto& bytes : ranks->all_term_bytes(mine, "range factor", site))
      every.emplace_back(reinterpret_cast<const T*>(bytes.data()), bytes.size() / sizeof(T));
  } else {
    for (const auto& rk : own) every.emplace_back(rk);
  }
  std::size_t stacked = 0;
  for (const auto& rk : every) stacked += rk.size() / m;
  std::vector<T> b(stacked * m);
  for (std::size_t k = 0, first = 0; k < every.size(); ++k) {
    const std::size_t h = every[k].size() / m;
    for (std::size_t col = 0; col < m; ++col)
      for (std::size_t i = 0; i < h; ++i) b[col * stacked + first + i] = every[k][col * h + i];
    first += h;
  }
  // M's weighted columns [|c_k| M_k] = [|c_k| R_kᵀ Q_kᵀ] have B's singular values, and B = U' Σ V'^H
  // gives M's left singular vectors U = conj(V'). So C_{k,j+1} = U_r^H M_k = (U_r^H R_kᵀ) Q_kᵀ
  // (the weights come in later, in the right sweep). V'^H column-major (kk × m) is conj(V') read
  // row-major (m × kk): U_r^H is its conjugate transpose's first r rows.
  const std::size_t kk = std::min(stacked, m);
  Buffer<T> vt = c.K.allocate(kk * m);
  std::vector<R> sigma(kk);
  if (!dealt || ranks->rank() == 0) {
    // Only B's values and right vectors are needed: those of its R factor (kk × m), whose SVD
    // spares forming B's stacked × kk left factor (B has a few times more rows than columns).
    Buffer<T> bd = c.mover.up(std::move(b), "range factor", site);
    Buffer<T> rb = c.K.allocate(kk * m);
    c.K.qr_r(stacked, m, bd.data(), rb.data());
    Buffer<T> u = c.K.allocate(kk * kk);
    c.K.svd(kk, m, rb.data(), u.data(), sigma.data(), vt.data());
  }
  if (dealt) {
    from_first(c, *ranks, vt, kk * m, "range", site);
    ranks->from_first(sigma, "range values", site);
  }
  const std::size_t rank = truncation_rank(sigma, cutoff, tol, cap);
  const double discarded = relative_tail(sigma, rank);
  std::vector<Reduced<T>> out(terms);
  for (std::size_t k = 0; k < terms; ++k) {
    // R_k column-major (h_k × m) is R_kᵀ row-major (m × h_k); Q_k column-major (cols_k × h_k)
    // is Q_kᵀ row-major (h_k × cols_k).
    Buffer<T> a = c.K.allocate(rank * heights[k]);
    c.gemm(Op::kConjTrans, Op::kNone, rank, heights[k], m, T(1), vt.data(), kk, r[k].data(), heights[k], T(0),
           a.data(), heights[k]);
    out[k].rank = rank;
    out[k].discarded = discarded;
    out[k].env = c.K.allocate(rank * cols[k]);
    c.gemm(Op::kNone, Op::kNone, rank, cols[k], heights[k], T(1), a.data(), heights[k], m_rows[k].data(), cols[k],
           T(0), out[k].env.data(), cols[k]);
  }
  to_common_scale(c.K, out, cols);
  return out;
}

template <class T>
Reduced<T> reduce_by_core(DeviceCtx<T> c, const Buffer<T>& m_rows, std::size_t m,
                          std::size_t cols, const Buffer<T>& core, std::size_t b) {
  return project(c.K, c.gemm, Op::kConjTrans, core.data(), b, b, m_rows, m, cols);
}

#define SRCC_INSTANTIATE(T)                                                                  \
  template Buffer<T> dense_left_block(DeviceCtx<T>, const Stack&, std::size_t,               \
                                      const std::vector<Buffer<T>>&, const Buffer<T>&,       \
                                      std::size_t);                                          \
  template Reduced<T> reduce_by_svd(Kernels<T>&, Buffer<T>&, std::size_t, std::size_t,       \
                                    std::size_t, double, double, bool*);                     \
  template std::vector<Reduced<T>> reduce_by_range(DeviceCtx<T>, const std::vector<Buffer<T>>&, std::size_t, \
                                                   const std::vector<std::size_t>&, const std::vector<T>&,   \
                                                   std::size_t, std::uint64_t, RankExchange*,                \
                                                   const std::vector<std::size_t>&, const std::vector<double>&, \
                                                   std::int64_t);                                            \
  template std::vector<Reduced<T>> reduce_sum_by_svd(DeviceCtx<T>, std::vector<Buffer<T>>&, std::size_t,        \
                                                     const std::vector<std::size_t>&, const std::vector<T>&,  \
                                                     std::size_t, double, double, RankExchange*,              \
                                                     const std::vector<double>&, std::int64_t);               \
  template Reduced<T> reduce_by_core(DeviceCtx<T>, const Buffer<T>&, std::size_t,            \
                                     std::size_t, const Buffer<T>&, std::size_t);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
