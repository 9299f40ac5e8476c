#pragma once
// √(Σ xᵢ²) of n reals in two passes — the largest |xᵢ|, then the sum of the squares of xᵢ over
// it — so that the squares neither overflow nor underflow, in the type R of the values (a
// complex array is its 2n reals). A NaN anywhere gives NaN, an infinity (and no NaN) infinity.
// For the places where one plain sum of squares may not do: the CPU backend's norm when that
// sum is not finite or underflows, the QR's reflectors, the sweep's combination of partial
// norms.
#include <cmath>
#include <cstddef>

namespace srcc {

template <class R> R scaled_norm(const R* x, std::size_t n) {
  R big = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (std::isnan(x[i])) return x[i];
    const R a = std::abs(x[i]);
    if (a > big) big = a;
  }
  if (big == 0 || !std::isfinite(big)) return big;
  const R inv = R(1) / big;
  R sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const R w = x[i] * inv;
    sum += w * w;
  }
  return big * std::sqrt(sum);
}

}  // namespace srcc
