// The compiled half of the `srcc` Python package (imported as srcc._srcc; srcc/__init__.py is the
// interface users call). It takes trains in the library's own layout, (l, r, u) or (l, r, u, d)
// numpy arrays with unit outer bonds, runs the library's in-memory session functions with the
// GIL released, and raises the library's errors as the package's exception classes, one per
// exit kind of the command-line program.
#include <pybind11/complex.h>
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "srcc/backend/cpu/blas_core.hpp"
#include "srcc/backend/device.hpp"
#include "srcc/core/error.hpp"
#include "srcc/core/size.hpp"
#include "srcc/io/train_reader.hpp"
#include "srcc/plan/methods.hpp"
#include "srcc/session/memory_run.hpp"
#include "srcc/session/xtensor_trains.hpp"
#include "srcc/version.hpp"

namespace py = pybind11;

// A charge (srcc::InlineVector) goes to and from Python as a list, as a std::vector would.
namespace pybind11::detail {
template <class T, std::size_t N>
struct type_caster<srcc::InlineVector<T, N>> : list_caster<srcc::InlineVector<T, N>, T> {};
}  // namespace pybind11::detail

namespace {

using srcc::DType;
using srcc::MemoryTrain;
using srcc::Tensor;
using srcc::TrainKind;

TrainKind kind_of(const std::string& k) {
  if (k == "mps") return TrainKind::kMps;
  if (k == "mpo") return TrainKind::kMpo;
  throw srcc::UsageError("a train's kind is \"mps\" or \"mpo\", not \"" + k + "\"");
}
std::string kind_name(TrainKind k) { return k == TrainKind::kMps ? "mps" : "mpo"; }

// Physical charges as Python holds them: {"moduli": [1 for U(1), N for Z_N, …], "up": per site,
// per index, its charges; "down": the same for the lower leg (an MPS's: one index of zeros)}.
std::optional<srcc::PhysicalCharges> charges_from(const py::handle& obj) {
  if (obj.is_none()) return std::nullopt;
  const auto d = obj.cast<py::dict>();
  srcc::PhysicalCharges c;
  c.rule.moduli = d["moduli"].cast<std::vector<long long>>();
  c.up = d["up"].cast<std::vector<std::vector<srcc::Charge>>>();
  c.down = d["down"].cast<std::vector<std::vector<srcc::Charge>>>();
  for (const auto* side : {&c.up, &c.down})
    for (const auto& site : *side)
      for (const auto& q : site)
        if (q.size() != c.rule.count())
          throw srcc::InputError("charges: an index with " + std::to_string(q.size()) + " charges where the rule has " +
                                 std::to_string(c.rule.count()));
  return c;
}
py::object charges_to(const std::optional<srcc::PhysicalCharges>& c) {
  if (!c) return py::none();
  py::dict d;
  d["moduli"] = c->rule.moduli;
  d["up"] = c->up;
  d["down"] = c->down;
  return d;
}

// ("mps"|"mpo", [site arrays], charges or None) as a train of T: each array copied once,
// C-ordered, converted to T.
template <class T> MemoryTrain<T> train_from(const py::handle& obj, const std::string& name) {
  const auto pair = obj.cast<py::tuple>();
  MemoryTrain<T> out;
  out.kind = kind_of(pair[0].cast<std::string>());
  if (pair.size() > 2) out.charges = charges_from(pair[2]);
  const std::size_t rank = out.kind == TrainKind::kMps ? 3 : 4;
  std::size_t j = 0;
  for (const auto& item : pair[1]) {
    const auto a = py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(item);
    if (!a) throw srcc::InputError(name + "/" + std::to_string(j) + ": not an array of numbers");
    if (static_cast<std::size_t>(a.ndim()) != rank)
      throw srcc::InputError(name + "/" + std::to_string(j) + ": a site of rank " + std::to_string(a.ndim()) + " in an " +
                             kind_name(out.kind) + " (sites are (l, r, u" + (rank == 4 ? ", d)" : ")") + ")");
    srcc::Shape shape(a.shape(), a.shape() + a.ndim());
    if (rank == 3) shape.push_back(1);
    Tensor<T> t(shape);
    std::copy(a.data(), a.data() + a.size(), t.data.begin());
    out.sites.push_back(std::move(t));
    ++j;
  }
  return out;
}

// A train as ("mps"|"mpo", [arrays], charges or None): an MPS's sites lose their d = 1.
template <class T>
py::tuple train_to(TrainKind kind, std::vector<Tensor<T>>&& sites, const std::optional<srcc::PhysicalCharges>& charges) {
  py::list arrays;
  for (auto& s : sites) {
    std::vector<py::ssize_t> shape(s.shape.begin(), s.shape.end());
    if (kind == TrainKind::kMps) shape.pop_back();
    py::array_t<T> a(shape);
    std::copy(s.data.begin(), s.data.end(), a.mutable_data());
    arrays.append(std::move(a));
  }
  return py::make_tuple(kind_name(kind), arrays, charges_to(charges));
}

template <class T> T weight_of(std::complex<double> w) {
  if constexpr (srcc::is_complex_v<T>) return T(w);
  else {
    if (w.imag() != 0) throw srcc::UsageError("a complex weight in a real working type: give dtype=\"complex128\"");
    return T(w.real());
  }
}

srcc::Execution execution_of(const py::dict& o) {
  srcc::Execution e;
  if (o.contains("threads") && !o["threads"].is_none()) e.threads = o["threads"].cast<int>();
  e.threads_source = "the threads argument";
  auto bytes = [&](const char* key, std::uint64_t& out) {
    if (!o.contains(key) || o[key].is_none()) return;
    const py::object v = o[key];
    out = py::isinstance<py::str>(v) ? srcc::parse_size(v.cast<std::string>(), key) : v.cast<std::uint64_t>();
  };
  bytes("host_memory", e.host_memory);
  bytes("gpu_memory", e.gpu_memory);
  if (o.contains("device") && !o["device"].is_none()) e.device = srcc::parse_device(o["device"].cast<std::string>());
  if (o.contains("scratch_dir") && !o["scratch_dir"].is_none()) e.scratch_dir = o["scratch_dir"].cast<std::string>();
  return e;
}

srcc::SweepOptions sweep_of(const py::dict& o) {
  srcc::SweepOptions s;
  if (o.contains("method")) {
    const auto m = o["method"].cast<std::string>();
    s.method = m == "svd" ? srcc::Method::kSvd : srcc::parse_method(m);  // svd: truncate's, not apply's
  }
  if (o.contains("chi")) s.chi = o["chi"].cast<std::size_t>();
  if (o.contains("cutoff") && !o["cutoff"].is_none()) {
    s.cutoff = o["cutoff"].cast<double>();
    s.numerical_zeros = s.cutoff != 0;  // as --cutoff 0 turns the rounding cutoff off
  }
  if (o.contains("oversample") && !o["oversample"].is_none()) {
    const py::object v = o["oversample"];
    s.oversample = py::isinstance<py::bool_>(v) ? (v.cast<bool>() ? 1.5 : 0.0) : v.cast<double>();
  }
  if (o.contains("tol")) s.tol = o["tol"].cast<double>();
  if (o.contains("seed")) s.seed = o["seed"].cast<std::uint64_t>();
  if (o.contains("fit_sweeps")) s.fit_sweeps = o["fit_sweeps"].cast<std::size_t>();
  if (o.contains("fit_tol")) s.fit_tol = o["fit_tol"].cast<double>();
  return s;
}

// The record of a run: what the CLI's summary and /log say of it.
template <class T>
py::dict record_of(const srcc::SweepResult<T>& r, const srcc::SweepOptions& s, double seconds, const srcc::MemoryRunInfo& info) {
  py::dict d;
  d["method"] = srcc::method_name(s.method);
  d["seed"] = s.seed;
  d["chi"] = s.chi;
  d["error_estimate"] = r.error_estimate;
  d["log_scale"] = r.log_scale;
  d["seconds"] = seconds;  // in the library: the trains checked, planned and swept
  d["gflop"] = r.flops / 1e9;
  d["capped_cuts"] = r.capped_cuts;
  py::list bonds, cuts, fit;
  for (std::size_t j = 1; j < r.cores.size(); ++j) bonds.append(r.cores[j].shape[srcc::kLegL]);
  for (std::size_t j = 1; j < r.sites.size(); ++j) {
    py::dict c;
    c["cut"] = j;
    c["bond"] = r.sites[j].bond_left;
    c["sketch_columns"] = r.sites[j].sketch_columns;
    c["error_estimate"] = r.sites[j].error_estimate;
    c["truncation_error"] = r.sites[j].truncation_error;
    cuts.append(std::move(c));
  }
  for (const auto& f : r.fit) {
    py::dict e;
    e["norm"] = f.norm;
    e["gain"] = f.gain;
    e["error_estimate"] = f.error_estimate;
    e["seconds"] = f.seconds;
    fit.append(std::move(e));
  }
  d["bonds"] = bonds;
  d["cuts"] = cuts;
  d["fit_sweeps"] = fit;
  d["sweep_seconds"] = info.sweep_seconds;
  py::list plans;  // the figures `--dry-run` shows, per term
  for (const auto& p : info.plans) {
    py::dict e;
    e["sketch_columns"] = p.sketch_columns;
    e["device"] = p.device;
    e["threads"] = p.threads;
    e["input_bytes"] = p.input_bytes;
    e["environment_bytes"] = p.environment_bytes;
    e["peak_bytes"] = p.peak_bytes;
    e["scratch_bytes"] = p.scratch_bytes;
    e["predicted_flops"] = p.predicted_flops;
    plans.append(std::move(e));
  }
  d["plans"] = plans;
  d["symmetry"] = info.symmetry;  // the charges computed on ("" : dense)
  if (!info.symmetry_note.empty()) d["symmetry_note"] = info.symmetry_note;
  return d;
}

// Between sites: Python's signal handlers run (with the GIL) and a KeyboardInterrupt they raise
// stops the sweep; the exception is kept and raised once the sweep has unwound.
struct Interrupts {
  py::object pending;
  std::function<void()> check() {
    return [this] {
      py::gil_scoped_acquire gil;
      if (PyErr_CheckSignals() != 0) {
        pending = py::reinterpret_steal<py::object>(PyErr_GetRaisedException_compat());
        throw srcc::InterruptedError("stopped by a Python signal handler");
      }
    };
  }
  // Python 3.11 has no PyErr_GetRaisedException: the value of the fetched triple.
  static PyObject* PyErr_GetRaisedException_compat() {
    PyObject *type, *value, *trace;
    PyErr_Fetch(&type, &value, &trace);
    PyErr_NormalizeException(&type, &value, &trace);
    if (trace != nullptr) PyException_SetTraceback(value, trace);
    Py_XDECREF(type);
    Py_XDECREF(trace);
    return value;
  }
  [[noreturn]] void raise() {
    PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(pending.ptr())), pending.ptr());
    throw py::error_already_set();
  }
};

template <class T> py::tuple run_typed(const py::list& terms, const py::dict& options) {
  std::vector<std::vector<MemoryTrain<T>>> trains;
  std::vector<T> weights;
  for (std::size_t k = 0; k < terms.size(); ++k) {
    const auto term = terms[k].cast<py::tuple>();
    weights.push_back(weight_of<T>(term[0].cast<std::complex<double>>()));
    trains.emplace_back();
    std::size_t i = 0;
    for (const auto& t : term[1])
      trains.back().push_back(train_from<T>(t, "term " + std::to_string(k) + ", train " + std::to_string(i++)));
  }
  std::vector<srcc::MemoryTerm<T>> mt(trains.size());
  for (std::size_t k = 0; k < trains.size(); ++k) {
    mt[k].weight = weights[k];
    for (const auto& t : trains[k]) mt[k].trains.push_back(&t);
  }
  const srcc::SweepOptions sweep = sweep_of(options);
  const srcc::Execution exec = execution_of(options);
  const srcc::Symmetry symmetry =
      options.contains("symmetry") ? srcc::parse_symmetry(options["symmetry"].cast<std::string>()) : srcc::Symmetry::kAuto;
  Interrupts interrupts;
  srcc::SweepResult<T> r;
  srcc::MemoryRunInfo info;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    py::gil_scoped_release free;
    r = srcc::run_in_memory<T>(mt, sweep, exec, interrupts.check(), &info, symmetry);
  } catch (const srcc::InterruptedError&) {
    if (interrupts.pending) interrupts.raise();
    throw;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  py::dict record = record_of(r, sweep, seconds, info);
  const TrainKind kind = r.kind;
  return py::make_tuple(train_to<T>(kind, std::move(r.cores), info.charges), record);
}

template <class F> auto by_dtype(const std::string& dtype, F&& f) {
  switch (srcc::parse_dtype(dtype, "dtype")) {
    case DType::kFloat32: return f(float{});
    case DType::kFloat64: return f(double{});
    case DType::kComplex64: return f(srcc::cfloat{});
    case DType::kComplex128: return f(srcc::cdouble{});
  }
  throw srcc::UsageError("dtype " + dtype);
}

py::tuple run(const py::list& terms, const py::dict& options, const std::string& dtype) {
  return by_dtype(dtype, [&](auto zero) { return run_typed<decltype(zero)>(terms, options); });
}

// The train at path:group in its own type (the promoted type of its sites), or in `dtype`.
py::tuple read_train(const std::string& path, const std::string& group, const std::string& dtype) {
  std::optional<srcc::PhysicalCharges> charges;
  std::string type = dtype;
  {
    const auto readers = srcc::open_trains({srcc::TrainRef{path, group}});
    charges = srcc::train_charges(readers.front().info());
    if (type.empty()) type = std::string(srcc::dtype_name(readers.front().info().dtype()));
  }
  return by_dtype(type, [&](auto zero) {
    using T = decltype(zero);
    TrainKind kind = TrainKind::kMps;
    srcc::XTrain<T> x;
    {
      py::gil_scoped_release free;
      x = srcc::read_xtrain<T>(path, group, &kind);
    }
    py::list arrays;
    for (const auto& a : x) {
      py::array_t<T> out(std::vector<py::ssize_t>(a.shape().begin(), a.shape().end()));
      std::copy(a.begin(), a.end(), out.mutable_data());
      arrays.append(std::move(out));
    }
    return py::make_tuple(kind_name(kind), arrays, charges_to(charges));
  });
}

void write_train(const std::string& path, const py::tuple& train, const std::string& group, bool force, const std::string& dtype) {
  by_dtype(dtype, [&](auto zero) {
    using T = decltype(zero);
    const MemoryTrain<T> t = train_from<T>(train, "memory:" + group);
    py::gil_scoped_release free;
    srcc::write_memory_train<T>(path, t, group, force);
    return 0;
  });
}

// `train` in the format of the train at like_file:like_group, on its sites (as --template).
py::dict write_like(const std::string& path, const py::tuple& train, const std::string& like_file,
                    const std::string& like_group, bool force, const py::dict& options, const std::string& dtype) {
  return by_dtype(dtype, [&](auto zero) {
    using T = decltype(zero);
    const MemoryTrain<T> t = train_from<T>(train, "train");
    const srcc::Execution exec = execution_of(options);
    srcc::WriteBack wb;
    {
      py::gil_scoped_release free;
      wb = srcc::write_memory_train_like<T>(path, t, srcc::TrainRef{like_file, like_group}, force, exec);
    }
    py::dict d;
    d["group"] = wb.group;
    d["dropped_weight"] = wb.dropped_weight;
    d["truncated_weight"] = wb.truncated_weight;
    return d;
  });
}

py::dict compare(const py::tuple& a, const py::tuple& b, const py::dict& options, const std::string& dtype) {
  return by_dtype(dtype, [&](auto zero) {
    using T = decltype(zero);
    const MemoryTrain<T> ta = train_from<T>(a, "a"), tb = train_from<T>(b, "b");
    const srcc::Execution exec = execution_of(options);
    srcc::Comparison c;
    {
      py::gil_scoped_release free;
      c = srcc::compare_in_memory(ta, tb, exec);
    }
    py::dict d;
    d["norm_a"] = c.norm_a;
    d["norm_b"] = c.norm_b;
    d["log10_norm_a"] = c.log10_norm_a;
    d["log10_norm_b"] = c.log10_norm_b;
    d["overlap"] = c.overlap;
    d["cosine"] = c.cosine;
    d["relative_distance"] = c.relative_distance;
    d["log10_relative_distance"] = c.log10_relative_distance;
    return d;
  });
}

py::tuple sandwich(const py::tuple& bra, const py::list& ops, const py::tuple& ket, const py::dict& options,
                   const std::string& dtype) {
  return by_dtype(dtype, [&](auto zero) {
    using T = decltype(zero);
    const MemoryTrain<T> tb = train_from<T>(bra, "bra"), tk = train_from<T>(ket, "ket");
    std::vector<MemoryTrain<T>> to;
    for (std::size_t i = 0; i < ops.size(); ++i) to.push_back(train_from<T>(ops[i], "operator " + std::to_string(i)));
    std::vector<const MemoryTrain<T>*> po;
    for (const auto& o : to) po.push_back(&o);
    const srcc::Execution exec = execution_of(options);
    srcc::Scaled s;
    {
      py::gil_scoped_release free;
      s = srcc::sandwich_in_memory(tb, po, tk, exec);
    }
    return py::make_tuple(s.value, s.log_scale);
  });
}

}  // namespace

PYBIND11_MODULE(_srcc, m) {
  m.doc() = "The compiled half of srcc; use the srcc package.";
  m.attr("version") = srcc::kVersion;
  // The kernels OpenBLAS should have been started with, where it chose its SSE3 ones for a CPU
  // it does not know (blas_core.hpp); "" otherwise. An interpreter cannot be restarted with them
  // as the program is: the package says how to start Python instead.
  m.def("better_blas_kernels", &srcc::better_blas_core);
  m.def("blas_kernels", &srcc::blas_core);
  // One class per error kind of the command-line program (its exit codes), under srcc.Error. The
  // classes live as long as the process (held past the interpreter's end, never released).
  static PyObject* base = PyErr_NewException("srcc.Error", PyExc_RuntimeError, nullptr);
  static const std::pair<srcc::ErrorKind, const char*> kinds[] = {
      {srcc::ErrorKind::kUsage, "UsageError"},         {srcc::ErrorKind::kInput, "InputError"},
      {srcc::ErrorKind::kOutput, "OutputError"},       {srcc::ErrorKind::kResource, "ResourceError"},
      {srcc::ErrorKind::kBackend, "BackendError"},     {srcc::ErrorKind::kNumerical, "NumericalError"},
      {srcc::ErrorKind::kInterrupted, "InterruptedError"}};
  static std::map<srcc::ErrorKind, PyObject*> classes;
  m.attr("Error") = py::reinterpret_borrow<py::object>(base);
  for (const auto& [kind, name] : kinds) {
    classes[kind] = PyErr_NewException(("srcc." + std::string(name)).c_str(), base, nullptr);
    m.attr(name) = py::reinterpret_borrow<py::object>(classes[kind]);
  }
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const srcc::Error& e) {
      const auto it = classes.find(e.kind());
      PyErr_SetString(it == classes.end() ? base : it->second, e.what());
    }
  });
  m.def("run", &run, py::arg("terms"), py::arg("options"), py::arg("dtype"));
  m.def("read", &read_train, py::arg("path"), py::arg("group"), py::arg("dtype"));
  m.def("write", &write_train, py::arg("path"), py::arg("train"), py::arg("group"), py::arg("force"), py::arg("dtype"));
  m.def("write_like", &write_like, py::arg("path"), py::arg("train"), py::arg("like_file"), py::arg("like_group"),
        py::arg("force"), py::arg("options"), py::arg("dtype"));
  m.def("compare", &compare, py::arg("a"), py::arg("b"), py::arg("options"), py::arg("dtype"));
  m.def("sandwich", &sandwich, py::arg("bra"), py::arg("ops"), py::arg("ket"), py::arg("options"), py::arg("dtype"));
}
