#include "srcc/core/size.hpp"

#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <utility>

#include "srcc/core/error.hpp"

namespace srcc {

std::uint64_t parse_size(std::string_view text, std::string_view what) {
  auto fail = [&] {
    return UsageError(std::string(what) + ": '" + std::string(text) +
                      "' is not a size (examples: 1048576, 512MB, 4GiB, 1.5TB; units B, KB, MB, "
                      "GB, TB = powers of 10, KiB, MiB, GiB, TiB = powers of 2)");
  };
  std::string s;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) s += c;
  std::size_t pos = 0;
  while (pos < s.size() && (std::isdigit(static_cast<unsigned char>(s[pos])) || s[pos] == '.')) ++pos;
  if (pos == 0) throw fail();
  double value = 0;
  try {
    std::size_t used = 0;
    value = std::stod(s.substr(0, pos), &used);
    if (used != pos) throw fail();
  } catch (const std::logic_error&) {
    throw fail();
  }
  std::string unit;
  for (char c : s.substr(pos)) unit += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  static const std::array<std::pair<const char*, double>, 10> kUnits = {{
      {"", 1.0}, {"b", 1.0}, {"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12},
      {"kib", 1024.0}, {"mib", 1048576.0}, {"gib", 1073741824.0}, {"tib", 1099511627776.0}}};
  for (const auto& [name, factor] : kUnits) {
    if (unit != name) continue;
    const double bytes = value * factor;
    if (!std::isfinite(bytes) || bytes > 1.8e19) throw fail();
    return static_cast<std::uint64_t>(std::llround(bytes));
  }
  throw fail();
}

std::string format_size(std::uint64_t bytes) {
  static const char* kNames[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int i = 0;
  while (v >= 1024.0 && i < 4) {
    v /= 1024.0;
    ++i;
  }
  char buf[32];
  if (i == 0) std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
  else std::snprintf(buf, sizeof buf, "%.2f %s", v, kNames[i]);
  return buf;
}

std::string format_flops(double flops) {
  static const char* kNames[] = {"FLOP", "kFLOP", "MFLOP", "GFLOP", "TFLOP", "PFLOP"};
  int i = 0;
  while (flops >= 1000.0 && i < 5) {
    flops /= 1000.0;
    ++i;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g %s", flops, kNames[i]);
  return buf;
}

}  // namespace srcc
