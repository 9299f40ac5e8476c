#include "srcc/backend/gemm_rate.hpp"

#include <algorithm>
#include <chrono>

namespace srcc {

double measure_gemm_rate(Backend& backend, DType dtype) {
  return visit_dtype(dtype, [&](auto zero) -> double {
    using T = decltype(zero);
    Kernels<T>& K = backend.kernels<T>();
    if (K.moves_data()) return 0.0;
    constexpr std::size_t n = 384;
    Buffer<T> a = K.allocate(n * n), b = K.allocate(n * n), c = K.allocate(n * n);
    std::fill(a.data(), a.data() + n * n, T(1));
    std::fill(b.data(), b.data() + n * n, T(0.5));
    double best = 0;
    for (int rep = 0; rep < 4; ++rep) {
      const auto t0 = std::chrono::steady_clock::now();
      K.gemm(Op::kNone, Op::kNone, n, n, n, T(1), a.data(), n, 0, b.data(), n, 0, T(0), c.data(), n, 0, 1);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (rep > 0 && s > 0) best = std::max(best, (is_complex_v<T> ? 8.0 : 2.0) * n * n * n / s);
    }
    return best;
  });
}

}  // namespace srcc
