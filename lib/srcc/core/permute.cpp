#include "srcc/core/permute.hpp"

#include <cstring>

#include "srcc/core/error.hpp"

namespace srcc {

namespace {

// The copy as loops over the output in order (writes contiguous), each output axis reading the
// input at its stride. Axes of size 1 are dropped and output axes that are adjacent in the input
// too are fused, so a site's permutation is two to four loops with a contiguous run innermost
// where the last axis stays last. (A generic strided assignment cost several times this: it
// was a visible share of small runs, which permute every site twice.)
template <class T>
void permute_copy(const T* in, const Shape& shape, const std::vector<std::size_t>& perm, T* out) {
  std::vector<std::size_t> in_stride(shape.size(), 1);
  for (std::size_t i = shape.size(); i-- > 1;) in_stride[i - 1] = in_stride[i] * shape[i];
  std::vector<std::size_t> extent, stride;  // the fused output axes
  for (std::size_t p : perm) {
    if (shape[p] == 1) continue;
    if (!extent.empty() && stride.back() == shape[p] * in_stride[p]) {
      extent.back() *= shape[p];
      stride.back() = in_stride[p];
    } else {
      extent.push_back(shape[p]);
      stride.push_back(in_stride[p]);
    }
  }
  if (extent.empty()) {  // every axis of size 1
    out[0] = in[0];
    return;
  }
  const std::size_t axes = extent.size(), inner = extent.back(), inner_stride = stride.back();
  std::vector<std::size_t> index(axes, 0);
  std::size_t from = 0;
  for (;;) {
    if (inner_stride == 1) {
      std::memcpy(out, in + from, inner * sizeof(T));
    } else {
      for (std::size_t i = 0; i < inner; ++i) out[i] = in[from + i * inner_stride];
    }
    out += inner;
    // Odometer over the outer axes.
    std::size_t a = axes - 1;
    while (a-- > 0) {
      from += stride[a];
      if (++index[a] < extent[a]) break;
      from -= stride[a] * extent[a];
      index[a] = 0;
    }
    if (a == static_cast<std::size_t>(-1)) return;
  }
}

}  // namespace

template <class T> Tensor<T> permute(const Tensor<T>& in, const std::vector<std::size_t>& perm) {
  if (perm.size() != in.rank()) throw UsageError("permute: permutation rank mismatch");
  Shape out_shape(perm.size());
  for (std::size_t i = 0; i < perm.size(); ++i) out_shape[i] = in.shape[perm[i]];
  Tensor<T> out(out_shape);
  if (permutation_is_reshape(in.shape, perm)) {
    out.data = in.data;
    return out;
  }
  permute_copy(in.data.data(), in.shape, perm, out.data.data());
  return out;
}

bool permutation_is_reshape(const Shape& shape, const std::vector<std::size_t>& perm) {
  // Compare the order of the non-trivial axes before and after.
  std::vector<std::size_t> kept;
  for (std::size_t p : perm)
    if (shape[p] != 1) kept.push_back(p);
  for (std::size_t i = 1; i < kept.size(); ++i)
    if (kept[i] < kept[i - 1]) return false;
  return true;
}

template Tensor<float> permute(const Tensor<float>&, const std::vector<std::size_t>&);
template Tensor<double> permute(const Tensor<double>&, const std::vector<std::size_t>&);
template Tensor<cfloat> permute(const Tensor<cfloat>&, const std::vector<std::size_t>&);
template Tensor<cdouble> permute(const Tensor<cdouble>&, const std::vector<std::size_t>&);

}  // namespace srcc
