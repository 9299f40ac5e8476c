#pragma once
// A dense, row-major (C order), contiguous host tensor. Reshapes are free (only `shape`
// changes); permutations are paid copies and live in permute.hpp.
#include <cstddef>
#include <functional>
#include <numeric>
#include <string>
#include <variant>
#include <vector>

#include "srcc/core/dtype.hpp"
#include "srcc/core/scaled_norm.hpp"

namespace srcc {

using Shape = std::vector<std::size_t>;

inline std::size_t shape_size(const Shape& s) {
  return std::accumulate(s.begin(), s.end(), std::size_t{1}, std::multiplies<>());
}
std::string shape_string(const Shape& s);  // "(2, 3, 4)"

template <class T> struct Tensor {
  Shape shape;
  std::vector<T> data;

  Tensor() = default;
  explicit Tensor(Shape s) : shape(std::move(s)), data(shape_size(shape)) {}
  Tensor(Shape s, std::vector<T> d) : shape(std::move(s)), data(std::move(d)) {}

  std::size_t size() const { return data.size(); }
  std::size_t rank() const { return shape.size(); }
  std::size_t bytes() const { return data.size() * sizeof(T); }
};

// ‖t‖_F without overflow or underflow in the squares (core/scaled_norm.hpp).
template <class T> double frobenius_norm(const Tensor<T>& t) {
  using R = real_t<T>;
  const std::size_t reals = is_complex_v<T> ? 2 * t.size() : t.size();
  return static_cast<double>(scaled_norm(reinterpret_cast<const R*>(t.data.data()), reals));
}

// A tensor whose element type is known only at run time (as read from a file).
using AnyTensor = std::variant<Tensor<float>, Tensor<double>, Tensor<cfloat>, Tensor<cdouble>>;

DType any_dtype(const AnyTensor& t);
const Shape& any_shape(const AnyTensor& t);

// Converts element-wise to U (real → complex adds a zero imaginary part; complex → real is
// refused by the caller, never silently done here).
template <class U, class T> Tensor<U> cast_tensor(const Tensor<T>& t) {
  Tensor<U> out(t.shape);
  for (std::size_t i = 0; i < t.size(); ++i) {
    if constexpr (is_complex_v<T> && !is_complex_v<U>) {
      out.data[i] = static_cast<U>(t.data[i].real());
    } else {
      out.data[i] = static_cast<U>(t.data[i]);
    }
  }
  return out;
}

}  // namespace srcc
