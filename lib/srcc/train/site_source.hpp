#pragma once
// Where the sweep gets its sites from, one site index at a time: all layers' tensors at site j
// in the internal (l, r, u, d) order. A file-backed source reads lazily with read-ahead (so the
// input never has to fit in memory); a memory source serves tests and benchmarks.
#include <variant>
#include <vector>

#include "srcc/core/tensor.hpp"
#include "srcc/train/site_boxes.hpp"

namespace srcc {

// One layer's site as its source has it: dense, or as the boxes of the blocks its file stores.
template <class T> using StoredSite = std::variant<Tensor<T>, SiteBoxes<T>>;

template <class T> class SiteSource {
 public:
  virtual ~SiteSource() = default;
  // Layers top to bottom at site j. Sources may evict earlier sites: callers keep what they
  // need.
  virtual std::vector<Tensor<T>> site(std::size_t j) = 0;
  // The same, each layer as its file stores it: a charged run takes block-sparse files' blocks
  // as they are, never forming their dense sites. In the internal order and type as site(j).
  virtual std::vector<StoredSite<T>> stored_site(std::size_t j) {
    std::vector<StoredSite<T>> out;
    for (auto& t : site(j)) out.emplace_back(std::move(t));
    return out;
  }
  // Returns once no read is in flight (a source that reads ahead on a thread of its own): what a
  // caller leaving early, by an error, calls before anything else may call the file library.
  virtual void settle() {}
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
