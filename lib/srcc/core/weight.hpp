#pragma once
// The weight of a term of a sum (apply --term WEIGHT …): a real or complex number as users
// write one: 0.5, -1e-3, 2i, -0.5j, 0.5+0.25i, 1e-3-2j, (0.5,0.25), i, -i.
#include <complex>
#include <optional>
#include <string>

#include "srcc/core/dtype.hpp"

namespace srcc {

// The number, or nothing when `text` is not such a number or not finite.
std::optional<std::complex<double>> read_weight(const std::string& text);
// The same, throwing UsageError naming `flag` and the text when it is not a weight.
std::complex<double> parse_weight(const std::string& text, const std::string& flag = "--term");

// The weight as parse_weight reads it back: "0.5", "-2i", "0.5+0.25i" (every digit needed).
std::string format_weight(std::complex<double> w);

// The weight in a working type; a real type takes the real part (the run's working type is
// complex whenever a weight is: working_dtype).
template <class T> T scalar_weight(std::complex<double> w) {
  if constexpr (is_complex_v<T>) return T(static_cast<real_t<T>>(w.real()), static_cast<real_t<T>>(w.imag()));
  else return static_cast<T>(w.real());
}

}  // namespace srcc
