#pragma once
// Turns CUDA, cuBLAS and cuSOLVER status codes into BackendErrors that name the call and the
// status, so that a failure on a batch node says what failed without a debugger.
//
// Calls that must not throw (frees and event bookkeeping in buffer deleters, which also run
// while an error unwinds) record their failure with note_failure(); the next checked call
// reports it first, so an error is blamed on the call that made it, not on a later kernel.
// SRCC_CUDA_SYNC=1 synchronises the device after every checked call and checks again: an
// asynchronous fault (a kernel's bad access, a failed copy) is then reported at its own call.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <cstdlib>
#include <mutex>
#include <string>

#include "srcc/core/error.hpp"

namespace srcc::cuda {

inline std::string cuda_error_text(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) + ")";
}

// The first failure of a call that could not throw, until a checked call reports it.
inline std::mutex& pending_mutex() {
  static std::mutex m;
  return m;
}
inline std::string& pending_failure() {
  static std::string text;
  return text;
}
inline void note_failure(cudaError_t e, const char* call) noexcept {
  if (e == cudaSuccess) return;
  try {
    std::lock_guard lock(pending_mutex());
    if (pending_failure().empty()) pending_failure() = std::string(call) + " failed: " + cuda_error_text(e);
  } catch (...) {
  }
}
// Throws the recorded failure, if any (checked calls do this first).
inline void report_pending() {
  std::string text;
  {
    std::lock_guard lock(pending_mutex());
    text.swap(pending_failure());
  }
  if (!text.empty()) throw BackendError(text + " (reported at the next checked call)");
}

inline bool sync_each_call() {
  static const bool on = [] {
    const char* v = std::getenv("SRCC_CUDA_SYNC");
    return v != nullptr && *v != '\0' && std::string(v) != "0";
  }();
  return on;
}
// With SRCC_CUDA_SYNC: the device synchronised after `call`, an asynchronous fault reported there.
inline void sync_after(const char* call) {
  if (!sync_each_call()) return;
  const cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess)
    throw BackendError(std::string(call) + " failed (found by SRCC_CUDA_SYNC): " + cuda_error_text(e));
}

inline void check_cuda(cudaError_t e, const char* call) {
  report_pending();
  if (e != cudaSuccess) throw BackendError(std::string(call) + " failed: " + cuda_error_text(e));
  sync_after(call);
}

inline void check_cublas(cublasStatus_t s, const char* call) {
  report_pending();
  if (s != CUBLAS_STATUS_SUCCESS)
    throw BackendError(std::string(call) + " failed: " + cublasGetStatusName(s));
  sync_after(call);
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
  report_pending();
  if (s != CUSOLVER_STATUS_SUCCESS)
    throw BackendError(std::string(call) + " failed: " + cusolver_status_name(s));
  sync_after(call);
}

}  // namespace srcc::cuda
