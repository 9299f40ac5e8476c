#pragma once
// A site as the boxes of the blocks its file stores, without the zeros between them: what a
// block-sparse format (TeNPy's np_conserved Arrays) holds, read without forming the dense site,
// so that a charged run goes from the file's blocks to its own (symmetric/charged_stack.hpp).
// A box covers, on each internal leg (l, r, u, d), a list of the dense site's indices and holds
// its elements row-major over those lists; boxes do not overlap, and every element outside them
// is zero.
#include <array>
#include <variant>
#include <vector>

#include "srcc/core/tensor.hpp"
#include "srcc/train/layout.hpp"

namespace srcc {

template <class T> struct SiteBoxes {
  using value_type = T;
  struct Box {
    std::array<std::vector<std::size_t>, kSiteRank> index;
    std::vector<T> data;
  };
  std::array<std::size_t, kSiteRank> dims{};  // the dense site's (l, r, u, d)
  std::vector<Box> boxes;

  std::size_t elements() const {
    std::size_t n = 0;
    for (const auto& b : boxes) n += b.data.size();
    return n;
  }
};

// Boxes whose element type is known only at run time (as read from a file).
using AnyBoxes = std::variant<SiteBoxes<float>, SiteBoxes<double>, SiteBoxes<cfloat>, SiteBoxes<cdouble>>;

// The boxes in U, element by element as cast_tensor converts (complex → real is refused by the
// caller, never done here).
template <class U, class T> SiteBoxes<U> cast_boxes(SiteBoxes<T>&& in) {
  SiteBoxes<U> out;
  out.dims = in.dims;
  for (auto& b : in.boxes) {
    typename SiteBoxes<U>::Box c;
    c.index = std::move(b.index);
    const std::size_t n = b.data.size();  // read before the data moves into the argument
    c.data = cast_tensor<U>(Tensor<T>({n}, std::move(b.data))).data;
    out.boxes.push_back(std::move(c));
  }
  return out;
}

}  // namespace srcc
