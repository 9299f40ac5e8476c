#include "srcc/plan/flops.hpp"

#include <algorithm>
#include <vector>

#include "srcc/train/term_sum.hpp"

namespace srcc {

namespace {

double dim(const Stack& st, std::size_t i, std::size_t j, std::size_t leg) {
  return static_cast<double>(st.layers[i].dims[j][leg]);
}

// src's left step at site j with s columns (sweep/left_step.cpp): one train takes the
// Khatri–Rao block times its site; a stack takes the test tensor into the top layer, the
// environment into the bottom one, the layers between into that, and V_aᵀ E_a per column.
double src_left(const Stack& st, std::size_t j, double s) {
  const std::size_t k = st.depth();
  const double x0 = static_cast<double>(st.up_dim(j)), xk = static_cast<double>(st.down_dim(j));
  const double nl = static_cast<double>(st.fused_left(j)), nr = static_cast<double>(st.fused_right(j));
  if (k == 1) return s * nr * x0 * nl * xk;
  const double l0 = dim(st, 0, j, kLegL), r0 = dim(st, 0, j, kLegR), x1 = dim(st, 0, j, kLegD);
  const double lb = dim(st, k - 1, j, kLegL), rb = dim(st, k - 1, j, kLegR), ub = dim(st, k - 1, j, kLegU);
  double macs = s * xk * (l0 * x1 * r0) * x0 + s * nl * ub * xk * rb;
  double lead = s * nl / lb, trailing = xk * rb;
  for (std::size_t i = k - 1; i-- > 1;) {
    const double l = dim(st, i, j, kLegL), r = dim(st, i, j, kLegR);
    lead /= l;
    macs += lead * dim(st, i, j, kLegU) * r * trailing * l * dim(st, i, j, kLegD);
    trailing *= r;
  }
  return macs + s * r0 * (nr / r0) * (xk * l0 * x1);
}

// The block of site j from `rows` rows of an environment over one side's fused bond, bottom
// layer first (sweep/right_step.cpp): the right step's Z' from S over the right bonds or,
// mirrored (left and right swapped), the dense left step's M_j from C_j over the left ones.
double block(const Stack& st, std::size_t j, double rows, bool mirrored) {
  const std::size_t in = mirrored ? kLegL : kLegR, out = mirrored ? kLegR : kLegL, k = st.depth();
  const double fused_in = static_cast<double>(mirrored ? st.fused_left(j) : st.fused_right(j));
  const double b_in = dim(st, k - 1, j, in);
  double lead = rows * fused_in / b_in, trailing = dim(st, k - 1, j, out) * dim(st, k - 1, j, kLegD);
  double macs = lead * dim(st, k - 1, j, kLegU) * trailing * b_in;
  for (std::size_t i = k - 1; i-- > 0;) {
    const double r = dim(st, i, j, in), l = dim(st, i, j, out);
    lead /= r;
    macs += lead * dim(st, i, j, kLegU) * l * trailing * r * dim(st, i, j, kLegD);
    trailing *= l;
  }
  return macs;
}

// The right step at site j: the block from the b rows of S, the sketch Y = C_j Z'ᵀ with
// `env_rows` of C_j, and S ← η^H Z' for the core's r rows.
double right_step(const Stack& st, std::size_t j, double env_rows, double b, double r) {
  const double z_rows = b * static_cast<double>(st.up_dim(j) * st.down_dim(j));
  const double z_cols = static_cast<double>(st.fused_left(j));
  return block(st, j, b, false) + env_rows * z_rows * z_cols + r * z_rows * z_cols;
}

// A train of bonds `bond` (n + 1 values, 1 at the ends) and physical legs `phys` (u·d per site)
// right-canonicalised: each core's R factor into its left neighbour, whose right bond becomes
// the factor's rank (`bond` is updated).
double right_canonical(std::vector<double>& bond, const std::vector<double>& phys) {
  double macs = 0;
  for (std::size_t j = phys.size(); j-- > 1;) {
    const double kq = std::min(bond[j], phys[j] * bond[j + 1]);
    macs += bond[j - 1] * kq * phys[j - 1] * bond[j];
    bond[j] = kq;
  }
  return macs;
}

// … left-canonicalised (the fit sweeps' start): each R factor into the right neighbour.
double left_canonical(const std::vector<double>& bond, const std::vector<double>& phys) {
  double macs = 0;
  for (std::size_t j = 0; j + 1 < phys.size(); ++j) {
    const double kq = std::min(bond[j] * phys[j], bond[j + 1]);
    macs += kq * kq * phys[j + 1] * bond[j + 2];
  }
  return macs;
}

// truncate_train from bonds `from` to at most `to`: Σ V^H pushed right at every cut, then the
// result right-canonicalised.
double truncation(const std::vector<double>& from, const std::vector<double>& to, const std::vector<double>& phys) {
  double macs = 0;
  std::vector<double> kept = from;
  for (std::size_t j = 0; j + 1 < phys.size(); ++j) {
    kept[j + 1] = std::min({to[j + 1], kept[j] * phys[j], from[j + 1]});
    macs += kept[j + 1] * phys[j + 1] * from[j + 2] * from[j + 1];
  }
  return macs + right_canonical(kept, phys);
}

// The bonds of a train of n sites whose cut j holds min(cap, bound at cut j), 1 at both ends.
std::vector<double> bonds_at(const std::vector<std::size_t>& bounds, std::size_t n, double cap) {
  std::vector<double> b(n + 1, 1.0);
  for (std::size_t j = 1; j < n; ++j) b[j] = std::min(cap, static_cast<double>(bounds[j]));
  return b;
}

// The rows of the dense left sweep's environments: each reduction keeps at most s, and at most
// the rank M_j can have, which is bounded from the left only (rows·x_0·x_k) and by the columns
// of the terms' M_j together.
std::vector<double> dense_ranks(const Stack& st, const std::vector<double>& columns, double s) {
  const std::size_t n = st.length();
  std::vector<double> rank(n + 1, 1.0);
  for (std::size_t j = 0; j + 1 < n; ++j)
    rank[j + 1] = std::min({s, rank[j] * static_cast<double>(st.up_dim(j) * st.down_dim(j)), columns[j]});
  return rank;
}

// A dense left sweep whose environment at cut j has rank[j] rows and keeps rank[j + 1] after
// the reduction `macs_of` (the method's, or a fit's projection onto the result's cores).
template <class Reduce>
double dense_left(const Stack& st, const std::vector<double>& rank, Reduce&& macs_of) {
  double macs = 0;
  for (std::size_t j = 0; j + 1 < st.length(); ++j) {
    const double rows = rank[j];
    const ReductionShape shape{rows * static_cast<double>(st.up_dim(j) * st.down_dim(j)),
                               static_cast<double>(st.fused_right(j)), rank[j + 1]};
    macs += block(st, j, rows, true) + macs_of(shape);
  }
  return macs;
}

double right_sweep(const Stack& st, const std::vector<double>& env_rows, const std::vector<double>& out) {
  double macs = 0;
  // Site 0's block is the first core itself: no sketch, no S.
  for (std::size_t j = 0; j < st.length(); ++j)
    macs += j == 0 ? block(st, 0, out[1], false) : right_step(st, j, env_rows[j], out[j + 1], out[j]);
  return macs;
}

}  // namespace

double needed_flops(const std::vector<const Stack*>& terms, std::size_t k, const SweepOptions& sweep,
                    std::size_t sketch_columns, DType dtype) {
  const Stack& stack = *terms.at(k);
  if (stack.layers.empty()) return 0;
  const std::size_t n = stack.length();
  const std::vector<std::size_t> bounds = terms.size() == 1 ? stack.bond_bounds() : sum_bond_bounds(terms);
  std::vector<double> phys, columns(n, 0.0), input(n + 1, 1.0);
  for (std::size_t j = 0; j < n; ++j) {
    phys.push_back(static_cast<double>(stack.up_dim(j) * stack.down_dim(j)));
    for (const Stack* t : terms) columns[j] += static_cast<double>(t->fused_right(j));
    if (j > 0) input[j] = static_cast<double>(stack.fused_left(j));
  }
  const double per_flop = dtype_is_complex(dtype) ? 8.0 : 2.0;
  const double s = static_cast<double>(sketch_columns);
  const double chi = sweep.chi > 0 ? static_cast<double>(sweep.chi) : s;
  const std::vector<double> out = bonds_at(bounds, n, chi);
  if (sweep.method == Method::kSvd) {
    const double canonical = right_canonical(input, phys);
    return (canonical + truncation(input, out, phys)) * per_flop;
  }
  if (n == 2) return right_sweep(stack, {0, 0}, {1, 1, 1}) * per_flop;  // the contraction; then one SVD
  const MethodRow& row = method_row(sweep.method);
  // The right sweep's bonds: the whole sketch when a truncation sweep follows.
  const std::vector<double> swept = sweep.final_truncation() ? bonds_at(bounds, n, s) : out;
  double macs = 0;
  // The sketch of cut j takes at most as many of its environment's rows (s for src, the kept
  // rank for the dense methods) as the cut's bond can have.
  std::vector<double> env = bonds_at(bounds, n, s);
  if (row.dense_left) {
    const std::vector<double> rank = dense_ranks(stack, columns, s);
    macs += dense_left(stack, rank, [&](ReductionShape r) {
      r.terms = terms.size();
      return row.reduction_macs(r);
    });
    for (std::size_t j = 0; j < n; ++j) env[j] = std::min(env[j], rank[j]);
  } else {
    for (std::size_t j = 0; j + 1 < n; ++j) macs += src_left(stack, j, s);
  }
  macs += right_sweep(stack, env, swept);
  if (sweep.final_truncation()) macs += truncation(swept, out, phys);
  // Each fit sweep: φ left-canonicalised, a dense left sweep projecting onto φ's cores, a right
  // sweep at the result's bonds.
  const double fit = left_canonical(out, phys) +
                     dense_left(stack, out, [](const ReductionShape& r) { return r.rank * r.m * r.cols; }) +
                     right_sweep(stack, out, out);
  macs += static_cast<double>(sweep.fit_sweep_cap()) * fit;
  return macs * per_flop;
}

double needed_flops(const Stack& stack, const SweepOptions& sweep, std::size_t sketch_columns, DType dtype) {
  return needed_flops({&stack}, 0, sweep, sketch_columns, dtype);
}

PredictedTime predicted_time(double flops, double gemm_rate) {
  if (!(gemm_rate > 0)) return {};
  return {flops / (kSweepRateBest * gemm_rate), flops / (kSweepRateWorst * gemm_rate)};
}

}  // namespace srcc
