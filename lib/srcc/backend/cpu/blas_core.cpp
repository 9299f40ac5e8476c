#include "srcc/backend/cpu/blas_core.hpp"

#include <unistd.h>

#include <cctype>
#include <cstdlib>

extern "C" char* openblas_get_corename(void);

namespace srcc {

std::string blas_core() { return openblas_get_corename(); }

std::string better_blas_core() {
  if (std::getenv("OPENBLAS_CORETYPE") != nullptr) return "";
  std::string core = blas_core();
  for (auto& c : core) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (core != "prescott") return "";
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512bf16")) return "Cooperlake";
  if (__builtin_cpu_supports("avx512f")) return "SkylakeX";
  if (__builtin_cpu_supports("avx2")) return "Haswell";
#endif
  return "";
}

void restart_for_blas_kernels(char** argv) {
  const std::string core = better_blas_core();
  if (core.empty()) return;
  setenv("OPENBLAS_CORETYPE", core.c_str(), 1);
  execv("/proc/self/exe", argv);
}

}  // namespace srcc
