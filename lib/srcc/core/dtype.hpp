#pragma once
// Element types: the four scalar types src-compress computes in, their names and promotion.
#include <complex>
#include <cstddef>
#include <string>
#include <string_view>

namespace srcc {

enum class DType { kFloat32, kFloat64, kComplex64, kComplex128 };

using cfloat = std::complex<float>;
using cdouble = std::complex<double>;

// "float32", "float64", "complex64", "complex128".
std::string_view dtype_name(DType t);
// Parses one of the names above; throws UsageError listing the valid names, naming `what`.
DType parse_dtype(std::string_view name, std::string_view what);
std::size_t dtype_size(DType t);
bool dtype_is_complex(DType t);
// The smallest type that holds both without loss of range or the imaginary part.
DType promote(DType a, DType b);

template <class T> struct DTypeOf;
template <> struct DTypeOf<float> { static constexpr DType value = DType::kFloat32; };
template <> struct DTypeOf<double> { static constexpr DType value = DType::kFloat64; };
template <> struct DTypeOf<cfloat> { static constexpr DType value = DType::kComplex64; };
template <> struct DTypeOf<cdouble> { static constexpr DType value = DType::kComplex128; };
template <class T> constexpr DType dtype_of = DTypeOf<T>::value;

template <class T> struct RealOf { using type = T; };
template <class R> struct RealOf<std::complex<R>> { using type = R; };
template <class T> using real_t = typename RealOf<T>::type;

template <class T> constexpr bool is_complex_v = false;
template <class R> constexpr bool is_complex_v<std::complex<R>> = true;

// Calls f(T{}) with the scalar type named by `t`; the one place a runtime dtype becomes a type.
template <class F> decltype(auto) visit_dtype(DType t, F&& f) {
  switch (t) {
    case DType::kFloat32: return f(float{});
    case DType::kFloat64: return f(double{});
    case DType::kComplex64: return f(cfloat{});
    case DType::kComplex128: break;
  }
  return f(cdouble{});
}

}  // namespace srcc

// Applies macro M to each scalar type: for the explicit instantiations of the templates that
// are defined in .cpp files.
#define SRCC_FOR_EACH_SCALAR(M) M(float) M(double) M(srcc::cfloat) M(srcc::cdouble)
