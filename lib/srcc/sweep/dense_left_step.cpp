// The dense left step (dense_left_step.hpp). Index conventions as in sweep.cpp.
//
// Cost per site for an MPO (bond D) times an MPS (bond χ), environment rows s, physical d:
// forming M_j takes s·(dDχ² + d²D²χ) multiply-adds (the right step's count with χ̄ = s: the
// sketch's contraction into the top layer, which SRC does first, cannot be done here); then
// sdc's SVD of the (s·d) × (Dχ) matrix, about 4(sd)²·Dχ + 8(sd)³, or sdcr's two products
// 2·s·(sd)·Dχ and a QR of (sd) × s, or the fit's one product s·(sd)·Dχ.
#include "srcc/sweep/dense_left_step.hpp"

#include <algorithm>
#include <cmath>
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

// Scales the rank × cols rows at `e` so that the whole has norm √rank: the environments of a
// long train neither underflow nor overflow, and the sketched range does not change.
// Returns the logarithm of the factor applied (Reduced::log_scale).
template <class T> double to_sketch_scale(Kernels<T>& K, std::size_t rank, std::size_t cols, T* e) {
  const double norm = static_cast<double>(K.norm(rank * cols, e));
  if (!(norm > 0 && std::isfinite(norm))) return 0;
  const auto factor = static_cast<real_t<T>>(std::sqrt(static_cast<double>(rank)) / norm);
  K.scale(rank * cols, factor, e);
  return std::log(static_cast<double>(factor));
}

// C_{j+1} = op(U) · M for the rank × m matrix op(U) (U at `u`, leading dimension `ld`), at
// sketch scale.
template <class T>
Reduced<T> project(DeviceCtx<T> c, Op op, const T* u, std::size_t ld, std::size_t rank,
                   const Buffer<T>& m_rows, std::size_t m, std::size_t cols) {
  Reduced<T> out;
  out.rank = rank;
  out.env = c.K.allocate(rank * cols);
  c.gemm(op, Op::kNone, rank, cols, m, T(1), u, ld, m_rows.data(), cols, T(0), out.env.data(), cols);
  out.log_scale = to_sketch_scale(c.K, rank, cols, out.env.data());
  return out;
}

}  // namespace

template <class T>
Reduced<T> reduce_by_svd(Kernels<T>& K, Buffer<T>& m_rows, std::size_t m, std::size_t cols,
                         std::size_t cap, double cutoff, double tol) {
  // M row-major m × cols is Mᵀ column-major cols × m. Its SVD Mᵀ = U' Σ V'^H gives
  // M = conj(V') Σ U'ᵀ, so Σ V^H of M has rows σ_i U'[:, i]ᵀ: the first columns of U',
  // contiguous, each scaled by its σ_i.
  const std::size_t kk = std::min(m, cols);
  Buffer<T> u = K.allocate(cols * kk), vt = K.allocate(kk * m);
  std::vector<real_t<T>> sigma(kk);
  K.svd(cols, m, m_rows.data(), u.data(), sigma.data(), vt.data());
  Reduced<T> out;
  out.rank = truncation_rank(sigma, cutoff, tol, cap);
  double total = 0;
  for (auto s : sigma) total += static_cast<double>(s) * static_cast<double>(s);
  out.discarded = total > 0 ? discarded_norm(sigma, out.rank) / std::sqrt(total) : 0.0;
  for (std::size_t i = 0; i < out.rank; ++i) K.scale(cols, sigma[i], u.data() + i * cols);
  out.log_scale = to_sketch_scale(K, out.rank, cols, u.data());
  out.env = std::move(u);  // its first rank × cols elements
  return out;
}

template <class T>
Reduced<T> reduce_by_range(DeviceCtx<T> c, const Buffer<T>& m_rows, std::size_t m,
                           std::size_t cols, std::size_t width, std::uint64_t seed) {
  const std::size_t w = std::min({width, m, cols});
  Rng rng(seed);
  Buffer<T> g = c.mover.up(draw_gaussian<T>(rng, cols * w), "sketch", -1);  // row-major cols × w
  // Y = M G as the column-major m × w matrix the QR takes: row-major w × m = Gᵀ Mᵀ.
  Buffer<T> y = c.K.allocate(w * m);
  c.gemm(Op::kTrans, Op::kTrans, w, m, cols, T(1), g.data(), w, m_rows.data(), cols, T(0),
         y.data(), m);
  Buffer<T> r = c.K.allocate(w * w);
  c.K.qr(m, w, y.data(), r.data());
  // Q column-major m × w is Qᵀ row-major; C_{j+1} = Q^H M = conj(Qᵀ) · M.
  Buffer<T> q_conj = c.K.allocate(w * m);
  c.K.conj(w * m, y.data(), q_conj.data());
  return project(c, Op::kNone, q_conj.data(), m, w, m_rows, m, cols);
}

template <class T>
Reduced<T> reduce_by_core(DeviceCtx<T> c, const Buffer<T>& m_rows, std::size_t m,
                          std::size_t cols, const Buffer<T>& core, std::size_t b) {
  return project(c, Op::kConjTrans, core.data(), b, b, m_rows, m, cols);
}

#define SRCC_INSTANTIATE(T)                                                                  \
  template Buffer<T> dense_left_block(DeviceCtx<T>, const Stack&, std::size_t,               \
                                      const std::vector<Buffer<T>>&, const Buffer<T>&,       \
                                      std::size_t);                                          \
  template Reduced<T> reduce_by_svd(Kernels<T>&, Buffer<T>&, std::size_t, std::size_t,       \
                                    std::size_t, double, double);                            \
  template Reduced<T> reduce_by_range(DeviceCtx<T>, const Buffer<T>&, std::size_t,           \
                                      std::size_t, std::size_t, std::uint64_t);              \
  template Reduced<T> reduce_by_core(DeviceCtx<T>, const Buffer<T>&, std::size_t,            \
                                     std::size_t, const Buffer<T>&, std::size_t);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
