#include "srcc/train/examples.hpp"

#include <cmath>
#include <cstdio>

#include "srcc/core/error.hpp"
#include "srcc/core/options.hpp"
#include "srcc/train/generate.hpp"

namespace srcc {

namespace {

const std::vector<ExampleRow> kTable = {
    {Example::kRandomMps, "random-mps", TrainKind::kMps, "/psi", true, false, "random-mps / random-mpo (the SRC paper's recipe: entries Uniform[-0.5, 1], each site divided by its Frobenius norm)"},
    {Example::kRandomMpo, "random-mpo", TrainKind::kMpo, "/A", true, false, ""},
    {Example::kIdentity, "identity", TrainKind::kMpo, "/A", false, false, "identity (MPO)"},
    {Example::kIsing, "ising", TrainKind::kMpo, "/H", false, true, "ising (H = -J Σ Z Z - h Σ X, an MPO of bond 3)"},
    {Example::kIsingStep, "ising-step", TrainKind::kMpo, "/U", false, true, "ising-step (one second-order Trotter step e^{-i dt H}, or e^{-dt H} with --imaginary-time, an MPO of bond 2)"},
    {Example::kMagnetization, "magnetization", TrainKind::kMpo, "/M", false, true, "magnetization (Σ Z, bond 2)"},
    {Example::kProduct, "product", TrainKind::kMps, "/psi", false, false, "product (the MPS |0 0 … 0⟩: all spins up in Z)"},
};

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

void check_example(const ExampleOptions& o) {
  const ExampleRow& row = example_row(o.example);
  if (row.spins && o.phys != 2)
    throw UsageError(opt::kPhys.name() + ": " + std::string(row.name) + " is for spins 1/2 (phys 2), got " + std::to_string(o.phys));
  if (o.example == Example::kIsingStep && o.dt == 0)
    throw UsageError(opt::kStepDt.name() + ": ising-step needs the step's time");
  for (const auto& [flag, value] : {std::pair{&opt::kCoupling, o.coupling}, {&opt::kField, o.field}, {&opt::kStepDt, o.dt}})
    if (!std::isfinite(value)) throw UsageError(flag->name() + " " + text(value) + ": give a finite number");
}

std::size_t example_bond(const ExampleOptions& o) {
  switch (o.example) {
    case Example::kRandomMps:
    case Example::kRandomMpo: return o.bond;
    case Example::kIsing: return 3;
    case Example::kIsingStep:
    case Example::kMagnetization: return 2;
    case Example::kIdentity:
    case Example::kProduct: break;
  }
  return 1;
}

DType example_dtype(const ExampleOptions& o) {
  // A real-time step is complex; everything else is real unless --dtype says otherwise.
  if (o.dtype) return *o.dtype;
  return o.example == Example::kIsingStep && !o.imaginary ? DType::kComplex128 : DType::kFloat64;
}

template <class T> Tensor<T> example_site(const ExampleOptions& o, std::size_t j, Rng& rng) {
  const ExampleRow& row = example_row(o.example);
  Tensor<T> site;
  switch (o.example) {
    case Example::kRandomMps:
    case Example::kRandomMpo: site = random_site<T>(row.kind, j, o.sites, o.bond, o.phys, rng); break;
    case Example::kIdentity: site = identity_site<T>(o.phys); break;
    case Example::kProduct: site = product_site<T>(j, o.sites, o.phys); break;
    case Example::kMagnetization: site = magnetization_site<T>(j, o.sites); break;
    case Example::kIsingStep: site = ising_step_site<T>(j, o.sites, o.coupling, o.field, o.dt, o.imaginary); break;
    case Example::kIsing: site = ising_site<T>(j, o.sites, o.coupling, o.field); break;
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
