// The right step's block. From S[b, R_0..R_{k-1}] (b = output bond to the right) the layers,
// bottom first, give Z[b, x_0, L_0..L_{k-1}, x_k]; with the down leg moved next to x_0 this is
// the matrix Z'[(b, x_0, x_k), L] (index conventions as in sweep.cpp). Bottom first, the
// largest contraction (the top layer, contracting (R_0, x_1)) meets the smaller operand.
//
// Cost per site for an MPO (bond D) times an MPS (bond χ), output bond χ̄, physical d:
// χ̄·(dDχ² + d²D²χ) multiply-adds (docs/PERFORMANCE.md has the table).
#include "srcc/sweep/right_step.hpp"

#include <algorithm>

#include "srcc/core/scaled_norm.hpp"

namespace srcc {

namespace {

// The block for `count` rows of S (at s), written to `out` (count rows of Z'); returns their
// norm, taken by the last product as it stores them (moving the down leg keeps it).
template <class T>
real_t<T> right_rows(DeviceCtx<T>& c, const Stack& st, std::size_t j, const std::vector<Buffer<T>>& w,
                     const T* s, std::size_t count, T* out) {
  const std::size_t bottom = st.depth() - 1;
  const std::size_t lb = st.dim(bottom, j, kLegL), rb = st.dim(bottom, j, kLegR),
                    ub = st.dim(bottom, j, kLegU), db = st.dim(bottom, j, kLegD);
  const std::size_t u = st.up_dim(j), dd = st.down_dim(j), nl = st.fused_left(j);
  // The down leg moves next to x_0 at the end, unless that is a free reshape.
  const bool move_down = dd > 1 && nl > 1;
  // Bottom layer: one GEMM over all the chunk's rows (b, R_0 … R_{k-2}) of S.
  std::size_t lead = count * (st.fused_right(j) / rb);
  std::size_t trailing = lb * db;  // the axes after the next contracted pair
  Buffer<T> cur;
  T* cur_data = out;  // the last product writes straight into `out`
  if (bottom > 0 || move_down) {
    cur = c.K.allocate(lead * ub * trailing);
    cur_data = cur.data();
  }
  // Only the last product, which writes Z', takes the norm.
  real_t<T> norm = c.gemm.product(bottom == 0, Op::kNone, Op::kNone, lead, ub * trailing, rb,
                                  T(1), s, rb, 0, w[bottom].data(), ub * trailing, 0, T(0),
                                  cur_data, ub * trailing, 0, 1);
  // Layers above: [lead, R_i, x_{i+1}, trailing] → [lead, x_i, L_i, trailing], W_i shared.
  for (std::size_t i = bottom; i-- > 0;) {
    const std::size_t l = st.dim(i, j, kLegL), r = st.dim(i, j, kLegR),
                      up = st.dim(i, j, kLegU), dn = st.dim(i, j, kLegD);
    lead /= r;
    Buffer<T> next;
    T* next_data = out;
    if (i > 0 || move_down) {
      next = c.K.allocate(lead * up * l * trailing);
      next_data = next.data();
    }
    norm = c.gemm.product(i == 0, Op::kNone, Op::kNone, up * l, trailing, r * dn, T(1),
                          w[i].data(), r * dn, 0, cur_data, trailing, r * dn * trailing, T(0),
                          next_data, trailing, up * l * trailing, lead);
    cur = std::move(next);
    cur_data = next_data;
    trailing *= l;
  }
  if (move_down) c.K.swap_axes(count * u, nl, 1, dd, 1, cur_data, out);
  return norm;
}

}  // namespace

// Rows b of S give rows b of Z' and nothing else, so the kernels may cut them (row_cut): each
// task an equal range of rows, taken chunk by chunk, so that a chunk's intermediates (the bottom
// layer's product above all) stay in cache for the next layer.
template <class T>
Buffer<T> right_block(typename Devices<T>::Ctx c, const Stack& st, std::size_t j,
                      const std::vector<Buffer<T>>& w, const Buffer<T>& s_env, std::size_t b,
                      double* norm) {
  const std::size_t row_in = st.fused_right(j);
  const std::size_t row_out = st.up_dim(j) * st.fused_left(j) * st.down_dim(j);
  Buffer<T> z = c.K.allocate(b * row_out);
  if (norm != nullptr) *norm = 0;
  if (b == 0) return z;
  const std::size_t bottom = st.depth() - 1;
  // A row's bottom-layer product and its rows of Z'.
  const std::size_t row_elements = (row_in / st.dim(bottom, j, kLegR)) *
                                       st.dim(bottom, j, kLegU) * st.dim(bottom, j, kLegL) *
                                       st.dim(bottom, j, kLegD) +
                                   row_out;
  const auto cut = c.K.row_cut(b, row_elements * sizeof(T));
  const std::size_t tasks = cut.tasks, chunk = cut.chunk;
  // Chunk c's norm at norms[c]: task t numbers its chunks from t·per_task (a task has at most
  // ⌈b / tasks⌉ rows); slots a task does not use stay 0.
  const std::size_t per_task = ((b + tasks - 1) / tasks + chunk - 1) / chunk;
  std::vector<double> norms(tasks * per_task, 0.0);
  c.K.for_each_task(tasks, [&](std::size_t t) {
    const std::size_t first = b * t / tasks, last = b * (t + 1) / tasks;
    for (std::size_t b0 = first, n = t * per_task; b0 < last; b0 += chunk, ++n) {
      const std::size_t count = std::min(chunk, last - b0);
      norms[n] = static_cast<double>(
          right_rows(c, st, j, w, s_env.data() + b0 * row_in, count, z.data() + b0 * row_out));
    }
  });
  if (norm != nullptr) *norm = scaled_norm(norms.data(), norms.size());
  return z;
}

#define SRCC_INSTANTIATE(T)                                                                  \
  template Buffer<T> right_block(typename Devices<T>::Ctx, const Stack&, std::size_t,        \
                                 const std::vector<Buffer<T>>&, const Buffer<T>&, std::size_t, \
                                 double*);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
