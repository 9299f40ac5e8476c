#include "srcc/core/duration.hpp"

#include <cctype>
#include <cstdio>
#include <string>
#include <vector>

#include "srcc/core/error.hpp"

namespace srcc {

double parse_duration(std::string_view text, std::string_view what) {
  const std::string s(text);
  auto fail = [&] {
    return UsageError(std::string(what) + ": '" + s +
                      "' is not a duration (examples: 3600, 90s, 15m, 1h30m, 2d, 01:30:00, "
                      "1-12:00:00)");
  };
  if (s.empty()) throw fail();
  auto number = [&](const std::string& t) {
    if (t.empty() || t.find_first_not_of("0123456789.") != std::string::npos) throw fail();
    try {
      return std::stod(t);
    } catch (const std::logic_error&) {
      throw fail();
    }
  };
  if (s.find(':') != std::string::npos) {
    double days = 0;
    std::string rest = s;
    if (const auto dash = s.find('-'); dash != std::string::npos) {
      days = number(s.substr(0, dash));
      rest = s.substr(dash + 1);
    }
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= rest.size(); ++i)
      if (i == rest.size() || rest[i] == ':') {
        parts.push_back(rest.substr(start, i - start));
        start = i + 1;
      }
    if (parts.size() < 2 || parts.size() > 3) throw fail();
    double total = 0;
    for (const auto& p : parts) total = total * 60 + number(p);
    if (parts.size() == 2 && days > 0) total *= 60;  // D-HH:MM
    return days * 86400 + total;
  }
  double total = 0;
  std::string digits;
  bool any = false;
  for (char c : s) {
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      digits += c;
      continue;
    }
    const double v = number(digits);
    digits.clear();
    switch (std::tolower(static_cast<unsigned char>(c))) {
      case 's': total += v; break;
      case 'm': total += v * 60; break;
      case 'h': total += v * 3600; break;
      case 'd': total += v * 86400; break;
      default: throw fail();
    }
    any = true;
  }
  if (!digits.empty()) {
    if (any) throw fail();  // "1h30" is ambiguous
    total += number(digits);
  }
  return total;
}

std::string format_seconds(double seconds) {
  char buf[48];
  if (seconds < 100) std::snprintf(buf, sizeof buf, "%.2g s", seconds);
  else if (seconds < 6000) std::snprintf(buf, sizeof buf, "%.0f min", seconds / 60);
  else if (seconds < 172800) std::snprintf(buf, sizeof buf, "%.1f h", seconds / 3600);
  else std::snprintf(buf, sizeof buf, "%.1f days", seconds / 86400);
  return buf;
}

}  // namespace srcc
