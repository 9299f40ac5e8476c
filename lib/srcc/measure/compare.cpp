#include "srcc/measure/compare.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

#include "srcc/backend/counting_gemm.hpp"
#include "srcc/core/error.hpp"
#include "srcc/core/interrupt.hpp"
#include "srcc/core/json.hpp"
#include "srcc/core/options.hpp"
#include "srcc/core/size.hpp"
#include "srcc/core/text.hpp"
#include "srcc/io/file_site_source.hpp"
#include "srcc/io/train_reader.hpp"
#include "srcc/measure/charged_compare.hpp"
#include "srcc/measure/overlap.hpp"
#include "srcc/movement/mover.hpp"
#include "srcc/plan/budgets.hpp"
#include "srcc/symmetric/charged_stack.hpp"
#include "srcc/train/site_loader.hpp"

namespace srcc {

namespace {

// The charges both trains carry alike (their rule and every physical leg's), if they do.
std::optional<PhysicalCharges> common_charges(const TrainInfo& a, const TrainInfo& b) {
  auto qa = train_charges(a), qb = train_charges(b);
  if (!qa || !qb || qa->rule.moduli != qb->rule.moduli || qa->up != qb->up || qa->down != qb->down) return std::nullopt;
  return qa;
}

// Equal lengths and physical legs, and the same named basis where both name one.
void check_comparable(const TrainInfo& ia, const TrainInfo& ib) {
  if (ia.length() != ib.length())
    throw InputError(ia.where() + " has " + std::to_string(ia.length()) + " sites but " +
                     ib.where() + " has " + std::to_string(ib.length()));
  for (std::size_t j = 0; j < ia.length(); ++j) {
    if (ia.dims[j][kLegU] != ib.dims[j][kLegU] || ia.dims[j][kLegD] != ib.dims[j][kLegD])
      throw InputError(ia.where(j) + ": physical legs differ from " + ib.where(j));
    if (j < ia.basis.size() && j < ib.basis.size() && !ia.basis[j].empty() && !ib.basis[j].empty() &&
        ia.basis[j] != ib.basis[j])
      throw InputError(ia.where(j) + " and " + ib.where(j) + " order their physical basis differently");
  }
}

// The figures of a comparison from ⟨a|a⟩, ⟨b|b⟩, ⟨a|b⟩ and log ‖a − b‖ (b described by ib).
Comparison comparison_of(const TrainInfo& ib, const Scaled& s_aa, const Scaled& s_bb, const Scaled& s_ab,
                         double log_distance) {
  const double log_na = 0.5 * s_aa.log_abs(), log_nb = 0.5 * s_bb.log_abs();
  if (!std::isfinite(log_nb))
    throw NumericalError(ib.where() + " has norm 0: ‖A − B‖/‖B‖ is undefined (‖A‖ = " +
                         format_log10(log_na / std::log(10.0)) + ")");
  const Scaled overlap = s_ab;
  Comparison c;
  c.norm_a = std::exp(log_na);
  c.norm_b = std::exp(log_nb);
  c.log10_norm_a = log_na / std::log(10.0);
  c.log10_norm_b = log_nb / std::log(10.0);
  c.overlap = overlap.plain();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  c.cosine = std::isfinite(log_na) ? overlap.value * std::exp(overlap.log_scale - log_na - log_nb) : cdouble(nan, nan);
  c.log10_relative_distance = (log_distance - log_nb) / std::log(10.0);
  c.relative_distance = std::exp(log_distance - log_nb);
  return c;
}

}  // namespace

std::string Comparison::to_json() const {
  JsonObject o;
  o.add("norm_a", norm_a)
      .add("norm_b", norm_b)
      .add("log10_norm_a", log10_norm_a)
      .add("log10_norm_b", log10_norm_b)
      .add("overlap_re", overlap.real())
      .add("overlap_im", overlap.imag())
      .add("cosine_re", cosine.real())
      .add("cosine_im", cosine.imag())
      .add("relative_distance", relative_distance)
      .add("log10_relative_distance", log10_relative_distance);
  return o.str();
}

template <class T>
Comparison compare_sites(Kernels<T>& K, TransferLog& log, const std::string& device, const TrainInfo& ia, const TrainInfo& ib,
                         const std::function<Tensor<T>(std::size_t)>& site_a,
                         const std::function<Tensor<T>(std::size_t)>& site_b) {
  check_comparable(ia, ib);
  CountingGemm<T> gemm(K);
  Mover<T> mover(K, &log, device);
  // Left to right for the inner products, then right to left for the distance: two sites of
  // each train in memory at any time.
  InnerProduct<T> aa(K), bb(K), ab(K);
  double ratio = 0;
  for (std::size_t j = 0; j < ia.length(); ++j) {
    const Tensor<T> a = site_a(j), b = site_b(j);
    aa.add(a, a);
    bb.add(b, b);
    ab.add(a, b);
    ratio += site_norm_log_ratio(a, b);
  }
  DistanceFromRight<T> dist(mover, gemm, ia.length(), ratio);
  for (std::size_t j = ia.length(); j-- > 0;) dist.add(site_a(j), site_b(j));
  return comparison_of(ib, aa.value(), bb.value(), ab.value(), dist.log_value());
}

Comparison compare(const TrainRef& a_ref, const TrainRef& b_ref, std::uint64_t host_memory, const BackendMaker& make,
                   bool use_charges) {
  auto readers = open_trains({a_ref, b_ref});
  TrainReader &ra = readers[0], &rb = readers[1];
  const auto &ia = ra.info(), &ib = rb.info();
  check_comparable(ia, ib);
  const DType dt = promote(ia.dtype(), ib.dtype());
  // Two sites of each train at a time: the budget is checked from the shapes, before reading.
  const std::uint64_t budget = host_budget(host_memory);
  for (std::size_t j = 0; j < ia.length(); ++j) {
    const std::uint64_t need = static_cast<std::uint64_t>(distance_step_elements(ia.dims[j], ib.dims[j])) * dtype_size(dt);
    if (need > budget)
      throw ResourceError("distance, site " + std::to_string(j) + ": needs " + format_size(need) +
                          " but the host budget is " + format_size(budget) + " (" +
                          opt::kHostMemory.name() + ")");
  }
  // Charged trains are compared in their blocks, both held whole: where even their dense size
  // fits the budget (else two sites at a time, dense).
  std::optional<PhysicalCharges> charges;
  if (use_charges) charges = common_charges(ia, ib);
  if (charges) {
    std::uint64_t whole = 0;
    for (std::size_t j = 0; j < ia.length(); ++j)
      whole += (shape_size({ia.dims[j][0], ia.dims[j][1], ia.dims[j][2], ia.dims[j][3]}) +
                shape_size({ib.dims[j][0], ib.dims[j][1], ib.dims[j][2], ib.dims[j][3]})) * dtype_size(dt);
    if (whole > budget) charges.reset();
  }
  TransferLog log;
  const std::unique_ptr<Backend> made = make();
  Backend& backend = *made;
  return visit_dtype(dt, [&](auto zero) {
    using T = decltype(zero);
    auto& K = backend.kernels<T>();
    if (K.moves_data()) charges.reset();  // a device measures dense, as it sweeps
    auto site = [&](TrainReader& r, std::size_t j) {
      return to_internal<T>(r.read_site(j, log), r.info(), j, log);
    };
    if (charges) {
      // Both trains whole, in their charge blocks (within the budget checked above).
      ReaderSiteSource<T> sa(ra, log), sb(rb, log);
      const auto a = charged_stack(K, sa, ia.length(), {*charges}, {ia.where()}).sites.front();
      const auto b = charged_stack(K, sb, ib.length(), {*charges}, {ib.where()}).sites.front();
      const ChargedComparison c = charged_comparison(K, a, b, charges->rule);
      ra.check_unchanged();
      rb.check_unchanged();
      return comparison_of(ib, c.aa, c.bb, c.ab, c.log_distance);
    }
    const Comparison c = compare_sites<T>(K, log, backend.name(), ia, ib, [&](std::size_t j) { return site(ra, j); },
                                          [&](std::size_t j) { return site(rb, j); });
    ra.check_unchanged();
    rb.check_unchanged();
    return c;
  });
}

#define SRCC_INSTANTIATE(T)                                                                                     \
  template Comparison compare_sites(Kernels<T>&, TransferLog&, const std::string&, const TrainInfo&, const TrainInfo&, \
                                    const std::function<Tensor<T>(std::size_t)>&,                                    \
                                    const std::function<Tensor<T>(std::size_t)>&);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
