#include "srcc/session/memory_run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>

#include "srcc/core/error.hpp"
#include "srcc/io/h5/h5_dataset.hpp"
#include "srcc/io/result_writer.hpp"
#include "srcc/io/train_reader.hpp"
#include "srcc/log/reporter.hpp"
#include "srcc/log/transfer_log.hpp"
#include "srcc/measure/sandwich.hpp"
#include "srcc/plan/methods.hpp"
#include "srcc/session/run_options.hpp"
#include "srcc/session/stages.hpp"
#include "srcc/session/symmetric_run.hpp"
#include "srcc/sweep/svd_truncate.hpp"
#include "srcc/sweep/sweep.hpp"
#include "srcc/train/layout.hpp"
#include "srcc/train/site_source.hpp"
#include "srcc/train/term_sum.hpp"

namespace srcc {

namespace {

// A train's description as a file's reader gives it, named `name` in errors.
template <class T> TrainInfo memory_info(const MemoryTrain<T>& train, const std::string& name) {
  TrainInfo info;
  info.file = "memory";
  info.group = name;
  info.kind = train.kind;
  info.layout = std::string(default_layout(info.kind));
  if (train.sites.empty()) throw InputError(info.where() + ": a train needs at least one site");
  for (std::size_t j = 0; j < train.sites.size(); ++j) {
    const Tensor<T>& t = train.sites[j];
    if (t.shape.size() != kSiteRank)
      throw InputError(info.where(j) + ": a site of rank " + std::to_string(t.shape.size()) + ", not (l, r, u, d)");
    if (train.kind == TrainKind::kMps && t.shape[kLegD] != 1)
      throw InputError(info.where(j) + ": an MPS site with a second physical leg of " + std::to_string(t.shape[kLegD]));
    h5::check_finite(t, t.shape, info.where(j));
    info.dims.push_back({t.shape[0], t.shape[1], t.shape[2], t.shape[3]});
    info.dtypes.push_back(dtype_of<T>);
    info.dataset_shapes.push_back(t.shape);
    info.dataset_letters.push_back("lrud");
  }
  return info;
}

// Serves the trains' sites as the sweep asks for them (a copy of each, as a file's source reads
// one): the trains themselves are the caller's.
template <class T> class TrainsSiteSource final : public SiteSource<T> {
 public:
  explicit TrainsSiteSource(const std::vector<const MemoryTrain<T>*>& trains) : trains_(trains) {}
  std::vector<Tensor<T>> site(std::size_t j) override {
    std::vector<Tensor<T>> out;
    for (const auto* t : trains_) out.push_back(t->sites[j]);
    return out;
  }

 private:
  const std::vector<const MemoryTrain<T>*>& trains_;
};

}  // namespace

template <class T> Stack memory_stack(const std::vector<const MemoryTrain<T>*>& trains, const std::string& prefix) {
  Stack stack;
  for (std::size_t i = 0; i < trains.size(); ++i)
    stack.layers.push_back(memory_info(*trains[i], prefix + "/layer" + std::to_string(i)));
  validate_stack(stack);
  return stack;
}

template <class T>
SweepResult<T> run_in_memory(const std::vector<MemoryTerm<T>>& terms, const SweepOptions& options, const Execution& exec,
                             const std::function<void()>& check_interrupt, MemoryRunInfo* info, Symmetry symmetry) {
  if (terms.empty()) throw UsageError("nothing to compute: no trains given");
  validate(options);
  std::vector<Stack> stacks;
  for (std::size_t k = 0; k < terms.size(); ++k) {
    if (terms[k].trains.empty()) throw UsageError("term " + std::to_string(k) + ": no trains given");
    stacks.push_back(memory_stack(terms[k].trains, terms.size() == 1 ? "" : "/term" + std::to_string(k)));
  }
  std::vector<const Stack*> views;
  for (const auto& s : stacks) views.push_back(&s);
  if (terms.size() > 1) {
    if (!method_row(options.method).takes_sums)
      throw UsageError(method_name(options.method) + " takes one train, not a sum of products");
    validate_terms(views);
  }
  RunOptions o;
  o.sweep = options;
  o.exec = exec;
  o = fitted(o, views, nullptr);
  auto [plans, backends] = plans_and_backend(o, views, dtype_of<T>, true);
  TransferLog log;
  SilentReporter reporter;
  std::vector<std::unique_ptr<TrainsSiteSource<T>>> sources;
  for (const auto& t : terms) sources.push_back(std::make_unique<TrainsSiteSource<T>>(t.trains));
  std::vector<std::vector<LayerCharges>> charges(terms.size());
  for (std::size_t k = 0; k < terms.size(); ++k)
    for (std::size_t i = 0; i < terms[k].trains.size(); ++i)
      charges[k].push_back({terms[k].trains[i]->charges, stacks[k].layers[i].where()});
  o.symmetry = symmetry;
  SymmetryChoice sym = choose_symmetry(o, charges);
  if (info != nullptr) {
    info->symmetry = sym.keep ? sym.name : "";
    info->symmetry_note = sym.note;
  }
  if (o.sweep.method == Method::kSvd && (terms.size() != 1 || stacks.front().depth() != 1 || terms.front().weight != T(1)))
    throw UsageError("the svd method truncates one train, not a product or a sum");
  const auto t0 = std::chrono::steady_clock::now();
  SweepResult<T> r;
  if (sym.keep) {
    std::vector<SymmetricInput<T>> inputs;
    for (std::size_t k = 0; k < terms.size(); ++k) inputs.push_back({&stacks[k], sources[k].get(), terms[k].weight, &plans[k]});
    SymmetricOutcome<T> so = symmetric_run(inputs, sym, o.sweep, *backends.front(), reporter, check_interrupt, nullptr, {}, &log);
    r = std::move(so.result);
    if (info != nullptr) info->charges = std::move(so.charges);
  } else if (o.sweep.method == Method::kSvd) {
    r = svd_truncate(stacks.front(), *sources.front(), o.sweep, *backends.front(), log);
  } else {
    std::vector<SweepTerm<T>> sweep_terms;
    for (std::size_t k = 0; k < terms.size(); ++k)
      sweep_terms.push_back({&stacks[k], sources[k].get(), terms[k].weight, &plans[k]});
    std::vector<Backend*> more;
    for (std::size_t i = 1; i < backends.size(); ++i) more.push_back(backends[i].get());
    r = run_sweep(sweep_terms, o.sweep, *backends.front(), log, reporter, check_interrupt, more);
  }
  if (info != nullptr) {
    info->sweep_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    info->plans = plans;
  }
  return r;
}

template <class T>
void write_memory_train(const std::string& path, const MemoryTrain<T>& train, const std::string& group, bool force) {
  memory_stack<T>({&train}, "");
  ResultWriter out(path, force);
  TransferLog log;
  out.write_train(group, train.kind, train.sites, log, "result site");
  if (train.charges) out.write_charges(group, *train.charges);
  out.commit();
}

template <class T>
WriteBack write_memory_train_like(const std::string& path, const MemoryTrain<T>& train, const TrainRef& like, bool force,
                                  const Execution& exec) {
  const TrainReader reader(like);
  const TrainInfo& info = reader.info();
  if (info.format == TrainFormat::kSrcc)
    throw UsageError(info.where() + " is a train of ours: write the train as ours, without a template");
  check_write_back(info.format, info);
  const Stack stack = memory_stack<T>({&train}, "");
  const TrainInfo& mine = stack.layers.front();
  if (info.kind != train.kind || info.length() != train.sites.size())
    throw InputError(info.where() + " is " + (info.kind == TrainKind::kMps ? "an MPS" : "an MPO") + " of " +
                     std::to_string(info.length()) + " sites; the train is " +
                     (train.kind == TrainKind::kMps ? "an MPS" : "an MPO") + " of " + std::to_string(train.sites.size()));
  for (std::size_t j = 0; j < info.length(); ++j)
    if (info.dims[j][kLegU] != mine.dims[j][kLegU] || info.dims[j][kLegD] != mine.dims[j][kLegD])
      throw InputError(info.where(j) + ": physical legs do not match " + mine.where(j));
  SweepOptions exact;  // the train's own largest bond: nothing but rounding can go
  exact.method = Method::kSvd;
  for (const auto& site : train.sites) exact.chi = std::max({exact.chi, site.shape[kLegL], site.shape[kLegR]});
  MemoryTerm<T> term;
  term.trains = {&train};
  SweepResult<T> canonical = run_in_memory<T>({term}, exact, exec, [] {}, nullptr, Symmetry::kOff);
  if (canonical.log_scale != 0)
    throw NumericalError("the train's norm is beyond the float64 in which " + std::string(train_format_name(info.format)) +
                         "'s format stores it; write it as ours");
  ResultWriter out(path, force);
  TransferLog log;
  const std::unique_ptr<Backend> backend = measuring_backend(exec);
  const WriteBack wb = write_back(out, info.format, info, canonical.kind, std::move(canonical.cores), backend->kernels<T>(), log);
  out.commit();
  return wb;
}

template <class T> Comparison compare_in_memory(const MemoryTrain<T>& a, const MemoryTrain<T>& b, const Execution& exec) {
  const Stack sa = memory_stack<T>({&a}, "/a"), sb = memory_stack<T>({&b}, "/b");
  const std::unique_ptr<Backend> backend = measuring_backend(exec);
  auto& K = backend->kernels<T>();
  TransferLog log;
  return compare_sites<T>(
      K, log, backend->name(), sa.layers.front(), sb.layers.front(),
      [&](std::size_t j) { return a.sites[j]; }, [&](std::size_t j) { return b.sites[j]; });
}

template <class T>
Scaled sandwich_in_memory(const MemoryTrain<T>& bra, const std::vector<const MemoryTrain<T>*>& ops, const MemoryTrain<T>& ket,
                          const Execution& exec) {
  std::vector<const MemoryTrain<T>*> all{&bra};
  all.insert(all.end(), ops.begin(), ops.end());
  all.push_back(&ket);
  // As a stack (bra on top) the legs must meet: ⟨bra| is read upside down, so only its length
  // and physical legs are checked against the ket's.
  memory_stack(std::vector<const MemoryTrain<T>*>(all.begin() + 1, all.end()), "/ket");
  memory_stack<T>({&bra}, "/bra");
  if (bra.kind != TrainKind::kMps || ket.kind != TrainKind::kMps) throw InputError("memory: the bra and ket must be MPSs");
  if (bra.sites.size() != ket.sites.size())
    throw InputError("memory: the bra has " + std::to_string(bra.sites.size()) + " sites, the ket " +
                     std::to_string(ket.sites.size()));
  for (std::size_t j = 0; j < bra.sites.size(); ++j) {
    const std::size_t top = ops.empty() ? ket.sites[j].shape[kLegU] : ops.front()->sites[j].shape[kLegU];
    if (bra.sites[j].shape[kLegU] != top)
      throw InputError("memory:/bra/" + std::to_string(j) + ": a physical leg of " +
                       std::to_string(bra.sites[j].shape[kLegU]) + " where the operators give " + std::to_string(top));
  }
  const std::unique_ptr<Backend> backend = measuring_backend(exec);
  Sandwich<T> s(backend->kernels<T>(), ops.size());
  for (std::size_t j = 0; j < ket.sites.size(); ++j) {
    std::vector<const Tensor<T>*> layer;
    for (const auto* op : ops) layer.push_back(&op->sites[j]);
    s.add(bra.sites[j], layer, ket.sites[j]);
  }
  return s.value();
}

#define SRCC_INSTANTIATE(T)                                                                                         \
  template Stack memory_stack(const std::vector<const MemoryTrain<T>*>&, const std::string&);                    \
  template SweepResult<T> run_in_memory(const std::vector<MemoryTerm<T>>&, const SweepOptions&, const Execution&, \
                                        const std::function<void()>&, MemoryRunInfo*, Symmetry);                                   \
  template Comparison compare_in_memory(const MemoryTrain<T>&, const MemoryTrain<T>&, const Execution&);          \
  template void write_memory_train(const std::string&, const MemoryTrain<T>&, const std::string&, bool);         \
  template WriteBack write_memory_train_like(const std::string&, const MemoryTrain<T>&, const TrainRef&, bool,    \
                                             const Execution&);                                                 \
  template Scaled sandwich_in_memory(const MemoryTrain<T>&, const std::vector<const MemoryTrain<T>*>&,            \
                                     const MemoryTrain<T>&, const Execution&);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
