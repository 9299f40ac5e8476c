#include "srcc/core/dtype.hpp"

#include <array>

#include "srcc/core/error.hpp"

namespace srcc {

namespace {
constexpr std::array<DType, 4> kAll = {DType::kFloat32, DType::kFloat64, DType::kComplex64,
                                       DType::kComplex128};
}

std::string_view dtype_name(DType t) {
  switch (t) {
    case DType::kFloat32: return "float32";
    case DType::kFloat64: return "float64";
    case DType::kComplex64: return "complex64";
    case DType::kComplex128: return "complex128";
  }
  return "?";
}

DType parse_dtype(std::string_view name, std::string_view what) {
  for (DType t : kAll)
    if (dtype_name(t) == name) return t;
  throw UsageError(std::string(what) + ": unknown element type '" + std::string(name) +
                   "' (valid: float32, float64, complex64, complex128)");
}

std::size_t dtype_size(DType t) {
  switch (t) {
    case DType::kFloat32: return 4;
    case DType::kFloat64: return 8;
    case DType::kComplex64: return 8;
    case DType::kComplex128: return 16;
  }
  return 0;
}

bool dtype_is_complex(DType t) { return t == DType::kComplex64 || t == DType::kComplex128; }

DType promote(DType a, DType b) {
  const bool cplx = dtype_is_complex(a) || dtype_is_complex(b);
  const bool wide = a == DType::kFloat64 || a == DType::kComplex128 || b == DType::kFloat64 ||
                    b == DType::kComplex128;
  if (cplx) return wide ? DType::kComplex128 : DType::kComplex64;
  return wide ? DType::kFloat64 : DType::kFloat32;
}

}  // namespace srcc
