#include "srcc/train/train.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include "srcc/core/error.hpp"
#include "srcc/core/tensor.hpp"

namespace srcc {

TrainRef parse_train_ref(std::string_view arg) {
  if (arg.empty()) throw UsageError("empty train argument (expected FILE.h5 or FILE.h5:/group)");
  // The group starts at the last ":/" so that file names with colons still work.
  const auto pos = arg.rfind(":/");
  if (pos == std::string_view::npos) return {std::string(arg), ""};
  return {std::string(arg.substr(0, pos)), std::string(arg.substr(pos + 1))};
}

std::string_view train_format_name(TrainFormat f) {
  switch (f) {
    case TrainFormat::kAuto: return "auto";
    case TrainFormat::kSrcc: return "srcc";
    case TrainFormat::kTenpy: return "tenpy";
    case TrainFormat::kItensor: return "itensor";
  }
  return "auto";
}

TrainFormat parse_train_format(std::string_view text, std::string_view flag) {
  for (TrainFormat f : {TrainFormat::kAuto, TrainFormat::kSrcc, TrainFormat::kTenpy, TrainFormat::kItensor})
    if (text == train_format_name(f)) return f;
  throw UsageError(std::string(flag) + ": unknown format '" + std::string(text) +
                   "' (expected auto, srcc, tenpy or itensor)");
}

std::string TrainInfo::dataset_path(std::size_t site) const {
  if (site < site_paths.size() && !site_paths[site].empty()) return site_paths[site];
  return (group == "/" ? std::string() : group) + "/" + std::to_string(site);
}

std::string TrainInfo::where(std::size_t site) const { return file + ":" + dataset_path(site); }

DType TrainInfo::dtype() const {
  DType t = dtypes.empty() ? DType::kFloat32 : dtypes.front();
  for (DType d : dtypes) t = promote(t, d);
  return t;
}

std::size_t TrainInfo::max_bond() const {
  std::size_t b = 1;
  for (const auto& d : dims) b = std::max({b, d[kLegL], d[kLegR]});
  return b;
}

DType Stack::dtype() const {
  DType t = layers.front().dtype();
  for (const auto& l : layers) t = promote(t, l.dtype());
  return t;
}

std::vector<std::size_t> Stack::physical_bounds() const {
  const std::size_t n = length();
  constexpr std::size_t kHuge = std::numeric_limits<std::size_t>::max();
  auto times = [](std::size_t a, std::size_t b) { return b != 0 && a > kHuge / b ? kHuge : a * b; };
  std::vector<std::size_t> left(n + 1, 1), right(n + 1, 1);  // physical dimension of sites < j, >= j
  for (std::size_t j = 0; j < n; ++j) left[j + 1] = times(left[j], times(up_dim(j), down_dim(j)));
  for (std::size_t j = n; j-- > 0;) right[j] = times(right[j + 1], times(up_dim(j), down_dim(j)));
  std::vector<std::size_t> bound(n, 1);
  for (std::size_t j = 1; j < n; ++j) bound[j] = std::min(left[j], right[j]);
  return bound;
}

std::vector<std::size_t> Stack::bond_bounds() const {
  std::vector<std::size_t> bound = physical_bounds();
  for (std::size_t j = 1; j < bound.size(); ++j) bound[j] = std::min(bound[j], fused_left(j));
  return bound;
}

std::size_t Stack::largest_bond() const {
  const auto bounds = bond_bounds();
  return *std::max_element(bounds.begin(), bounds.end());
}

std::size_t Stack::fused_left(std::size_t site) const {
  std::size_t p = 1;
  for (const auto& l : layers) p *= l.dims[site][kLegL];
  return p;
}

std::size_t Stack::fused_right(std::size_t site) const {
  std::size_t p = 1;
  for (const auto& l : layers) p *= l.dims[site][kLegR];
  return p;
}

namespace {

void validate_train(const TrainInfo& t) {
  const std::size_t n = t.length();
  if (n == 0) throw InputError(t.where() + ": train has no sites (no dataset \"0\")");
  // Bonds that do not chain in a group without a layout attribute are most often legs stored in
  // another order (ITensor's or a Fortran program's) read in the default one.
  const std::string hint = t.layout_assumed
                               ? "; the group has no layout attribute, so its sites were read as \"" + t.layout +
                                     "\": if they are stored in another leg order, give it one (e.g. layout = \"" +
                                     std::string(t.kind == TrainKind::kMps ? "lpr" : "ludr") + "\")"
                               : "";
  if (t.dims.front()[kLegL] != 1)
    throw InputError(t.where(0) + ": first site has left bond " +
                     std::to_string(t.dims.front()[kLegL]) + ", expected 1 (open boundary)" + hint);
  if (t.dims.back()[kLegR] != 1)
    throw InputError(t.where(n - 1) + ": last site has right bond " +
                     std::to_string(t.dims.back()[kLegR]) + ", expected 1 (open boundary)" + hint);
  for (std::size_t j = 0; j + 1 < n; ++j) {
    if (t.dims[j][kLegR] != t.dims[j + 1][kLegL])
      throw InputError(t.where(j + 1) + ": left bond " + std::to_string(t.dims[j + 1][kLegL]) +
                       " does not match right bond " + std::to_string(t.dims[j][kLegR]) +
                       " of site " + std::to_string(j) +
                       (j < t.dataset_shapes.size() ? " " + shape_string(t.dataset_shapes[j]) : "") + hint);
  }
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t a = 0; a < kSiteRank; ++a)
      if (t.dims[j][a] == 0) throw InputError(t.where(j) + ": dataset has a zero-size leg");
}

}  // namespace

void validate_stack(const Stack& stack) {
  if (stack.layers.empty()) throw UsageError("no trains given");
  const auto& top = stack.layers.front();
  for (std::size_t i = 0; i < stack.depth(); ++i) {
    const auto& t = stack.layers[i];
    validate_train(t);
    if (t.length() != top.length())
      throw InputError(t.where() + ": has " + std::to_string(t.length()) + " sites but " +
                       top.where() + " has " + std::to_string(top.length()));
    if (t.kind == TrainKind::kMps && i + 1 != stack.depth())
      throw InputError(t.where() +
                       ": an MPS can only be the last (rightmost) argument, the state; "
                       "operators (MPOs) come before it");
  }
  for (std::size_t i = 0; i + 1 < stack.depth(); ++i) {
    const auto& upper = stack.layers[i];
    const auto& lower = stack.layers[i + 1];
    for (std::size_t j = 0; j < top.length(); ++j) {
      if (upper.dims[j][kLegD] != lower.dims[j][kLegU])
        throw InputError(upper.where(j) + ": down (input) leg has size " +
                         std::to_string(upper.dims[j][kLegD]) + " but " + lower.where(j) +
                         " has " + (lower.kind == TrainKind::kMps ? "physical" : "up") +
                         " leg of size " + std::to_string(lower.dims[j][kLegU]));
    }
  }
}

}  // namespace srcc

namespace srcc {

std::vector<std::string> uniform_basis(const TrainInfo& t) {
  if (t.basis.empty() || t.basis.front().empty()) return {};
  for (const auto& b : t.basis)
    if (b != t.basis.front()) return {};
  return t.basis.front();
}

std::string canonical_state_name(std::string_view name) {
  std::string s;
  for (char c : name) s += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  if (s == "up" || s == "\u2191") return "up";
  if (s == "down" || s == "dn" || s == "\u2193") return "down";
  if (s == "empty" || s == "emp") return "empty";
  if (s == "full" || s == "occ" || s == "updn" || s == "\u2191\u2193") return "full";
  return "";
}

std::vector<std::string> check_bases(const Stack& stack) {
  auto list = [](const std::vector<std::string>& b) {
    std::string s;
    for (const auto& x : b) s += (s.empty() ? "" : ", ") + x;
    return "(" + s + ")";
  };
  auto named = [](const TrainInfo& t, std::size_t j) {
    return j < t.basis.size() && !t.basis[j].empty();
  };
  std::vector<std::string> notes;
  for (std::size_t i = 0; i + 1 < stack.depth(); ++i) {
    const TrainInfo &upper = stack.layers[i], &lower = stack.layers[i + 1];
    std::size_t unchecked = 0;
    for (std::size_t j = 0; j < upper.length(); ++j) {
      if (!named(upper, j) && !named(lower, j)) continue;  // neither says: nothing to compare
      if (!named(upper, j) || !named(lower, j)) {
        ++unchecked;
        continue;
      }
      if (upper.basis[j] != lower.basis[j])
        throw InputError(upper.where(j) + " acts on the physical basis " + list(upper.basis[j]) +
                         " but " + lower.where(j) + " is stored in the basis " +
                         list(lower.basis[j]) +
                         ": the product would be wrong physics; write both trains with one "
                         "library (or with the same site conservation), or an operator of ours in the "
                         "other's basis with generate opsum --basis-of");
    }
    if (unchecked > 0) {
      const TrainInfo& silent = named(upper, 0) ? lower : upper;
      const TrainInfo& said = named(upper, 0) ? upper : lower;
      notes.push_back("the physical basis of " + silent.where() + " cannot be checked against " +
                      said.where() + " " + list(said.basis[0]) + " (it does not name its states): " +
                      "they are taken to agree");
    }
  }
  return notes;
}

}  // namespace srcc
