#include "srcc/session/xtensor_trains.hpp"

#include "srcc/core/error.hpp"
#include "srcc/io/file_site_source.hpp"
#include "srcc/io/result_writer.hpp"
#include "srcc/io/train_reader.hpp"
#include "srcc/log/reporter.hpp"
#include "srcc/session/stages.hpp"
#include "srcc/sweep/sweep.hpp"
#include "srcc/train/layout.hpp"

namespace srcc {

namespace {

// Internal (l, r, u, d) sites as arrays: an MPS drops its d = 1.
template <class T> XTrain<T> to_arrays(TrainKind kind, std::vector<Tensor<T>>&& cores) {
  XTrain<T> out;
  out.reserve(cores.size());
  for (auto& c : cores) {
    Shape shape = c.shape;
    if (kind == TrainKind::kMps) shape.pop_back();
    xt::xarray<T> a = xt::adapt(c.data, shape);
    out.push_back(std::move(a));
  }
  return out;
}

// A layer of arrays as the sweep reads it: (l, r, u, d) sites, an MPS given d = 1. Errors name
// it as file:group ("memory:/layer0" for an operand of apply_xtrains).
template <class T>
TrainInfo layer_of(const XTrain<T>& train, const std::string& file, const std::string& group,
                   std::vector<Tensor<T>>& sites) {
  TrainInfo info;
  info.file = file;
  info.group = group;
  if (train.empty()) throw InputError(info.where() + ": a train needs at least one site");
  const std::size_t rank = train.front().dimension();
  if (rank != 3 && rank != 4)
    throw InputError(info.where() + ": sites of rank 3 (MPS: l, r, u) or 4 (MPO: l, r, u, d), not " +
                     std::to_string(rank));
  info.kind = rank == 3 ? TrainKind::kMps : TrainKind::kMpo;
  info.layout = std::string(default_layout(info.kind));
  for (std::size_t j = 0; j < train.size(); ++j) {
    if (train[j].dimension() != rank)
      throw InputError(info.where(j) + ": rank " + std::to_string(train[j].dimension()) +
                       " where site 0 has rank " + std::to_string(rank));
    Tensor<T> t = tensor_of<T>(train[j]);
    if (rank == 3) t.shape.push_back(1);
    for (const T& v : t.data)
      if (!std::isfinite(std::abs(v))) throw InputError(info.where(j) + ": holds a NaN or an infinity");
    info.dims.push_back({t.shape[0], t.shape[1], t.shape[2], t.shape[3]});
    info.dtypes.push_back(dtype_of<T>);
    info.dataset_shapes.push_back(t.shape);
    info.dataset_letters.push_back("lrud");
    sites.push_back(std::move(t));
  }
  return info;
}

}  // namespace

template <class T>
XTrain<T> read_xtrain(const std::string& file, const std::string& group, TrainKind* kind) {
  std::vector<TrainReader> readers = open_trains({TrainRef{file, group}});
  const TrainInfo& info = readers.front().info();
  validate_stack(Stack{{info}});
  TransferLog log;
  FileSiteSource<T> source(readers, log);
  std::vector<Tensor<T>> cores;
  for (std::size_t j = 0; j < info.length(); ++j) cores.push_back(std::move(source.site(j).front()));
  if (kind != nullptr) *kind = info.kind;
  return to_arrays(info.kind, std::move(cores));
}

template <class T>
XTrain<T> apply_xtrains(const std::vector<XTrain<T>>& operators, const XTrain<T>& bottom,
                        const SweepOptions& options, const Execution& exec) {
  StackData<T> data;
  for (std::size_t i = 0; i <= operators.size(); ++i) {
    const XTrain<T>& train = i < operators.size() ? operators[i] : bottom;
    data.sites.emplace_back();
    data.stack.layers.push_back(layer_of(train, "memory", "/layer" + std::to_string(i), data.sites.back()));
  }
  validate_stack(data.stack);
  RunOptions o;
  o.sweep = options;
  o.exec = exec;
  validate(o.sweep);
  if (o.sweep.method == Method::kSvd) throw UsageError("apply_xtrains sweeps; truncate a train with the svd method through truncate");
  o = fitted(o, data.stack, nullptr);
  auto [plan, backends] = plan_and_backend(o, data.stack, dtype_of<T>, true);
  TransferLog log;
  SilentReporter reporter;
  SweepResult<T> r = run_sweep(data, o.sweep, *backends.front(), log, reporter, [] {}, &plan);
  return to_arrays(r.kind, std::move(r.cores));
}

template <class T>
void write_xtrain(const std::string& path, const XTrain<T>& train, const std::string& group, bool force) {
  std::vector<Tensor<T>> sites;
  const std::string name = group.empty() ? "/result" : group;
  const TrainInfo info = layer_of(train, path, name, sites);
  validate_stack(Stack{{info}});
  ResultWriter out(path, force);
  TransferLog log;
  out.write_train(name, info.kind, sites, log, "result site");
  out.commit();
}

#define SRCC_INSTANTIATE(T)                                                                     \
  template XTrain<T> read_xtrain(const std::string&, const std::string&, TrainKind*);          \
  template XTrain<T> apply_xtrains(const std::vector<XTrain<T>>&, const XTrain<T>&,             \
                                   const SweepOptions&, const Execution&);                                   \
  template void write_xtrain(const std::string&, const XTrain<T>&, const std::string&, bool);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
