#include "srcc/train/site_type.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "srcc/core/error.hpp"
#include "srcc/core/options.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

using cd = std::complex<double>;

bool SiteOperator::is_real() const {
  for (const auto& v : m)
    if (v.imag() != 0) return false;
  return true;
}

SiteOperator product(const SiteOperator& a, const SiteOperator& b) {
  SiteOperator out{a.name + "*" + b.name, a.dim, std::vector<cd>(a.dim * a.dim), a.fermionic != b.fermionic};
  for (std::size_t i = 0; i < a.dim; ++i)
    for (std::size_t k = 0; k < a.dim; ++k)
      for (std::size_t j = 0; j < a.dim; ++j) out.m[i * a.dim + j] += a.at(i, k) * b.at(k, j);
  return out;
}

namespace {

SiteOperator zeros(const std::string& name, std::size_t d, bool fermionic = false) {
  return SiteOperator{name, d, std::vector<cd>(d * d), fermionic};
}
SiteOperator diagonal(const std::string& name, const std::vector<double>& diag) {
  SiteOperator o = zeros(name, diag.size());
  for (std::size_t i = 0; i < diag.size(); ++i) o.m[i * diag.size() + i] = diag[i];
  return o;
}
SiteOperator transposed(const std::string& name, const SiteOperator& a) {
  SiteOperator o = zeros(name, a.dim, a.fermionic);
  for (std::size_t i = 0; i < a.dim; ++i)
    for (std::size_t j = 0; j < a.dim; ++j) o.m[j * a.dim + i] = a.at(i, j);
  return o;
}
SiteOperator combined(const std::string& name, const SiteOperator& a, cd fa, const SiteOperator& b, cd fb) {
  SiteOperator o = zeros(name, a.dim, a.fermionic);
  for (std::size_t i = 0; i < o.m.size(); ++i) o.m[i] = fa * a.m[i] + fb * b.m[i];
  return o;
}
SiteOperator renamed(SiteOperator o, const std::string& name) {
  o.name = name;
  return o;
}

// Spin S = (d − 1)/2, basis m = S, S − 1, …, −S.
SiteType spin(const std::string& name, std::size_t d) {
  SiteType t{name, d, ChargeRule{{1}}, {}, {}, false};
  const double s = 0.5 * static_cast<double>(d - 1);
  std::vector<double> mz;
  for (std::size_t k = 0; k < d; ++k) {
    mz.push_back(s - static_cast<double>(k));
    t.basis_charges.push_back(Charge{static_cast<long long>(d - 1) - 2 * static_cast<long long>(k)});
  }
  SiteOperator sp = zeros("Sp", d);
  for (std::size_t k = 1; k < d; ++k) sp.m[(k - 1) * d + k] = std::sqrt(s * (s + 1) - mz[k] * (mz[k] + 1));
  const SiteOperator sm = transposed("Sm", sp);
  t.ops = {diagonal("Sz", mz), combined("Sx", sp, 0.5, sm, 0.5), combined("Sy", sp, cd(0, -0.5), sm, cd(0, 0.5)), sp, sm,
           diagonal("Id", std::vector<double>(d, 1.0))};
  if (d == 2) t.basis_names = {"up", "down"};
  return t;
}

SiteType fermion() {
  SiteType t{"fermion", 2, ChargeRule{{1}}, {Charge{0}, Charge{1}}, {}, true};
  SiteOperator c = zeros("C", 2, true);
  c.m[0 * 2 + 1] = 1;
  t.ops = {c, transposed("Cdag", c), diagonal("N", {0, 1}), diagonal("F", {1, -1}), diagonal("Id", {1, 1})};
  t.basis_names = {"empty", "full"};
  return t;
}

SiteType electron() {
  SiteType t{"electron", 4, ChargeRule{{1, 1}}, {Charge{0, 0}, Charge{1, 1}, Charge{1, -1}, Charge{2, 0}}, {}, true};
  SiteOperator cu = zeros("Cu", 4, true), cdn = zeros("Cd", 4, true);
  cu.m[0 * 4 + 1] = cu.m[2 * 4 + 3] = 1;
  // The down spin's annihilator with the up spin's string: (−1)^{N↑} on its output.
  cdn.m[0 * 4 + 2] = 1;
  cdn.m[1 * 4 + 3] = -1;
  const SiteOperator cdu = transposed("Cdu", cu), cdd = transposed("Cdd", cdn);
  const SiteOperator nu = diagonal("Nu", {0, 1, 0, 1}), nd = diagonal("Nd", {0, 0, 1, 1});
  t.ops = {cu, cdu, cdn, cdd, nu, nd, diagonal("Ntot", {0, 1, 1, 2}), diagonal("Sz", {0, 0.5, -0.5, 0}),
           renamed(product(cdu, cdn), "Sp"), renamed(product(cdd, cu), "Sm"), diagonal("F", {1, -1, -1, 1}),
           diagonal("Id", {1, 1, 1, 1})};
  t.basis_names = {"empty", "up", "down", "full"};
  return t;
}

SiteType boson(const std::string& name, std::size_t most) {
  const std::size_t d = most + 1;
  SiteType t{name, d, ChargeRule{{1}}, {}, {}, false};
  SiteOperator b = zeros("B", d);
  std::vector<double> n;
  for (std::size_t k = 0; k < d; ++k) {
    t.basis_charges.push_back(Charge{static_cast<long long>(k)});
    n.push_back(static_cast<double>(k));
    if (k > 0) b.m[(k - 1) * d + k] = std::sqrt(static_cast<double>(k));
  }
  t.ops = {b, transposed("Bdag", b), diagonal("N", n), diagonal("Id", std::vector<double>(d, 1.0))};
  return t;
}

}  // namespace

const SiteOperator& SiteType::op(const std::string& wanted) const {
  for (const auto& o : ops)
    if (o.name == wanted) return o;
  throw UsageError("no operator '" + wanted + "' on a " + name + " site (it has " + operator_names() + ")");
}

std::optional<Charge> SiteType::charge_of(const SiteOperator& o) const {
  std::optional<Charge> q;
  for (std::size_t i = 0; i < dim; ++i)
    for (std::size_t j = 0; j < dim; ++j) {
      if (o.at(i, j) == cd(0)) continue;
      Charge d(rule.count());
      for (std::size_t c = 0; c < d.size(); ++c) d[c] = basis_charges[i][c] - basis_charges[j][c];
      if (q && *q != d) return std::nullopt;
      q = d;
    }
  return q ? q : Charge(rule.count(), 0);  // the zero operator adds nothing
}

std::string SiteType::operator_names() const {
  std::string out;
  for (const auto& o : ops) out += (out.empty() ? "" : " ") + o.name;
  return out;
}

SiteOperator named_operator(const SiteType& type, const std::string& spec) {
  const auto star = spec.find('*');
  if (star == std::string::npos) return type.op(spec);
  return product(type.op(spec.substr(0, star)), named_operator(type, spec.substr(star + 1)));
}

std::vector<std::size_t> basis_order(const SiteType& type, const std::vector<std::string>& names) {
  if (type.basis_names.empty() || names.size() != type.dim) return {};
  std::vector<std::size_t> order;
  std::string said;
  for (const auto& name : names) {
    const std::string c = canonical_state_name(name);
    if (c.empty()) return {};
    said += (said.empty() ? "" : ", ") + c;
    const auto at = std::find(type.basis_names.begin(), type.basis_names.end(), c);
    if (at != type.basis_names.end() && std::find(order.begin(), order.end(), at - type.basis_names.begin()) == order.end())
      order.push_back(static_cast<std::size_t>(at - type.basis_names.begin()));
  }
  if (order.size() != type.dim) {
    std::string ours;
    for (const auto& n : type.basis_names) ours += (ours.empty() ? "" : ", ") + n;
    throw UsageError("the state's sites hold (" + said + "), not the states of a " + type.name + " site (" + ours +
                     "): name its kind with --site");
  }
  return order;
}

SiteOperator reordered(const SiteOperator& o, const std::vector<std::size_t>& order) {
  if (order.empty()) return o;
  SiteOperator out = o;
  for (std::size_t k = 0; k < o.dim; ++k)
    for (std::size_t l = 0; l < o.dim; ++l) out.m[k * o.dim + l] = o.at(order[k], order[l]);
  return out;
}

SiteType reordered(const SiteType& t, const std::vector<std::size_t>& order) {
  if (order.empty()) return t;
  SiteType out = t;
  for (auto& o : out.ops) o = reordered(o, order);
  for (std::size_t k = 0; k < order.size(); ++k) {
    out.basis_charges[k] = t.basis_charges[order[k]];
    if (!t.basis_names.empty()) out.basis_names[k] = t.basis_names[order[k]];
  }
  return out;
}

SiteType site_type_for(const std::string& spec, std::size_t dim, const std::string& where) {
  std::string name = spec;
  if (name.empty()) {
    if (dim == 2) name = "spin-half";
    else if (dim == 3) name = "spin-one";
    else
      throw UsageError(where + " has sites of dimension " + std::to_string(dim) + ": name their kind with " +
                       opt::kSiteType.name() + " (" + kSiteTypeNames + ")");
  }
  SiteType t = site_type(name);
  if (t.dim != dim)
    throw UsageError(opt::kSiteType.name() + " " + name + " has " + std::to_string(t.dim) + " states but " + where +
                     "'s sites have " + std::to_string(dim));
  return t;
}

StateOperators state_operators(const std::string& spec, const std::vector<std::string>& names, const TrainInfo& info) {
  const std::size_t d = info.dims.front()[kLegU];
  for (const auto& dims : info.dims)
    if (dims[kLegU] != d)
      throw UsageError(info.where() + " has sites of different dimensions: its site operators need one kind of site");
  StateOperators out;
  out.type = site_type_for(spec, d, info.where());
  // Every site names its states alike (the readers give one basis per site).
  std::vector<std::size_t> order;
  if (!info.basis.empty()) order = basis_order(out.type, info.basis.front());
  for (const auto& name : names) {
    out.ops.push_back(reordered(named_operator(out.type, name), order));
    out.is_real = out.is_real && out.ops.back().is_real();
  }
  out.parity = reordered(out.type.parity(), order);
  return out;
}

SiteType site_type(const std::string& spec) {
  if (spec == "spin-half") return spin(spec, 2);
  if (spec == "spin-one") return spin(spec, 3);
  if (spec == "fermion") return fermion();
  if (spec == "electron") return electron();
  if (spec.rfind("boson:", 0) == 0) {
    const std::string k = spec.substr(6);
    std::size_t used = 0;
    unsigned long most = 0;
    try {
      most = std::stoul(k, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != k.size() || most < 1 || most > 4096)
      throw UsageError("site type '" + spec + "': boson:K takes the most bosons per site, 1 … 4096");
    return boson(spec, most);
  }
  throw UsageError("no site type '" + spec + "' (site types: " + kSiteTypeNames + ")");
}

}  // namespace srcc
