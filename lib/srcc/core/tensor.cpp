#include "srcc/core/tensor.hpp"

namespace srcc {

std::string shape_string(const Shape& s) {
  std::string out = "(";
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(s[i]);
  }
  return out + ")";
}

DType any_dtype(const AnyTensor& t) {
  return std::visit(
      [](const auto& x) {
        using T = typename std::decay_t<decltype(x.data)>::value_type;
        return dtype_of<T>;
      },
      t);
}

const Shape& any_shape(const AnyTensor& t) {
  return std::visit([](const auto& x) -> const Shape& { return x.shape; }, t);
}

}  // namespace srcc
