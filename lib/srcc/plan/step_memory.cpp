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
  }
  // Right step: the block Z' (twice when the down leg moves), its build stages (bottom layer
  // first, two consecutive stages alive), the incoming S, the sketch Y and the factor Q (each
  // rows × s), the core and S for the next site.
  const std::size_t rows = bond * u * dd;
  const std::size_t k = st.layers.size();
  std::size_t lead = bond * nr, prev = bond * nr, worst = 0, trail = 1;
  for (std::size_t i = k; i-- > 0;) {
    const auto& d = st.layers[i].dims[j];
    lead /= d[kLegR];
    trail *= d[kLegL] * (i + 1 == k ? d[kLegD] : 1);
    const std::size_t stage = lead * d[kLegU] * trail;
    worst = std::max(worst, prev + stage);
    prev = stage;
  }
  sh.right = worst + 2 * rows * nl + 3 * rows * s + bond * nl + 2 * s * s;
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
