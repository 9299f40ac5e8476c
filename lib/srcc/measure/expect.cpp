#include "srcc/measure/expect.hpp"

#include <algorithm>
#include <cmath>

#include "srcc/core/error.hpp"
#include "srcc/core/json.hpp"
#include "srcc/io/train_reader.hpp"
#include "srcc/measure/sandwich.hpp"
#include "srcc/train/site_loader.hpp"

namespace srcc {

std::string ExpectResult::to_json() const {
  std::string rows_json = "[";
  for (const auto& r : rows) {
    JsonObject o;
    o.add("operator", r.op).add("re", r.value.real()).add("im", r.value.imag());
    if (r.variance) o.add("variance", *r.variance);
    rows_json += (rows_json.size() > 1 ? ", " : "") + o.str();
  }
  JsonObject o;
  o.add("log10_norm", log10_norm);
  if (overlap) o.add("overlap_re", overlap->real()).add("overlap_im", overlap->imag());
  o.add_raw("operators", rows_json + "]");
  return o.str();
}

ExpectResult expect(const TrainRef& ket_ref, const std::vector<TrainRef>& op_refs,
                    const std::optional<TrainRef>& bra_ref, bool variance, const BackendMaker& make) {
  if (variance && bra_ref)
    throw UsageError("--variance is the state's (⟨ψ|O²|ψ⟩ − ⟨ψ|O|ψ⟩²): give it without --bra");
  std::vector<TrainRef> refs = op_refs;
  refs.push_back(ket_ref);
  if (bra_ref) refs.push_back(*bra_ref);
  auto readers = open_trains(refs);
  std::vector<std::string> notes;
  const std::size_t nops = op_refs.size();
  const TrainReader& ket = readers[nops];
  const TrainReader& bra = bra_ref ? readers[nops + 1] : ket;
  if (ket.info().kind != TrainKind::kMps) throw UsageError(ket.info().where() + ": the state must be an MPS");
  if (bra.info().kind != TrainKind::kMps) throw UsageError(bra.info().where() + ": the bra must be an MPS");
  const std::size_t n = ket.info().length();
  DType dt = ket.info().dtype();
  for (std::size_t i = 0; i < readers.size(); ++i) {
    const TrainInfo& t = readers[i].info();
    if (i < nops && t.kind != TrainKind::kMpo) throw UsageError(t.where() + ": an operator must be an MPO");
    if (t.length() != n)
      throw InputError(t.where() + " has " + std::to_string(t.length()) + " sites but " + ket.info().where() +
                       " has " + std::to_string(n));
    dt = promote(dt, t.dtype());
    for (std::size_t j = 0; j < n; ++j) {
      const std::size_t p = ket.info().dims[j][kLegU];
      const auto& d = t.dims[j];
      if ((i < nops && (d[kLegU] != p || d[kLegD] != p)) || (i >= nops && d[kLegU] != p))
        throw InputError(t.where(j) + ": physical legs do not match " + ket.info().where(j) + " (dimension " +
                         std::to_string(p) + ")");
    }
    if (i < nops) {
      Stack s;
      s.layers = {t, ket.info()};
      for (auto& note : check_bases(s))
        if (std::find(notes.begin(), notes.end(), note) == notes.end()) notes.push_back(std::move(note));
    }
  }
  TransferLog log;
  const std::unique_ptr<Backend> made = make();
  Backend& backend = *made;
  return visit_dtype(dt, [&](auto zero) {
    using T = decltype(zero);
    auto& K = backend.kernels<T>();
    Sandwich<T> norm(K, 0), overlap(K, 0);
    std::vector<Sandwich<T>> first, second;
    for (std::size_t i = 0; i < nops; ++i) {
      first.emplace_back(K, 1);
      if (variance) second.emplace_back(K, 2);
    }
    for (std::size_t j = 0; j < n; ++j) {
      std::vector<Tensor<T>> sites;
      for (auto& r : readers) sites.push_back(to_internal<T>(r.read_site(j, log), r.info(), j, log));
      const Tensor<T>& k = sites[nops];
      const Tensor<T>& b = bra_ref ? sites[nops + 1] : k;
      norm.add(k, {}, k);
      if (bra_ref) overlap.add(b, {}, k);
      for (std::size_t i = 0; i < nops; ++i) {
        first[i].add(b, {&sites[i]}, k);
        if (variance) second[i].add(k, {&sites[i], &sites[i]}, k);
      }
    }
    for (const auto& r : readers) r.check_unchanged();
    ExpectResult out;
    out.notes = notes;
    const Scaled nn = norm.value();
    out.log10_norm = 0.5 * nn.log_abs() / std::log(10.0);
    if (!bra_ref && nops > 0 && !std::isfinite(out.log10_norm))
      throw NumericalError(ket.info().where() + " has norm 0: ⟨ψ|O|ψ⟩/⟨ψ|ψ⟩ is undefined");
    // Ratios with the scales apart: ⟨ψ|O|ψ⟩ / ⟨ψ|ψ⟩ is a number even where the norms are not.
    auto ratio = [&](const Scaled& a) { return a.value / nn.value * std::exp(a.log_scale - nn.log_scale); };
    if (bra_ref) out.overlap = overlap.value().plain();
    for (std::size_t i = 0; i < nops; ++i) {
      Expectation e;
      e.op = readers[i].info().where();
      e.value = bra_ref ? first[i].value().plain() : ratio(first[i].value());
      if (variance) e.variance = (ratio(second[i].value()) - e.value * e.value).real();
      out.rows.push_back(e);
    }
    return out;
  });
}

}  // namespace srcc
