#pragma once
// Turns CUDA, cuBLAS and cuSOLVER status codes into BackendErrors that name the call and the
// status, so that a failure on a batch node says what failed without a debugger.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <string>

#include "srcc/core/error.hpp"

namespace srcc::cuda {

inline void check_cuda(cudaError_t e, const char* call) {
  if (e != cudaSuccess)
    throw BackendError(std::string(call) + " failed: " + cudaGetErrorName(e) + " (" +
                       cudaGetErrorString(e) + ")");
}

inline void check_cublas(cublasStatus_t s, const char* call) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw BackendError(std::string(call) + " failed: " + cublasGetStatusName(s));
}

inline const char* cusolver_status_name(cusolverStatus_t s) {
  switch (s) {
    case CUSOLVER_STATUS_SUCCESS: return "CUSOLVER_STATUS_SUCCESS";
    case CUSOLVER_STATUS_NOT_INITIALIZED: return "CUSOLVER_STATUS_NOT_INITIALIZED";
    case CUSOLVER_STATUS_ALLOC_FAILED: return "CUSOLVER_STATUS_ALLOC_FAILED";
    case CUSOLVER_STATUS_INVALID_VALUE: return "CUSOLVER_STATUS_INVALID_VALUE";
    case CUSOLVER_STATUS_ARCH_MISMATCH: return "CUSOLVER_STATUS_ARCH_MISMATCH";
    case CUSOLVER_STATUS_EXECUTION_FAILED: return "CUSOLVER_STATUS_EXECUTION_FAILED";
    case CUSOLVER_STATUS_INTERNAL_ERROR: return "CUSOLVER_STATUS_INTERNAL_ERROR";
    case CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED: return "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
    default: return "CUSOLVER_STATUS_(other)";
  }
}

inline void check_cusolver(cusolverStatus_t s, const char* call) {
  if (s != CUSOLVER_STATUS_SUCCESS)
    throw BackendError(std::string(call) + " failed: " + cusolver_status_name(s));
}

}  // namespace srcc::cuda
