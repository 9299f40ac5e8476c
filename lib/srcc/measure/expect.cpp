#include "srcc/measure/expect.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "srcc/core/error.hpp"
#include "srcc/core/json.hpp"
#include "srcc/core/options.hpp"
#include "srcc/core/size.hpp"
#include "srcc/plan/budgets.hpp"
#include "srcc/backend/counting_gemm.hpp"
#include "srcc/io/file_site_source.hpp"
#include "srcc/io/train_reader.hpp"
#include "srcc/backend/cpu/cpu_backend.hpp"
#include "srcc/measure/charged_sandwich.hpp"
#include "srcc/measure/local_observables.hpp"
#include "srcc/measure/overlap.hpp"
#include "srcc/measure/sandwich.hpp"
#include "srcc/movement/mover.hpp"
#include "srcc/symmetric/charged_stack.hpp"
#include "srcc/sweep/truncation_sweep.hpp"
#include "srcc/train/site_loader.hpp"

namespace srcc {

namespace {

// The sandwiches of one expect run: ⟨ψ|ψ⟩, ⟨φ|ψ⟩, ⟨φ|O_i|ψ⟩ and ⟨ψ|O_i O_i|ψ⟩.
struct Moments {
  Scaled norm, overlap;
  std::vector<Scaled> first, second;
};

// The sandwiches `Sw` (dense or charged) over the sites `site(j)` gives: the operators first,
// then the ket, then the bra when there is one.
template <class Sw, class T, class Sites>
Moments moments(Kernels<T>& K, std::size_t n, std::size_t nops, bool bra, bool variance, Sites site) {
  Sw norm(K, 0), overlap(K, 0);
  std::vector<Sw> first, second;
  for (std::size_t i = 0; i < nops; ++i) {
    first.emplace_back(K, 1);
    if (variance) second.emplace_back(K, 2);
  }
  for (std::size_t j = 0; j < n; ++j) {
    const auto sites = site(j);
    const auto& k = sites[nops];
    const auto& b = bra ? sites[nops + 1] : k;
    norm.add(k, {}, k);
    if (bra) overlap.add(b, {}, k);
    for (std::size_t i = 0; i < nops; ++i) {
      first[i].add(b, {&sites[i]}, k);
      if (variance) second[i].add(k, {&sites[i], &sites[i]}, k);
    }
  }
  Moments m{norm.value(), overlap.value(), {}, {}};
  for (const auto& f : first) m.first.push_back(f.value());
  for (const auto& s : second) m.second.push_back(s.value());
  return m;
}

// Every train's charges where all carry them and they agree where layers meet (each operator
// between the state and itself, O·O for the variance, the bra's legs the ket's); else none.
std::optional<std::vector<PhysicalCharges>> common_charges(const std::vector<TrainReader>& readers, std::size_t nops,
                                                           bool variance) {
  std::vector<PhysicalCharges> q;
  for (const auto& r : readers) {
    auto c = train_charges(r.info());
    if (!c) return std::nullopt;
    q.push_back(std::move(*c));
  }
  const PhysicalCharges& ket = q[nops];
  for (std::size_t i = 0; i < nops; ++i) {
    if (!charges_compatible({q[i], ket}).empty()) return std::nullopt;
    if (variance && !charges_compatible({q[i], q[i], ket}).empty()) return std::nullopt;
  }
  if (q.size() > nops + 1 && !same_state_charges(q[nops + 1], ket)) return std::nullopt;
  return q;
}


// The named operators a request measures, in the state's basis, and its site type.
struct Local {
  SiteType type;
  std::vector<SiteOperator> site_ops;
  std::vector<std::pair<SiteOperator, SiteOperator>> pairs;
  SiteOperator parity;
  bool is_real = true;
};

Local local_operators(const StateRequest& r, const TrainInfo& ket) {
  Local out;
  if (!r.local()) return out;
  std::vector<std::string> names = r.site_ops;
  for (const auto& [a, b] : r.correlations) names.insert(names.end(), {a, b});
  StateOperators ops = state_operators(r.site, names, ket);
  out.type = std::move(ops.type);
  out.parity = std::move(ops.parity);
  out.is_real = ops.is_real;
  out.site_ops.assign(ops.ops.begin(), ops.ops.begin() + static_cast<std::ptrdiff_t>(r.site_ops.size()));
  for (std::size_t i = r.site_ops.size(); i < ops.ops.size(); i += 2) {
    out.pairs.emplace_back(ops.ops[i], ops.ops[i + 1]);
    if (r.connected && ops.ops[i].fermionic)
      throw UsageError("--connected with " + ops.ops[i].name + ", " + ops.ops[i + 1].name +
                       ": odd operators have ⟨A_i⟩ = 0 in a state of definite parity");
  }
  return out;
}

// `cores`: the state right-canonical, dense (Tensor) or in its blocks (BlockTensor).
template <class T, class Core>
void measure_locally(Kernels<T>& K, const std::vector<Core>& cores, const Local& local, const StateRequest& r,
                     ExpectResult& out) {
  const std::size_t n = cores.size();
  const std::size_t first = r.first, last = r.last == 0 ? n : r.last;
  if (first >= last || last > n)
    throw UsageError(opt::kCorrelationSites.name() + " " + std::to_string(first) + ":" + std::to_string(last) +
                     ": give sites within 0:" + std::to_string(n) + ", the first below the last");
  out.site_type = local.type.name;
  for (std::size_t i = 0; i < local.site_ops.size(); ++i)
    out.site_values.push_back({r.site_ops[i], site_expectations(K, cores, local.site_ops[i])});
  for (std::size_t i = 0; i < local.pairs.size(); ++i) {
    const auto& [a, b] = local.pairs[i];
    CorrelationTable t{r.correlations[i].first, r.correlations[i].second, first, last - first, r.connected,
                       correlation_matrix(K, cores, a, b, local.parity, first, last)};
    if (r.connected) {
      const auto ea = site_expectations(K, cores, a), eb = site_expectations(K, cores, b);
      for (std::size_t x = 0; x < t.count; ++x)
        for (std::size_t y = 0; y < t.count; ++y) t.values[x * t.count + y] -= ea[first + x] * eb[first + y];
    }
    out.correlations.push_back(std::move(t));
  }
}


// Tr(ρ O_i)/Tr ρ and Tr ρ of the MPO state readers[nops], site by site: Tr(ρ O) = ⟨Ô|ρ⟩ with
// Ô[u, d] = conj(O[d, u]), an inner product of trains (at unit scale per site, its scale aside),
// and Tr ρ = ⟨1|ρ⟩.
ExpectResult traces(const std::vector<TrainReader>& readers, std::size_t nops, const BackendMaker& make,
                    std::vector<std::string> notes) {
  const TrainReader& rho = readers[nops];
  const std::size_t n = rho.info().length();
  DType dt = rho.info().dtype();
  for (std::size_t i = 0; i < nops; ++i) dt = promote(dt, readers[i].info().dtype());
  TransferLog log;
  const std::unique_ptr<Backend> made = make();
  return visit_dtype(dt, [&](auto zero) {
    using T = decltype(zero);
    auto& K = made->kernels<T>();
    InnerProduct<T> trace(K);
    std::vector<InnerProduct<T>> products;
    for (std::size_t i = 0; i < nops; ++i) products.emplace_back(K);
    for (std::size_t j = 0; j < n; ++j) {
      const Tensor<T> r = to_internal<T>(rho.read_site(j, log), rho.info(), j, log);
      const std::size_t d = r.shape[kLegU];
      Tensor<T> one({1, 1, d, d});
      std::fill(one.data.begin(), one.data.end(), T(0));
      for (std::size_t u = 0; u < d; ++u) one.data[u * d + u] = T(1);
      trace.add(one, r);
      for (std::size_t i = 0; i < nops; ++i) {
        const Tensor<T> o = to_internal<T>(readers[i].read_site(j, log), readers[i].info(), j, log);
        Tensor<T> dual(o.shape);
        const std::size_t pairs = o.shape[kLegL] * o.shape[kLegR];
        for (std::size_t k = 0; k < pairs; ++k)
          for (std::size_t u = 0; u < d; ++u)
            for (std::size_t v = 0; v < d; ++v) {
              const T x = o.data[(k * d + v) * d + u];
              if constexpr (is_complex_v<T>) dual.data[(k * d + u) * d + v] = std::conj(x);
              else dual.data[(k * d + u) * d + v] = x;
            }
        products[i].add(dual, r);
      }
    }
    for (const auto& r : readers) r.check_unchanged();
    ExpectResult out;
    out.notes = std::move(notes);
    const Scaled tr = trace.value();
    if (!std::isfinite(tr.log_abs()))
      throw NumericalError(rho.info().where() + " has trace 0: Tr(ρ O)/Tr ρ is undefined");
    out.trace = tr.value / std::abs(tr.value);  // its phase; its size in log10_trace
    out.log10_trace = tr.log_abs() / std::log(10.0);
    out.log10_norm = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t i = 0; i < nops; ++i) {
      const Scaled v = products[i].value();
      Expectation e;
      e.op = readers[i].info().where();
      e.value = v.value / tr.value * std::exp(v.log_scale - tr.log_scale);
      out.rows.push_back(e);
    }
    return out;
  });
}

}  // namespace

std::string ExpectResult::to_json() const {
  std::string rows_json = "[";
  for (const auto& r : rows) {
    JsonObject o;
    o.add("operator", r.op).add("re", r.value.real()).add("im", r.value.imag());
    if (r.variance) o.add("variance", *r.variance);
    rows_json += (rows_json.size() > 1 ? ", " : "") + o.str();
  }
  JsonObject o;
  if (trace) o.add("trace_phase_re", trace->real()).add("trace_phase_im", trace->imag()).add("log10_trace", log10_trace);
  else o.add("log10_norm", log10_norm);
  if (overlap) o.add("overlap_re", overlap->real()).add("overlap_im", overlap->imag());
  o.add_raw("operators", rows_json + "]");
  if (!entanglement.empty()) {
    std::string bonds = "[";
    for (const auto& b : entanglement) {
      JsonObject e;
      e.add("bond", static_cast<std::int64_t>(b.bond)).add("von_neumann", b.von_neumann);
      if (b.renyi) e.add("renyi", *b.renyi);
      e.add("rank", static_cast<std::int64_t>(b.rank()));
      std::string sectors = "[";
      for (const auto& sv : b.sectors) {
        std::string values = "[";
        for (std::size_t i = 0; i < sv.values.size(); ++i) values += (i ? ", " : "") + json_number(sv.values[i]);
        JsonObject sector;
        sector.add_raw("charge", json_array(std::vector<long long>(sv.charge))).add_raw("schmidt", values + "]");
        sectors += (sectors.size() > 1 ? ", " : "") + sector.str();
      }
      e.add_raw("sectors", sectors + "]");
      bonds += (bonds.size() > 1 ? ", " : "") + e.str();
    }
    o.add_raw("entanglement", bonds + "]");
  }
  auto numbers = [](const std::vector<cdouble>& v, std::size_t from, std::size_t count, bool imag) {
    std::string a = "[";
    for (std::size_t i = 0; i < count; ++i) a += (i ? ", " : "") + json_number(imag ? v[from + i].imag() : v[from + i].real());
    return a + "]";
  };
  if (!site_values.empty()) {
    std::string a = "[";
    for (const auto& sv : site_values) {
      JsonObject e;
      e.add("op", sv.op).add_raw("re", numbers(sv.values, 0, sv.values.size(), false)).add_raw("im", numbers(sv.values, 0, sv.values.size(), true));
      a += (a.size() > 1 ? ", " : "") + e.str();
    }
    o.add("site_type", site_type).add_raw("site_ops", a + "]");
  }
  if (!correlations.empty()) {
    std::string a = "[";
    for (const auto& c : correlations) {
      std::string re = "[", im = "[";
      for (std::size_t i = 0; i < c.count; ++i) {
        re += (i ? ", " : "") + numbers(c.values, i * c.count, c.count, false);
        im += (i ? ", " : "") + numbers(c.values, i * c.count, c.count, true);
      }
      JsonObject e;
      e.add("a", c.a).add("b", c.b).add("first", static_cast<std::int64_t>(c.first)).add("connected", c.connected);
      e.add_raw("re", re + "]").add_raw("im", im + "]");
      a += (a.size() > 1 ? ", " : "") + e.str();
    }
    if (site_values.empty()) o.add("site_type", site_type);
    o.add_raw("correlations", a + "]");
  }
  return o.str();
}

ExpectResult expect(const TrainRef& ket_ref, const std::vector<TrainRef>& op_refs,
                    const std::optional<TrainRef>& bra_ref, bool variance, const BackendMaker& make,
                    std::uint64_t host_memory, bool use_charges, const StateRequest& state) {
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
  // A density operator (an MPO state): Tr(ρ O)/Tr ρ, and Tr ρ itself.
  const bool mixed = ket.info().kind == TrainKind::kMpo;
  if (mixed && (bra_ref || variance || state.whole()))
    throw UsageError(ket.info().where() + " is an MPO: expect gives Tr(ρ O)/Tr ρ of a density operator, without " +
                     "--bra, --variance or measures of a pure state (--entropy, --site-op, --correlation)");
  if (!mixed && ket.info().kind != TrainKind::kMps) throw UsageError(ket.info().where() + ": the state must be an MPS or MPO");
  if (!mixed && state.trace)
    throw UsageError(opt::kTrace.name() + ": " + ket.info().where() + " is an MPS (its norm is printed); the trace is an MPO state's");
  if (bra.info().kind != ket.info().kind) throw UsageError(bra.info().where() + ": the bra must be an MPS");
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
      if ((i < nops && (d[kLegU] != p || d[kLegD] != p)) || (i >= nops && d[kLegU] != p) || (mixed && d[kLegD] != p))
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
  if (mixed) return traces(readers, nops, make, std::move(notes));
  // Charged trains are measured in their blocks, each held whole: where even their dense sizes
  // fit the host budget (else site by site, dense).
  std::optional<std::vector<PhysicalCharges>> charges;
  if (use_charges) charges = common_charges(readers, nops, variance);
  if (charges) {
    std::uint64_t whole = 0;
    for (const auto& r : readers)
      for (const auto& d : r.info().dims) whole += shape_size({d[0], d[1], d[2], d[3]}) * dtype_size(dt);
    if (whole > host_budget(host_memory)) charges.reset();
  }
  const Local local = local_operators(state, ket.info());
  if (!local.is_real) dt = promote(dt, DType::kComplex128);
  if ((state.entropy && !charges) || state.local()) {
    std::uint64_t whole = 0;
    for (const auto& d : ket.info().dims) whole += shape_size({d[0], d[1], d[2], d[3]}) * dtype_size(dt);
    if (whole > host_budget(host_memory))
      throw ResourceError("measuring " + ket.info().where() + " alone holds the whole state, " + format_size(whole) +
                          ", but the host budget is " + format_size(host_budget(host_memory)) + " (" +
                          opt::kHostMemory.name() + ")");
  }
  TransferLog log;
  const std::unique_ptr<Backend> made = make();
  Backend& backend = *made;
  return visit_dtype(dt, [&](auto zero) {
    using T = decltype(zero);
    auto& K = backend.kernels<T>();
    if (K.moves_data()) charges.reset();  // a device measures dense, as it sweeps
    Moments m;
    std::vector<std::vector<SectorValues>> spectra;
    // The state whole, right-canonical (its scale carried aside), for what is measured of it alone.
    std::vector<Tensor<T>> cores;
    std::vector<BlockTensor<T>> charged_cores;  // … or in its blocks, for a charged state
    auto canonical = [&] {
      CountingGemm<T> gemm(K);
      Mover<T> mover(K, &log, backend.name());
      double log_scale = 0;
      right_canonicalize(cores, mover, gemm, &log_scale);
    };
    if (charges) {
      std::vector<std::vector<BlockTensor<T>>> trains;
      for (std::size_t i = 0; i < readers.size(); ++i) {
        ReaderSiteSource<T> source(readers[i], log);
        trains.push_back(charged_stack(K, source, n, {(*charges)[i]}, {readers[i].info().where()}).sites.front());
      }
      m = moments<ChargedSandwich<T>>(K, n, nops, bra_ref.has_value(), variance, [&](std::size_t j) {
        std::vector<BlockTensor<T>> sites;
        for (const auto& t : trains) sites.push_back(t[j]);
        return sites;
      });
      std::vector<BlockTensor<T>> blocks;
      for (const auto& site : trains[nops])
        blocks.push_back(relabelled(site, {axis::kCoreL, axis::kCoreR, axis::kCoreU, axis::kCoreD}));
      if (state.local()) charged_cores = right_canonical_blocks(K, blocks, (*charges)[nops].rule);
      if (state.entropy) spectra = schmidt_spectra(K, std::move(blocks), (*charges)[nops].rule);
    } else {
      m = moments<Sandwich<T>>(K, n, nops, bra_ref.has_value(), variance, [&](std::size_t j) {
        std::vector<Tensor<T>> sites;
        for (auto& r : readers) sites.push_back(to_internal<T>(r.read_site(j, log), r.info(), j, log));
        return sites;
      });
      if (state.whole()) {
        for (std::size_t j = 0; j < n; ++j) cores.push_back(to_internal<T>(readers[nops].read_site(j, log), ket.info(), j, log));
        canonical();
      }
    }
    ExpectResult out;
    if (state.local()) {
      // Dense cores on the host: a device's kernels would need them uploaded for a few small
      // products. Charged ones are where K keeps them (the measurement downloads them once).
      std::unique_lock<std::recursive_mutex> host;
      if (charges) measure_locally(K, charged_cores, local, state, out);
      else measure_locally(host_kernels(K, host), cores, local, state, out);
    }
    if (state.entropy && !charges) {
      // The Schmidt values cut by cut.
      CountingGemm<T> gemm(K);
      Mover<T> mover(K, &log, backend.name());
      std::vector<std::vector<double>> sigma;
      truncate_train(cores, 0, 0.0, 0.0, mover, gemm, false, &sigma);
      for (auto& v : sigma) spectra.push_back({SectorValues{Charge{}, std::move(v)}});
    }
    for (const auto& r : readers) r.check_unchanged();
    out.notes = notes;
    const Scaled nn = m.norm;
    out.log10_norm = 0.5 * nn.log_abs() / std::log(10.0);
    if (!bra_ref && nops > 0 && !std::isfinite(out.log10_norm))
      throw NumericalError(ket.info().where() + " has norm 0: ⟨ψ|O|ψ⟩/⟨ψ|ψ⟩ is undefined");
    if (state.entropy && !std::isfinite(out.log10_norm))
      throw NumericalError(ket.info().where() + " has norm 0: its entanglement is undefined");
    if (state.entropy) out.entanglement = entanglement_of(spectra, state.renyi_alpha);
    // Ratios with the scales apart: ⟨ψ|O|ψ⟩ / ⟨ψ|ψ⟩ is a number even where the norms are not.
    auto ratio = [&](const Scaled& a) { return a.value / nn.value * std::exp(a.log_scale - nn.log_scale); };
    if (bra_ref) out.overlap = m.overlap.plain();
    for (std::size_t i = 0; i < nops; ++i) {
      Expectation e;
      e.op = readers[i].info().where();
      e.value = bra_ref ? m.first[i].plain() : ratio(m.first[i]);
      if (variance) e.variance = (ratio(m.second[i]) - e.value * e.value).real();
      out.rows.push_back(e);
    }
    return out;
  });
}

}  // namespace srcc
