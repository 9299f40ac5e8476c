#include "srcc/core/permute.hpp"

#include <xtensor/xadapt.hpp>
#include <xtensor/xarray.hpp>
#include <xtensor/xmanipulation.hpp>

#include "srcc/core/error.hpp"

namespace srcc {

template <class T> Tensor<T> permute(const Tensor<T>& in, const std::vector<std::size_t>& perm) {
  if (perm.size() != in.rank()) throw UsageError("permute: permutation rank mismatch");
  Shape out_shape(perm.size());
  for (std::size_t i = 0; i < perm.size(); ++i) out_shape[i] = in.shape[perm[i]];
  Tensor<T> out(out_shape);
  if (permutation_is_reshape(in.shape, perm)) {
    out.data = in.data;
    return out;
  }
  auto src = xt::adapt(in.data.data(), in.size(), xt::no_ownership(), in.shape);
  auto dst = xt::adapt(out.data.data(), out.size(), xt::no_ownership(), out_shape);
  dst = xt::transpose(src, perm);
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
