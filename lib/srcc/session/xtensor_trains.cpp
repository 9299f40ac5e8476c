#include "srcc/session/xtensor_trains.hpp"

#include "srcc/core/error.hpp"
#include "srcc/io/file_site_source.hpp"
#include "srcc/io/train_reader.hpp"
#include "srcc/log/reporter.hpp"
#include "srcc/session/memory_run.hpp"
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

// Arrays as a train in memory: (l, r, u, d) sites, an MPS (rank-3 sites) given d = 1.
template <class T> MemoryTrain<T> memory_train(const XTrain<T>& train, const std::string& name) {
  MemoryTrain<T> out;
  if (train.empty()) throw InputError("memory:" + name + ": a train needs at least one site");
  const std::size_t rank = train.front().dimension();
  if (rank != 3 && rank != 4)
    throw InputError("memory:" + name + ": sites of rank 3 (MPS: l, r, u) or 4 (MPO: l, r, u, d), not " +
                     std::to_string(rank));
  out.kind = rank == 3 ? TrainKind::kMps : TrainKind::kMpo;
  for (std::size_t j = 0; j < train.size(); ++j) {
    if (train[j].dimension() != rank)
      throw InputError("memory:" + name + "/" + std::to_string(j) + ": rank " + std::to_string(train[j].dimension()) +
                       " where site 0 has rank " + std::to_string(rank));
    Tensor<T> t = tensor_of<T>(train[j]);
    if (rank == 3) t.shape.push_back(1);
    out.sites.push_back(std::move(t));
  }
  return out;
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
  if (options.method == Method::kSvd) throw UsageError("apply_xtrains sweeps; truncate a train with the svd method through truncate");
  std::vector<MemoryTrain<T>> trains;
  for (std::size_t i = 0; i <= operators.size(); ++i)
    trains.push_back(memory_train(i < operators.size() ? operators[i] : bottom, "/layer" + std::to_string(i)));
  MemoryTerm<T> term;
  for (const auto& t : trains) term.trains.push_back(&t);
  SweepResult<T> r = run_in_memory<T>({term}, options, exec);
  return to_arrays(r.kind, std::move(r.cores));
}

template <class T>
void write_xtrain(const std::string& path, const XTrain<T>& train, const std::string& group, bool force) {
  const std::string name = group.empty() ? "/result" : group;
  write_memory_train(path, memory_train(train, name), name, force);
}

#define SRCC_INSTANTIATE(T)                                                                     \
  template XTrain<T> read_xtrain(const std::string&, const std::string&, TrainKind*);          \
  template XTrain<T> apply_xtrains(const std::vector<XTrain<T>>&, const XTrain<T>&,             \
                                   const SweepOptions&, const Execution&);                                   \
  template void write_xtrain(const std::string&, const XTrain<T>&, const std::string&, bool);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
