#pragma once
// In-memory stacks for sweep tests (no files): generated trains wrapped as StackData.
#include <cmath>
#include <memory>
#include <utility>
#include <vector>

#include "srcc/backend/counting_gemm.hpp"
#include "srcc/backend/cpu/cpu_backend.hpp"
#include "srcc/measure/overlap.hpp"
#include "srcc/movement/mover.hpp"
#include "srcc/sweep/sketch.hpp"
#include "srcc/sweep/sweep.hpp"
#include "dense.hpp"
#include "srcc/train/generate.hpp"

namespace srcc::test {

using Layer = std::pair<TrainKind, std::vector<Tensor<double>>>;

// Wraps layers (top first) as a stack in type T (converted from float64/complex128 sources).
template <class T, class S>
StackData<T> make_stack(const std::vector<std::pair<TrainKind, std::vector<Tensor<S>>>>& layers) {
  StackData<T> data;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    TrainInfo info;
    info.file = "memory";
    info.group = "/layer" + std::to_string(i);
    info.kind = layers[i].first;
    info.layout = std::string(default_layout(info.kind));
    std::vector<Tensor<T>> sites;
    for (const auto& c : layers[i].second) {
      info.dims.push_back({c.shape[0], c.shape[1], c.shape[2], c.shape[3]});
      info.dtypes.push_back(dtype_of<T>);
      info.dataset_shapes.push_back(c.shape);
      info.dataset_letters.push_back("lrud");
      sites.push_back(cast_tensor<T>(c));
    }
    data.stack.layers.push_back(info);
    data.sites.push_back(std::move(sites));
  }
  return data;
}

using CLayer = std::pair<TrainKind, std::vector<Tensor<cdouble>>>;

// The dense product of the layers as the sweep sees them (each cast to T first).
template <class T> DenseTrain reference(const std::vector<CLayer>& layers) {
  std::vector<DenseTrain> dense;
  for (const auto& [kind, cores] : layers) {
    std::vector<Tensor<T>> cast;
    for (const auto& c : cores) cast.push_back(cast_tensor<T>(c));
    dense.push_back(dense_train(cast));
  }
  return dense_product(dense);
}

// The paper's random recipe in real arithmetic, held as complex (make_stack casts to T).
inline std::vector<Tensor<cdouble>> real_cores(TrainKind kind, std::size_t n, std::size_t bond,
                                               std::size_t phys, std::uint64_t seed) {
  std::vector<Tensor<cdouble>> out;
  for (auto& c : random_train<double>(kind, n, bond, phys, seed)) out.push_back(cast_tensor<cdouble>(c));
  return out;
}

// Cores with independent standard Gaussian entries, held as complex: products of full numerical
// rank (the paper's recipe, whose entries share a mean, has a small one).
inline std::vector<Tensor<cdouble>> gaussian_cores(TrainKind kind, std::size_t n, std::size_t bond,
                                                   std::size_t phys, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<Tensor<cdouble>> out;
  for (std::size_t j = 0; j < n; ++j) {
    Tensor<cdouble> c({j == 0 ? 1 : bond, j + 1 == n ? 1 : bond, phys, kind == TrainKind::kMpo ? phys : 1});
    const auto values = draw_gaussian<double>(rng, c.size());
    for (std::size_t i = 0; i < c.size(); ++i) c.data[i] = values[i];
    out.push_back(std::move(c));
  }
  return out;
}

// The CPU kernels with a GEMM counter and an unlogged Mover: what the train algebra (range
// finder, truncation sweep, distances) takes, for tests that call it directly.
template <class T> struct CpuOps {
  std::unique_ptr<Backend> backend = make_cpu_backend(1);
  Kernels<T>& K = backend->kernels<T>();
  CountingGemm<T> gemm{K};
  Mover<T> mover{K, nullptr, "cpu"};

  double norm(const std::vector<Tensor<T>>& a) { return std::sqrt(inner_product(a, a, K).real()); }
  // ‖a − b‖ / ‖b‖ by canonical form: long trains compared as trains, not as dense vectors.
  double relative_distance(const std::vector<Tensor<T>>& a, const std::vector<Tensor<T>>& b) {
    return distance(a, b, mover, gemm) / norm(b);
  }
};

template <class T> SweepResult<T> sweep(const StackData<T>& data, const SweepOptions& o) {
  auto backend = make_cpu_backend(0);
  TransferLog log;
  SilentReporter reporter;
  return run_sweep(data, o, *backend, log, reporter);
}

template <class T>
SweepResult<T> sweep(const StackData<T>& data, std::size_t chi, std::uint64_t seed,
                     double cutoff = 0.0) {
  SweepOptions o;
  o.chi = chi;
  o.seed = seed;
  o.cutoff = cutoff;
  return sweep(data, o);
}

}  // namespace srcc::test
