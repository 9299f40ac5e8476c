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
    {Method::kSrc, "src", true, true, false, false, true, true, true, no_gemm},
    {Method::kSdc, "sdc", true, false, true, true, true, true, true, svd_macs},
    {Method::kSdcr, "sdcr", true, true, true, false, false, true, true, range_macs},
    {Method::kSvd, "svd", false, false, false, false, true, false, false, no_gemm},
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

Method parse_method(const std::string& text) {
  for (const auto& row : kTable)
    if (row.option && text == row.name) return row.method;
  throw UsageError(opt::kMethod.name() + ": must be " + method_choices() + " (got '" + text + "')");
}

}  // namespace srcc
