#include "srcc/plan/step_memory.hpp"

#include <algorithm>

namespace srcc {

std::size_t left_step_column_elements(const Stack& st, std::size_t j) {
  const std::size_t k = st.layers.size(), x0 = st.up_dim(j), xk = st.down_dim(j);
  const auto& top = st.layers.front().dims[j];
  if (k == 1) return x0 * top[kLegL] * xk;
  const auto& bot = st.layers.back().dims[j];
  const std::size_t v = xk * top[kLegL] * top[kLegD] * top[kLegR];
  std::size_t lead = st.fused_left(j) / bot[kLegL], trailing = xk * bot[kLegR];
  std::size_t prev = lead * bot[kLegU] * trailing, worst = prev;
  for (std::size_t i = k - 1; i-- > 1;) {
    const auto& d = st.layers[i].dims[j];
    lead /= d[kLegL];
    const std::size_t stage = lead * d[kLegU] * d[kLegR] * trailing;
    worst = std::max(worst, prev + stage);
    prev = stage;
    trailing *= d[kLegR];
  }
  if (xk > 1) worst = std::max(worst, 2 * prev);
  return v + worst;
}

namespace {

// The two largest consecutive stages of a block built bottom layer first from `rows` rows of an
// environment over the fused bond on one side (right_step.cpp; with `mirrored` the dense left
// step's, which is the same code with each layer's left and right bonds swapped).
std::size_t block_stages(const Stack& st, std::size_t j, std::size_t rows, bool mirrored) {
  const std::size_t in = mirrored ? kLegL : kLegR, out = mirrored ? kLegR : kLegL;
  const std::size_t k = st.layers.size();
  const std::size_t fused_in = mirrored ? st.fused_left(j) : st.fused_right(j);
  std::size_t lead = rows * fused_in, prev = rows * fused_in, worst = 0, trail = 1;
  for (std::size_t i = k; i-- > 0;) {
    const auto& d = st.layers[i].dims[j];
    lead /= d[in];
    trail *= d[out] * (i + 1 == k ? d[kLegD] : 1);
    const std::size_t stage = lead * d[kLegU] * trail;
    worst = std::max(worst, prev + stage);
    prev = stage;
  }
  return worst;
}

}  // namespace

StepShape step_shape(const Stack& st, std::size_t j, std::size_t s, std::size_t bond) {
  StepShape sh;
  const std::size_t n = st.length(), u = st.up_dim(j), dd = st.down_dim(j);
  const std::size_t nl = st.fused_left(j), nr = st.fused_right(j);
  for (const auto& layer : st.layers) {
    const auto& d = layer.dims[j];
    sh.sites += d[0] * d[1] * d[2] * d[3];
  }
  sh.env_row = nl;
  sh.env = j == 0 ? s : s * nl;
  if (j + 1 < n) {
    sh.env_next = s * nr;
    sh.left_col = left_step_column_elements(st, j);
    // The dense left step (sdc, sdcr, fit sweeps): M_j whole (s·x_0·x_k rows, twice when the
    // down leg moves) and its build stages; then sdc's reduction of it — for a tall Mᵀ a copy
    // for its QR (m × nr), three m × m factors and LAPACK's work on them, about 4·m² more, and
    // the next environment (s × nr); for a wide one the SVD's factors U (nr × nr) and V^H
    // (nr × m) and 4·nr² — or sdcr's M·G and Q (m × s each) and the next environment (s × nr),
    // which bounds a fit's P^H·M too.
    const std::size_t m = s * u * dd;
    sh.dense_left = block_stages(st, j, s, true) + (dd > 1 ? 2 : 1) * m * nr;
    sh.dense_svd = nr >= m ? m * nr + 7 * m * m + s * nr : nr * nr + nr * m + 4 * nr * nr;
    sh.dense_range = 2 * m * s + s * nr;
  }
  // Right step: the block Z' (twice when the down leg moves), its build stages (bottom layer
  // first, two consecutive stages alive), the incoming S, the sketch Y and the factor Q (each
  // rows × s), the core and S for the next site.
  const std::size_t rows = bond * u * dd;
  sh.right = block_stages(st, j, bond, false) + 2 * rows * nl + 3 * rows * s + bond * nl + 2 * s * s;
  return sh;
}

std::vector<StepShape> step_shapes(const Stack& stack, std::size_t s) {
  const std::size_t n = stack.length();
  std::vector<std::size_t> bonds(n, 1);
  std::size_t bond = 1;  // output bond to the right of site j, at most s
  for (std::size_t j = n; j-- > 0;) {
    bonds[j] = bond;
    bond = std::min(s, bond * stack.up_dim(j) * stack.down_dim(j));
  }
  std::vector<StepShape> out;
  for (std::size_t j = 0; j < n; ++j) out.push_back(step_shape(stack, j, s, bonds[j]));
  return out;
}

}  // namespace srcc
