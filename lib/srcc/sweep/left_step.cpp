// The left step. Index conventions as in sweep.cpp: a stack has k layers (0 = top), at site j
// layer i has legs (l_i, r_i, u_i, d_i) with d_i = u_{i+1}; x_0 = u_0, x_k = d_{k-1}.
//
// C_j[a, L_0..L_{k-1}] has a batch index a (the sketch column), never summed. A single train
// multiplies the Khatri–Rao product C_j[a, L] Ω_j[a, x_0, x_1] by its site in one GEMM. A stack
// of k >= 2 layers never forms that product: the sketch is contracted into the top layer
// (V = Ω·W_0), the environment into the bottom layer (E = C·W_{k-1}, one GEMM over all
// columns), the layers between into E, and each column's C_{j+1} is V_aᵀ E_a.
//
// Cost per site for an MPO (bond D) times an MPS (bond χ), sketch s, physical d:
// s·(d²D² + dDχ² + dD²χ) multiply-adds (docs/PERFORMANCE.md has the table).
#include "srcc/sweep/left_step.hpp"

#include <algorithm>

#include "srcc/core/scaled_norm.hpp"
#include "srcc/plan/step_memory.hpp"

namespace srcc {

namespace {

// A single train: the Khatri–Rao block T[a, x_0, L, x_1] = C[a, L] Ω[a, x_0, x_1] and one GEMM
// with the site (r | x_0 L x_1), so C_{j+1}[a, R] is a single product over all columns.
// Returns ‖out‖ (here and in left_stack).
template <class T>
real_t<T> left_single(DeviceCtx<T>& c, const Stack& st, std::size_t j, std::size_t cols, const T* env,
                      const T* omega, const Buffer<T>& site, T* out) {
  const std::size_t l = st.dim(0, j, kLegL), r = st.dim(0, j, kLegR), up = st.dim(0, j, kLegU),
                    dn = st.dim(0, j, kLegD);
  Buffer<T> kr = c.K.allocate(cols * up * l * dn);
  c.K.khatri_rao(cols, l, up, dn, env, omega, kr.data());
  return c.gemm.with_norm(Op::kNone, Op::kTrans, cols, r, up * l * dn, T(1), kr.data(),
                          up * l * dn, 0, site.data(), up * l * dn, 0, T(0), out, r, 0, 1);
}

// A stack of k >= 2 layers, in the order with the fewest multiply-adds:
//   V[a, x_k, L_0, x_1, R_0] = Ω[a, x_k, x_0] · W_0[x_0, (L_0 x_1 R_0)]     one GEMM, k = x_0
//   E[a, L_0..L_{k-2}, x_{k-1}, x_k, R_{k-1}] = C[(a L_0..), L_{k-1}] · W_{k-1}   one GEMM
//   layers k-2 … 1 absorbed into E, contracting (L_i, x_{i+1})      batched, one W shared
//   C_{j+1}[a, R_0, R_1..] = V_a[(x_k L_0 x_1), R_0]ᵀ · E_a[(x_k L_0 x_1), R_1..]   per column
// For an MPO times an MPS with D = χ = χ̄ = N this is 4 N⁴ + 4 N³ multiply-adds per site, where
// contracting the Khatri–Rao block C ⊙ Ω through the layers takes 6 N⁴.
template <class T>
real_t<T> left_stack(DeviceCtx<T>& c, const Stack& st, std::size_t j, std::size_t cols, const T* env,
                     const T* omega, const std::vector<Buffer<T>>& forms, T* out) {
  const std::size_t k = st.depth();
  const std::size_t x0 = st.up_dim(j), xk = st.down_dim(j), nl = st.fused_left(j),
                    nr = st.fused_right(j);
  const std::size_t l0 = st.dim(0, j, kLegL), r0 = st.dim(0, j, kLegR), x1 = st.dim(0, j, kLegD);
  const std::size_t bottom = k - 1, lb = st.dim(bottom, j, kLegL);
  const std::size_t v_cols = l0 * x1 * r0;
  Buffer<T> v = c.K.allocate(cols * xk * v_cols);
  c.gemm(Op::kNone, Op::kNone, cols * xk, v_cols, x0, T(1), omega, x0, forms[0].data(), v_cols,
         T(0), v.data(), v_cols);
  // E: rows (a, L_0 … L_{k-2}), columns (x_{k-1}, x_k, R_{k-1}).
  std::size_t lead = cols * (nl / lb);
  std::size_t trailing = xk * st.dim(bottom, j, kLegR);
  const std::size_t e_cols = st.dim(bottom, j, kLegU) * trailing;
  Buffer<T> e = c.K.allocate(lead * e_cols);
  c.gemm(Op::kNone, Op::kNone, lead, e_cols, lb, T(1), env, lb, forms[bottom].data(), e_cols,
         T(0), e.data(), e_cols);
  for (std::size_t i = bottom; i-- > 1;) {
    const std::size_t l = st.dim(i, j, kLegL), r = st.dim(i, j, kLegR),
                      up = st.dim(i, j, kLegU), dn = st.dim(i, j, kLegD);
    lead /= l;
    Buffer<T> next = c.K.allocate(lead * up * r * trailing);
    c.gemm(Op::kNone, Op::kNone, up * r, trailing, l * dn, T(1), forms[i].data(), l * dn, 0,
           e.data(), trailing, l * dn * trailing, T(0), next.data(), trailing,
           up * r * trailing, lead);
    e = std::move(next);
    trailing *= r;
  }
  // E is [a, L_0, x_1, R_1 … R_{k-2}, x_k, R_{k-1}]: x_k goes in front of L_0, next to the
  // rows of V_a (a move of whole R_{k-1} runs; nothing to move for an MPS at the bottom).
  const std::size_t contracted = xk * l0 * x1, rest = nr / r0;
  if (xk > 1) {
    Buffer<T> moved = c.K.allocate(cols * contracted * rest);
    c.K.swap_axes(cols, l0 * x1 * (trailing / (xk * st.dim(bottom, j, kLegR))), 1, xk,
                  st.dim(bottom, j, kLegR), e.data(), moved.data());
    e = std::move(moved);
  }
  return c.gemm.with_norm(Op::kTrans, Op::kNone, r0, rest, contracted, T(1), v.data(), r0,
                          contracted * r0, e.data(), rest, contracted * rest, T(0), out, rest,
                          nr, cols);
}

}  // namespace

template <class T>
Buffer<T> advance_left(typename Devices<T>::Ctx c, const Stack& st, std::size_t j, std::size_t s,
                       std::size_t batch, Buffer<T>& env, real_t<T> env_scale,
                       const Buffer<T>& omega, const std::vector<Buffer<T>>& forms,
                       double& norm, Buffer<T> out) {
  const std::size_t nl = st.fused_left(j), nr = st.fused_right(j);
  const std::size_t ud = st.up_dim(j) * st.down_dim(j);
  const std::size_t unit_bytes = left_step_column_elements(st, j) * sizeof(T);
  std::vector<double> norms;
  // Sketch columns are independent: each piece of a batch is a task of its own, with no
  // synchronisation between its products.
  for (std::size_t a0 = 0; a0 < s; a0 += batch) {
    const std::size_t cols = std::min(batch, s - a0);
    const std::size_t piece = c.K.piece_units(cols, unit_bytes);
    const std::size_t pieces = (cols + piece - 1) / piece, done = norms.size();
    norms.resize(done + pieces);
    c.K.for_each_task(pieces, [&](std::size_t p) {
      const std::size_t first = a0 + p * piece, count = std::min(piece, a0 + cols - first);
      if (env_scale != 1) c.K.scale(count * nl, env_scale, env.data() + first * nl);
      // The piece's norm comes from its last product, taken as it stores its result.
      norms[done + p] = static_cast<double>(
          st.depth() == 1
              ? left_single(c, st, j, count, env.data() + first * nl, omega.data() + first * ud,
                            forms[0], out.data() + first * nr)
              : left_stack(c, st, j, count, env.data() + first * nl, omega.data() + first * ud,
                           forms, out.data() + first * nr));
    });
  }
  norm = scaled_norm(norms.data(), norms.size());  // no overflow or underflow in the squares
  return out;
}

#define SRCC_INSTANTIATE(T)                                                                    \
  template Buffer<T> advance_left(typename Devices<T>::Ctx, const Stack&, std::size_t,         \
                                  std::size_t, std::size_t, Buffer<T>&, real_t<T>,             \
                                  const Buffer<T>&, const std::vector<Buffer<T>>&, double&,    \
                                  Buffer<T>);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
