#include "srcc/train/examples.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "srcc/core/error.hpp"
#include "srcc/core/options.hpp"
#include "srcc/core/weight.hpp"
#include "srcc/train/charged_examples.hpp"
#include "srcc/train/generate.hpp"

namespace srcc {

namespace {

const std::vector<ExampleRow> kTable = {
    {Example::kRandomMps, "random-mps", TrainKind::kMps, "/psi", true, false, false, "random-mps / random-mpo (the SRC paper's recipe: entries Uniform[-0.5, 1], each site divided by its Frobenius norm)"},
    {Example::kRandomMpo, "random-mpo", TrainKind::kMpo, "/A", true, false, false, ""},
    {Example::kIdentity, "identity", TrainKind::kMpo, "/A", false, false, false, "identity (MPO)"},
    {Example::kIsing, "ising", TrainKind::kMpo, "/H", false, true, false, "ising (H = -J Σ Z Z - h Σ X, an MPO of bond 3)"},
    {Example::kIsingStep, "ising-step", TrainKind::kMpo, "/U", false, true, false, "ising-step (one second-order Trotter step e^{-i dt H}, or e^{-dt H} with --imaginary-time, an MPO of bond 2)"},
    {Example::kMagnetization, "magnetization", TrainKind::kMpo, "/M", false, true, true, "magnetization (Σ Z, bond 2)"},
    {Example::kProduct, "product", TrainKind::kMps, "/psi", false, false, true, "product (the MPS |0 0 … 0⟩: all spins up in Z; any configuration with --config-state)"},
    {Example::kXxz, "xxz", TrainKind::kMpo, "/H", false, true, true, "xxz (H = Σ J (Sx Sx + Sy Sy + Δ Sz Sz) - h Σ Sz, bond 5, with its U(1) charges; --delta Δ, --h defaults to 0)"},
    {Example::kNeel, "neel", TrainKind::kMps, "/psi", false, true, true, "neel (|↑↓↑↓…⟩)"},
    {Example::kDomainWall, "domain-wall", TrainKind::kMps, "/psi", false, true, true, "domain-wall (|↑…↑↓…↓⟩)"},
    {Example::kOpsum, "opsum", TrainKind::kMpo, "/H", false, false, false, "opsum (the MPO of a sum of operator products: --term \"COEF OP SITE …\" or --terms FILE on --site sites, --translate; optimal bond, with its charges when every term keeps them)"},
    {Example::kHubbard, "hubbard", TrainKind::kMpo, "/H", false, false, false, "hubbard (H = -t Σ (c†_iσ c_i+1σ + h.c.) + U Σ n_i↑ n_i↓ - μ Σ n_i on electron sites, bond 6, charges N and 2Sz; --J t, --U, --h μ)"},
    {Example::kStep, "step", TrainKind::kMpo, "/U", false, false, false, "step (one time step e^{-i dt H} of the MPO --from H.h5, W^II or --approximation I; --imaginary-time: e^{-dt H})"},
    {Example::kChargedRandom, "charged-random", TrainKind::kMps, "/psi", true, true, true, "charged-random (a random MPS of total 2Sz --total-charge, its bonds split into S^z sectors of spread --sector-spread, about --bond in all)"},
};

ChargedRandomShape charged_shape(const ExampleOptions& o) {
  return {o.sites, o.bond, o.spread, o.total_charge.value_or(static_cast<long long>(o.sites % 2))};
}

// A --config-state letter's basis index: u 0 and d 1 for spins ½, a digit its value; phys (out of
// range) for anything else.
std::size_t config_index(char c, std::size_t phys) {
  if (phys == 2 && (c == 'u' || c == 'd')) return c == 'u' ? 0 : 1;
  if (c >= '0' && c <= '9') return static_cast<std::size_t>(c - '0');
  return phys;
}

std::string text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace

const std::vector<ExampleRow>& example_table() { return kTable; }

const ExampleRow& example_row(Example e) {
  for (const auto& row : kTable)
    if (row.example == e) return row;
  return kTable.front();
}

Example parse_example(const std::string& name) {
  std::string names;
  for (const auto& row : kTable) {
    if (row.name == name) return row.example;
    names += (names.empty() ? "" : ", ") + std::string(row.name);
  }
  throw UsageError("generate: no kind '" + name + "' (kinds: " + names + ")");
}

void prepare_example(ExampleOptions& o) {
  if (o.example == Example::kStep) {
    if (o.hamiltonian.empty()) throw UsageError("generate step: give the Hamiltonian with " + opt::kStepFrom.name());
    if (o.dt == 0 || !std::isfinite(o.dt)) throw UsageError(opt::kStepDt.name() + ": generate step needs the step's time");
    const std::complex<double> tau = o.imaginary ? std::complex<double>(-o.dt, 0) : std::complex<double>(0, -o.dt);
    o.step = std::make_shared<const std::vector<Tensor<cdouble>>>(
        o.order == 2 ? second_order_step(o.hamiltonian, tau, o.approximation) : step_mpo(o.hamiltonian, tau, o.approximation));
    o.sites = o.step->size();
    o.phys = o.step->front().shape[2];
    return;
  }
  if (!o.from.empty()) throw UsageError(opt::kStepFrom.name() + ": only for generate step");
  if (!o.pattern.empty() && o.example != Example::kProduct) throw UsageError(opt::kPattern.name() + ": only for generate product");
  if (o.example == Example::kProduct && (!o.site.empty() || !o.pattern.empty())) {
    // A product of the site type's states, with its charges.
    const SiteType type = site_type(o.site.empty() ? "spin-half" : o.site);
    o.phys = type.dim;
    if (!o.pattern.empty()) {
      if (!o.config.empty()) throw UsageError(opt::kPattern.name() + " and " + opt::kConfig.name() + ": give one of them");
      const std::map<std::string, std::pair<std::size_t, std::size_t>> states = {
          {"spin-half", {0, 1}}, {"spin-one", {0, 2}}, {"fermion", {1, 0}}, {"electron", {1, 2}}};
      const auto it = states.find(type.name);
      const auto [a, b] = it == states.end() ? std::pair<std::size_t, std::size_t>{1, 0} : it->second;
      for (std::size_t j = 0; j < o.sites; ++j) {
        const bool first = o.pattern == "neel" ? j % 2 == 0 : j < (o.sites + 1) / 2;
        o.config += static_cast<char>('0' + (first ? a : b));
      }
    }
    o.product_site = std::make_shared<const SiteType>(type);
    return;
  }
  if (o.example != Example::kOpsum && o.example != Example::kHubbard) {
    for (const auto& [flag, given] : {std::pair{&opt::kTerm, !o.terms.empty()}, {&opt::kTermsFile, !o.terms_file.empty()},
                                      {&opt::kTranslate, o.translate}, {&opt::kSiteType, !o.site.empty()}})
      if (given) throw UsageError(flag->name() + ": only for generate opsum" + (flag == &opt::kSiteType ? " and product" : ""));
    return;
  }
  std::vector<OpTerm> terms;
  std::string site = o.site.empty() ? "spin-half" : o.site;
  if (o.example == Example::kHubbard) {
    if (!o.terms.empty() || !o.terms_file.empty() || !o.site.empty())
      throw UsageError("generate hubbard: its terms are fixed (" + opt::kCoupling.name() + ", " + opt::kInteraction.name() + ", " +
                       opt::kField.name() + "); write others with generate opsum --site electron");
    site = "electron";
    const double t = -o.coupling;
    const std::vector<OpTerm> cell = {{t, {{"Cdu", 0}, {"Cu", 1}}, "-t Cdu 0 Cu 1"},   {t, {{"Cdu", 1}, {"Cu", 0}}, "-t Cdu 1 Cu 0"},
                                      {t, {{"Cdd", 0}, {"Cd", 1}}, "-t Cdd 0 Cd 1"},   {t, {{"Cdd", 1}, {"Cd", 0}}, "-t Cdd 1 Cd 0"},
                                      {o.interaction, {{"Nu", 0}, {"Nd", 0}}, "U Nu 0 Nd 0"}, {-o.field, {{"Ntot", 0}}, "-mu Ntot 0"}};
    terms = translated(cell, o.sites);
  } else {
    for (const auto& t : o.terms) {
      auto parsed = parse_terms(t, opt::kTerm.name() + " '" + t + "'");
      terms.insert(terms.end(), parsed.begin(), parsed.end());
    }
    if (!o.terms_file.empty()) {
      std::ifstream in(o.terms_file);
      if (!in) throw UsageError(opt::kTermsFile.name() + " " + o.terms_file + ": cannot be read");
      std::stringstream all;
      all << in.rdbuf();
      auto parsed = parse_terms(all.str(), o.terms_file);
      terms.insert(terms.end(), parsed.begin(), parsed.end());
    }
    if (terms.empty())
      throw UsageError("generate opsum: give its terms (" + opt::kTerm.name() + " \"COEF OP SITE …\" or " +
                       opt::kTermsFile.name() + " FILE)");
    if (o.translate) terms = translated(terms, o.sites);
  }
  SiteType type = site_type(site);
  if (!o.template_basis.empty()) type = reordered(type, basis_order(type, o.template_basis));
  o.phys = type.dim;
  o.model = std::make_shared<const OpSumMpo>(type, o.sites, terms);
}

void check_example(const ExampleOptions& o) {
  const ExampleRow& row = example_row(o.example);
  if ((o.example == Example::kOpsum || o.example == Example::kHubbard) && !o.model)
    throw std::logic_error("check_example: prepare_example first");
  if (o.dtype && !dtype_is_complex(*o.dtype) &&
      ((o.model && !o.model->is_real()) || (o.step && example_dtype(ExampleOptions{.example = o.example, .step = o.step}) != DType::kFloat64)))
    throw UsageError(opt::kDtype.name() + " " + std::string(dtype_name(*o.dtype)) + ": the operator has complex entries");
  if (row.spins && o.phys != 2)
    throw UsageError(opt::kPhys.name() + ": " + std::string(row.name) + " is for spins 1/2 (phys 2), got " + std::to_string(o.phys));
  if (o.example == Example::kIsingStep && o.dt == 0)
    throw UsageError(opt::kStepDt.name() + ": ising-step needs the step's time");
  if (o.example == Example::kChargedRandom) {
    if (!(o.spread > 0) || !std::isfinite(o.spread))
      throw UsageError(opt::kSectorSpread.name() + " " + text(o.spread) + ": give a positive number");
    const long long q = o.total_charge.value_or(static_cast<long long>(o.sites % 2)), n = static_cast<long long>(o.sites);
    if (q < -n || q > n || (n + q) % 2 != 0)
      throw UsageError(opt::kTotalCharge.name() + " " + std::to_string(q) + ": " + std::to_string(n) +
                       " spins 1/2 have a total 2S^z in -" + std::to_string(n) + " … " + std::to_string(n) + " of their parity");
  }
  if (!o.config.empty()) {
    if (o.example != Example::kProduct)
      throw UsageError(opt::kConfig.name() + ": only for product states (generate product)");
    if (o.config.size() != o.sites)
      throw UsageError(opt::kConfig.name() + " '" + o.config + "': " + std::to_string(o.config.size()) +
                       " letters for " + std::to_string(o.sites) + " sites");
    for (std::size_t j = 0; j < o.config.size(); ++j)
      if (config_index(o.config[j], o.phys) >= o.phys)
        throw UsageError(opt::kConfig.name() + " '" + o.config + "', site " + std::to_string(j) + ": '" +
                         std::string(1, o.config[j]) + "' is no state of a site of dimension " + std::to_string(o.phys) +
                         " (u or d for spins ½, else a digit below --phys)");
  }
  for (const auto& [flag, value] : {std::pair{&opt::kCoupling, o.coupling}, {&opt::kField, o.field}, {&opt::kStepDt, o.dt},
                                    {&opt::kDelta, o.delta}, {&opt::kInteraction, o.interaction}})
    if (!std::isfinite(value)) throw UsageError(flag->name() + " " + text(value) + ": give a finite number");
}

std::size_t example_bond(const ExampleOptions& o) {
  switch (o.example) {
    case Example::kRandomMps:
    case Example::kRandomMpo: return o.bond;
    case Example::kIsing: return 3;
    case Example::kXxz: return 5;
    case Example::kOpsum:
    case Example::kHubbard: return o.model->max_bond();
    case Example::kStep: {
      std::size_t most = 1;
      for (const auto& w : *o.step) most = std::max(most, w.shape[1]);
      return most;
    }
    case Example::kChargedRandom: {
      std::size_t most = 1;
      const ChargedRandomShape shape = charged_shape(o);
      for (std::size_t j = 0; j <= o.sites; ++j) {
        std::size_t b = 0;
        for (const auto& [q, d] : charged_random_bond(shape, j)) b += d;
        most = std::max(most, b);
      }
      return most;
    }
    case Example::kIsingStep:
    case Example::kMagnetization: return 2;
    case Example::kNeel:
    case Example::kDomainWall:
    case Example::kIdentity:
    case Example::kProduct: break;
  }
  return 1;
}

DType example_dtype(const ExampleOptions& o) {
  // A real-time step is complex; everything else is real unless --dtype says otherwise.
  if (o.dtype) return *o.dtype;
  if (o.model) return o.model->is_real() ? DType::kFloat64 : DType::kComplex128;
  if (o.step) {
    for (const auto& w : *o.step)
      for (const auto& v : w.data)
        if (v.imag() != 0) return DType::kComplex128;
    return DType::kFloat64;
  }
  return o.example == Example::kIsingStep && !o.imaginary ? DType::kComplex128 : DType::kFloat64;
}

std::vector<std::string> example_basis(const ExampleOptions& o) {
  if (o.model) return o.model->site_type().basis_names;
  if (o.product_site) return o.product_site->basis_names;
  if (o.example == Example::kStep) return o.from_basis;
  const ExampleRow& row = example_row(o.example);
  const bool spin_half_kind = row.spins || o.example == Example::kProduct || o.example == Example::kMagnetization;
  if (spin_half_kind && o.phys == 2) return {"up", "down"};
  return {};
}

std::optional<PhysicalCharges> example_charges(const ExampleOptions& o) {
  if (o.product_site) {
    PhysicalCharges c;
    c.rule = o.product_site->rule;
    c.up.assign(o.sites, o.product_site->basis_charges);
    c.down.assign(o.sites, {Charge(c.rule.count(), 0)});
    return c;
  }
  if (o.model) return o.model->charges();
  if (o.example == Example::kStep) return o.hamiltonian_charges;
  if (!example_row(o.example).conserves_sz || o.phys != 2) return std::nullopt;
  return spin_half_charges(o.sites, example_row(o.example).kind);
}

template <class T> Tensor<T> example_site(const ExampleOptions& o, std::size_t j, Rng& rng) {
  const ExampleRow& row = example_row(o.example);
  Tensor<T> site;
  switch (o.example) {
    case Example::kRandomMps:
    case Example::kRandomMpo: site = random_site<T>(row.kind, j, o.sites, o.bond, o.phys, rng); break;
    case Example::kIdentity: site = identity_site<T>(o.phys); break;
    case Example::kProduct:
      site = product_site<T>(j, o.sites, o.phys);
      if (!o.config.empty()) {
        std::fill(site.data.begin(), site.data.end(), T(0));
        site.data[config_index(o.config[j], o.phys)] = T(1);
      }
      break;
    case Example::kMagnetization: site = magnetization_site<T>(j, o.sites); break;
    case Example::kIsingStep: site = ising_step_site<T>(j, o.sites, o.coupling, o.field, o.dt, o.imaginary); break;
    case Example::kIsing: site = ising_site<T>(j, o.sites, o.coupling, o.field); break;
    case Example::kXxz: site = xxz_site<T>(j, o.sites, o.coupling, o.delta, o.field); break;
    case Example::kNeel: site = neel_site<T>(j); break;
    case Example::kDomainWall: site = domain_wall_site<T>(j, o.sites); break;
    case Example::kChargedRandom: site = charged_random_site<T>(charged_shape(o), j, rng); break;
    case Example::kOpsum:
    case Example::kHubbard: site = o.model->site<T>(j); break;
    case Example::kStep: {
      const Tensor<cdouble>& w = (*o.step)[j];
      site = Tensor<T>(w.shape);
      for (std::size_t i = 0; i < w.data.size(); ++i) site.data[i] = scalar_weight<T>(w.data[i]);
      break;
    }
  }
  // Finite flags can still overflow a site (e^{dt·h} of a huge imaginary-time step).
  for (const auto& v : site.data)
    if (!std::isfinite(std::abs(v)))
      throw UsageError("generate " + std::string(row.name) + ": site " + std::to_string(j) + " has entries beyond " +
                       std::string(dtype_name(dtype_of<T>)) + " with " + opt::kCoupling.name() + " " + text(o.coupling) +
                       ", " + opt::kField.name() + " " + text(o.field) +
                       (o.example == Example::kIsingStep ? ", " + opt::kStepDt.name() + " " + text(o.dt) : std::string()) +
                       ": give smaller values");
  return site;
}

#define SRCC_INSTANTIATE(T) template Tensor<T> example_site<T>(const ExampleOptions&, std::size_t, Rng&);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
