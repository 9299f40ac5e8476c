#include "srcc/plan/methods.hpp"

#include <algorithm>

#include "srcc/core/error.hpp"
#include "srcc/core/options.hpp"

namespace srcc {

namespace {

double no_gemm(const ReductionShape&) { return 0; }

// sdc: one SVD of M_j (not a GEMM) for a product; for a sum, a QR per term, then per term
// U^H R_kᵀ (rank × h × m) and its product with Q_kᵀ (rank × cols × h), h = min(cols, m).
double svd_macs(const ReductionShape& r) {
  if (r.terms == 1) return 0;
  const double h = std::min(r.cols, r.m);
  return r.rank * h * r.m + r.rank * r.cols * h;
}

// sdcr: Y = M·G (m × cols × rank) and C_{j+1} = Q^H M (rank × cols × m), per term.
double range_macs(const ReductionShape& r) { return 2 * r.rank * r.m * r.cols; }

const std::vector<MethodRow> kTable = {
    {Method::kSrc, "src", "Gaussian test tensors, with a leave-one-out error estimate per cut",
     true, true, false, false, true, true, true, no_gemm},
    {Method::kSdc, "sdc", "truncated SVDs from the left, as zip-up forms them: deterministic, no per-cut estimate",
     true, false, true, true, true, true, true, svd_macs},
    {Method::kSdcr, "sdcr", "a randomized range finder in place of each SVD; --tol not accepted",
     true, true, true, false, false, true, true, range_macs},
    {Method::kSvd, "svd", "truncate's: right-canonical form, then one SVD sweep", false, false, false, false, true, false,
     false, no_gemm},
};

}  // namespace

const std::vector<MethodRow>& method_table() { return kTable; }

const MethodRow& method_row(Method m) {
  for (const auto& row : kTable)
    if (row.method == m) return row;
  return kTable.front();
}

std::string method_name(Method m) { return std::string(method_row(m).name); }

std::string method_choices() {
  std::vector<std::string_view> names;
  for (const auto& row : kTable)
    if (row.option) names.push_back(row.name);
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + std::string(names[i]);
  return out;
}

std::string method_summaries() {
  std::string out;
  for (const auto& row : kTable)
    if (row.option) out += (out.empty() ? "" : ", ") + std::string(row.name) + " (" + std::string(row.summary) + ")";
  return out;
}

Method parse_method(const std::string& text) {
  for (const auto& row : kTable)
    if (row.option && text == row.name) return row.method;
  throw UsageError(opt::kMethod.name() + ": must be " + method_choices() + " (got '" + text + "')");
}

}  // namespace srcc
