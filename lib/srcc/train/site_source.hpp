#pragma once
// Where the sweep gets its sites from, one site index at a time: all layers' tensors at site j
// in the internal (l, r, u, d) order. A file-backed source reads lazily with read-ahead (so the
// input never has to fit in memory); a memory source serves tests and benchmarks.
#include <vector>

#include "srcc/core/tensor.hpp"

namespace srcc {

template <class T> class SiteSource {
 public:
  virtual ~SiteSource() = default;
  // Layers top to bottom at site j. Sources may evict earlier sites: callers keep what they
  // need.
  virtual std::vector<Tensor<T>> site(std::size_t j) = 0;
};

// Serves sites held in memory as sites[layer][j].
template <class T> class MemorySiteSource final : public SiteSource<T> {
 public:
  explicit MemorySiteSource(const std::vector<std::vector<Tensor<T>>>& sites) : sites_(sites) {}
  std::vector<Tensor<T>> site(std::size_t j) override {
    std::vector<Tensor<T>> out;
    for (const auto& layer : sites_) out.push_back(layer[j]);
    return out;
  }

 private:
  const std::vector<std::vector<Tensor<T>>>& sites_;
};

}  // namespace srcc
