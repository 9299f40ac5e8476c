#include "srcc/train/opsum.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "srcc/core/error.hpp"
#include "srcc/core/weight.hpp"

namespace srcc {

using cd = std::complex<double>;

std::vector<OpTerm> parse_terms(const std::string& text, const std::string& where) {
  std::vector<OpTerm> out;
  std::istringstream lines(text);
  std::string line;
  std::size_t number = 0;
  while (std::getline(lines, line)) {
    ++number;
    const std::string body = line.substr(0, line.find('#'));
    std::istringstream words(body);
    std::vector<std::string> w;
    for (std::string s; words >> s;) w.push_back(s);
    if (w.empty()) continue;
    const std::string at = where + (text.find('\n') == std::string::npos ? "" : ", line " + std::to_string(number)) +
                           " ('" + body.substr(body.find_first_not_of(" \t")) + "')";
    OpTerm t;
    t.text = body;
    const auto c = read_weight(w[0]);
    if (!c) throw UsageError(at + ": '" + w[0] + "' is no coefficient (a number such as 0.5, -1e-3, 2j or 1+0.5j)");
    t.coefficient = *c;
    if (w.size() < 3 || w.size() % 2 == 0)
      throw UsageError(at + ": a term is COEF OP SITE [OP SITE …]");
    for (std::size_t k = 1; k < w.size(); k += 2) {
      long long site = 0;
      std::size_t used = 0;
      try {
        site = std::stoll(w[k + 1], &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != w[k + 1].size() || site < 0)
        throw UsageError(at + ": '" + w[k + 1] + "' is no site (0, 1, …)");
      t.ops.emplace_back(w[k], site);
    }
    out.push_back(std::move(t));
  }
  return out;
}

std::vector<OpTerm> translated(const std::vector<OpTerm>& terms, std::size_t sites) {
  std::vector<OpTerm> out;
  for (const auto& t : terms) {
    long long lo = t.ops.front().second, hi = lo;
    for (const auto& [op, s] : t.ops) {
      lo = std::min(lo, s);
      hi = std::max(hi, s);
    }
    for (long long shift = 0; shift + (hi - lo) < static_cast<long long>(sites); ++shift) {
      OpTerm u = t;
      for (auto& [op, s] : u.ops) s = s - lo + shift;
      out.push_back(std::move(u));
    }
  }
  return out;
}

namespace {

struct Placed {
  long long site;
  SiteOperator op;
};
using Key = std::vector<std::pair<long long, std::string>>;  // what a term still applies

// The term by site, its operators on one site multiplied in the order written, the sign of the
// reordering in `sign`.
std::vector<Placed> placed(const SiteType& type, const OpTerm& t, std::size_t n, cd& sign) {
  std::vector<Placed> p;
  for (const auto& [name, site] : t.ops) {
    if (site >= static_cast<long long>(n))
      throw UsageError("term '" + t.text + "': site " + std::to_string(site) + " is off the chain of " + std::to_string(n) +
                       " sites (0 … " + std::to_string(n - 1) + ")");
    p.push_back({site, type.op(name)});
  }
  sign = 1;
  // Insertion sort, stable: each exchange of two odd operators is a sign.
  for (std::size_t i = 1; i < p.size(); ++i)
    for (std::size_t k = i; k > 0 && p[k - 1].site > p[k].site; --k) {
      if (p[k - 1].op.fermionic && p[k].op.fermionic) sign = -sign;
      std::swap(p[k - 1], p[k]);
    }
  std::vector<Placed> merged;
  for (auto& x : p) {
    if (!merged.empty() && merged.back().site == x.site) merged.back().op = product(merged.back().op, x.op);
    else merged.push_back(std::move(x));
  }
  bool odd = false;
  for (const auto& x : merged) odd = odd != x.op.fermionic;
  if (odd) throw UsageError("term '" + t.text + "' is odd in fermion operators: an operator's terms must be even");
  return merged;
}

}  // namespace

OpSumMpo::OpSumMpo(SiteType type, std::size_t n, const std::vector<OpTerm>& terms) : type_(std::move(type)), n_(n) {
  if (n < 1) throw UsageError("an operator needs at least one site");
  struct Prepared {
    cd coefficient;
    std::vector<Placed> ops;
    std::vector<Key> after;   // after[m]: what remains once operator m is applied
    std::vector<bool> odd;    // odd[m]: the operators after m are odd in number
  };
  std::vector<Prepared> prepared;
  for (const auto& t : terms) {
    cd sign;
    Prepared p{t.coefficient, placed(type_, t, n, sign), {}, {}};
    p.coefficient *= sign;
    if (p.coefficient == cd(0)) continue;
    for (std::size_t m = 0; m < p.ops.size(); ++m) {
      Key k;
      bool odd = false;
      for (std::size_t l = m + 1; l < p.ops.size(); ++l) {
        k.emplace_back(p.ops[l].site, p.ops[l].op.name);
        odd = odd != p.ops[l].op.fermionic;
      }
      p.after.push_back(std::move(k));
      p.odd.push_back(odd);
    }
    for (const auto& x : p.ops) {
      const auto q = type_.charge_of(x.op);
      if (!q) conserves_ = false;
    }
    if (conserves_) {
      Charge total(type_.rule.count(), 0);
      for (const auto& x : p.ops) {
        const Charge q = *type_.charge_of(x.op);
        for (std::size_t c = 0; c < total.size(); ++c) total[c] += q[c];
      }
      if (total != Charge(type_.rule.count(), 0)) conserves_ = false;
    }
    prepared.push_back(std::move(p));
  }
  if (prepared.empty()) throw UsageError("the operator has no terms (or only terms of coefficient 0)");

  // The states at each bond: "done" (every operator applied), the pending keys, "not started".
  std::vector<std::set<Key>> pending(n + 1);
  std::vector<bool> start(n + 1, false), done(n + 1, false);
  for (const auto& p : prepared) {
    const auto first = static_cast<std::size_t>(p.ops.front().site), last = static_cast<std::size_t>(p.ops.back().site);
    for (std::size_t b = 0; b <= first; ++b) start[b] = true;
    for (std::size_t b = last + 1; b <= n; ++b) done[b] = true;
    for (std::size_t m = 0; m + 1 < p.ops.size(); ++m)
      for (auto b = static_cast<std::size_t>(p.ops[m].site) + 1; b <= static_cast<std::size_t>(p.ops[m + 1].site); ++b)
        pending[b].insert(p.after[m]);
  }
  std::vector<std::map<Key, std::size_t>> index(n + 1);
  std::vector<std::size_t> done_at(n + 1), start_at(n + 1);
  states_.resize(n + 1);
  for (std::size_t b = 0; b <= n; ++b) {
    std::size_t k = 0;
    if (done[b]) done_at[b] = k++;
    for (const auto& key : pending[b]) index[b][key] = k++;
    if (start[b]) start_at[b] = k++;
    states_[b] = k;
  }

  const std::size_t d = type_.dim;
  std::vector<std::map<std::pair<std::size_t, std::size_t>, std::vector<cd>>> added(n), fixed(n);
  const SiteOperator& id = type_.op("Id");
  const SiteOperator& f = type_.parity();
  for (std::size_t j = 0; j < n; ++j) {
    if (start[j] && start[j + 1]) fixed[j][{start_at[j], start_at[j + 1]}] = id.m;
    if (done[j] && done[j + 1]) fixed[j][{done_at[j], done_at[j + 1]}] = id.m;
  }
  for (const auto& p : prepared) {
    const std::size_t k = p.ops.size();
    for (std::size_t m = 0; m < k; ++m) {
      const auto j = static_cast<std::size_t>(p.ops[m].site);
      const std::size_t from = m == 0 ? start_at[j] : index[j].at(p.after[m - 1]);
      const std::size_t to = m + 1 == k ? done_at[j + 1] : index[j + 1].at(p.after[m]);
      const SiteOperator o = p.odd[m] ? product(p.ops[m].op, f) : p.ops[m].op;
      if (m == 0) {
        auto& e = added[j][{from, to}];
        e.resize(d * d);
        for (std::size_t x = 0; x < d * d; ++x) e[x] += p.coefficient * o.m[x];
      } else {
        fixed[j][{from, to}] = o.m;
      }
      if (m + 1 < k)
        for (auto i = j + 1; i < static_cast<std::size_t>(p.ops[m + 1].site); ++i)
          fixed[i][{index[i].at(p.after[m]), index[i + 1].at(p.after[m])}] = p.odd[m] ? f.m : id.m;
    }
  }
  entries_.resize(n);
  for (std::size_t j = 0; j < n; ++j) {
    for (auto& [at, m] : added[j]) entries_[j].push_back({at.first, at.second, std::move(m)});
    for (auto& [at, m] : fixed[j]) entries_[j].push_back({at.first, at.second, std::move(m)});
  }
}

std::size_t OpSumMpo::max_bond() const { return *std::max_element(states_.begin(), states_.end()); }

bool OpSumMpo::is_real() const {
  for (const auto& site : entries_)
    for (const auto& e : site)
      for (const auto& v : e.m)
        if (v.imag() != 0) return false;
  return true;
}

std::optional<PhysicalCharges> OpSumMpo::charges() const {
  if (!conserves_) return std::nullopt;
  PhysicalCharges c;
  c.rule = type_.rule;
  c.up.assign(n_, type_.basis_charges);
  c.down.assign(n_, type_.basis_charges);
  return c;
}

template <class T> Tensor<T> OpSumMpo::site(std::size_t j) const {
  const std::size_t d = type_.dim, dl = states_[j], dr = states_[j + 1];
  Tensor<T> w({dl, dr, d, d});
  std::fill(w.data.begin(), w.data.end(), T(0));
  for (const auto& e : entries_[j])
    for (std::size_t x = 0; x < d * d; ++x) {
      w.data[(e.from * dr + e.to) * d * d + x] = scalar_weight<T>(e.m[x]);
    }
  return w;
}

#define SRCC_INSTANTIATE(T) template Tensor<T> OpSumMpo::site<T>(std::size_t) const;
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
