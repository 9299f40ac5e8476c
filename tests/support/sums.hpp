#pragma once
// Sums of products held in memory for sweep tests: the terms' layers and weights, run as one
// sweep (run_sweep over SweepTerms), and their dense weighted sum as the reference.
#include <memory>
#include <vector>

#include "stacks.hpp"

namespace srcc::test {

// One term: its layers (top first) and weight.
struct TermLayers {
  cdouble weight;
  std::vector<CLayer> layers;
};

// The dense weighted sum of the terms' products.
template <class T> DenseTrain dense_sum(const std::vector<TermLayers>& terms) {
  DenseTrain sum;
  for (const auto& t : terms) {
    const DenseTrain p = reference<T>(t.layers);
    if (sum.v.empty()) {
      sum = p;
      for (auto& x : sum.v) x *= t.weight;
    } else {
      for (std::size_t i = 0; i < p.v.size(); ++i) sum.v[i] += t.weight * p.v[i];
    }
  }
  return sum;
}

// The terms held in memory and run as one sweep.
template <class T> struct Sum {
  std::vector<StackData<T>> data;
  std::vector<std::unique_ptr<MemorySiteSource<T>>> sources;
  std::vector<SweepTerm<T>> terms;

  explicit Sum(const std::vector<TermLayers>& ts) {
    data.reserve(ts.size());
    for (const auto& t : ts) data.push_back(make_stack<T>(t.layers));
    for (std::size_t k = 0; k < ts.size(); ++k) {
      sources.push_back(std::make_unique<MemorySiteSource<T>>(data[k].sites));
      T w;
      if constexpr (is_complex_v<T>) w = T(ts[k].weight);
      else w = T(ts[k].weight.real());
      terms.push_back({&data[k].stack, sources.back().get(), w, nullptr});
    }
  }
  SweepResult<T> run(const SweepOptions& o) {
    auto backend = make_cpu_backend(0);
    TransferLog log;
    SilentReporter reporter;
    return run_sweep(terms, o, *backend, log, reporter);
  }
};

}  // namespace srcc::test
