#pragma once
// The device-side scalar type of each element type (cuComplex for std::complex) with the few
// operations the element-wise kernels need, and pointer casts between the two views.
#include <cuComplex.h>
#include <cuda_runtime.h>
#include <library_types.h>

#include "srcc/core/dtype.hpp"

namespace srcc::cuda {

template <class T> struct Dev;
template <> struct Dev<float> {
  using type = float;
  static constexpr cudaDataType data_type = CUDA_R_32F;
  __device__ static float mul(float a, float b) { return a * b; }
  __device__ static float conj(float a) { return a; }
};
template <> struct Dev<double> {
  using type = double;
  static constexpr cudaDataType data_type = CUDA_R_64F;
  __device__ static double mul(double a, double b) { return a * b; }
  __device__ static double conj(double a) { return a; }
};
template <> struct Dev<cfloat> {
  using type = cuFloatComplex;
  static constexpr cudaDataType data_type = CUDA_C_32F;
  __device__ static cuFloatComplex mul(cuFloatComplex a, cuFloatComplex b) { return cuCmulf(a, b); }
  __device__ static cuFloatComplex conj(cuFloatComplex a) { return cuConjf(a); }
};
template <> struct Dev<cdouble> {
  using type = cuDoubleComplex;
  static constexpr cudaDataType data_type = CUDA_C_64F;
  __device__ static cuDoubleComplex mul(cuDoubleComplex a, cuDoubleComplex b) { return cuCmul(a, b); }
  __device__ static cuDoubleComplex conj(cuDoubleComplex a) { return cuConj(a); }
};

template <class T> using dev_t = typename Dev<T>::type;
template <class T> dev_t<T>* dp(T* p) { return reinterpret_cast<dev_t<T>*>(p); }
template <class T> const dev_t<T>* dp(const T* p) { return reinterpret_cast<const dev_t<T>*>(p); }
// Dev<D> for the device types themselves, so kernels templated on D can use it.
template <> struct Dev<cuFloatComplex> : Dev<cfloat> {};
template <> struct Dev<cuDoubleComplex> : Dev<cdouble> {};

}  // namespace srcc::cuda
