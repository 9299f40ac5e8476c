#include "srcc/core/text.hpp"

#include <cmath>
#include <cstdio>

namespace srcc {

std::size_t utf8_sequence(std::string_view s) {
  if (s.empty()) return 0;
  const auto b = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char c = b(0);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  unsigned long cp = 0;
  if ((c & 0xE0) == 0xC0) {
    n = 2;
    cp = c & 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    n = 3;
    cp = c & 0x0F;
  } else if ((c & 0xF8) == 0xF0) {
    n = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (s.size() < n) return 0;
  for (std::size_t i = 1; i < n; ++i) {
    if ((b(i) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(i) & 0x3F);
  }
  static constexpr unsigned long kLeast[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kLeast[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

std::string printable(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  while (!s.empty()) {
    const auto c = static_cast<unsigned char>(s.front());
    const std::size_t n = utf8_sequence(s);
    if (n == 0 || (c < 0x20 && c != '\t' && c != '\n') || c == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
      s.remove_prefix(1);
      continue;
    }
    out.append(s.substr(0, n));
    s.remove_prefix(n);
  }
  return out;
}

std::string format_log10(double log10_value) {
  if (!std::isfinite(log10_value)) return log10_value < 0 ? "0" : "inf";
  double exponent = std::floor(log10_value);
  double mantissa = std::pow(10.0, log10_value - exponent);
  if (mantissa >= 9.9999995) {  // would print as 10.000000e…
    mantissa /= 10;
    exponent += 1;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6fe%+03lld", mantissa, static_cast<long long>(exponent));
  return buf;
}

std::string format_magnitude(double log10_value) {
  if (!std::isfinite(log10_value) || std::abs(log10_value) >= 300) return format_log10(log10_value);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", std::pow(10.0, log10_value));
  return buf;
}

}  // namespace srcc
