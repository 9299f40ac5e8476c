#include "srcc/core/weight.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "srcc/core/error.hpp"

namespace srcc {

namespace {

// A real number at the start of `s` (strtod's syntax, no blanks first); false when none.
bool read_real(const char*& s, double& value) {
  if (*s == ' ' || *s == '\t' || *s == '\0') return false;
  char* end = nullptr;
  value = std::strtod(s, &end);
  if (end == s) return false;
  s = end;
  return true;
}

bool imaginary_unit(char c) { return c == 'i' || c == 'j'; }

// a, bi, a±bi (either part may be written first only in that order), i and ±i.
bool read_cartesian(const char* s, std::complex<double>& w) {
  const char* p = s;
  double first = 0;
  if ((*p == '+' || *p == '-') && imaginary_unit(p[1]) && p[2] == '\0') {
    w = {0, *p == '-' ? -1.0 : 1.0};
    return true;
  }
  if (imaginary_unit(*p) && p[1] == '\0') {
    w = {0, 1};
    return true;
  }
  if (!read_real(p, first)) return false;
  if (*p == '\0') {
    w = {first, 0};
    return true;
  }
  if (imaginary_unit(*p) && p[1] == '\0') {
    w = {0, first};
    return true;
  }
  if (*p != '+' && *p != '-') return false;
  double second = 0;
  if (imaginary_unit(p[1]) && p[2] == '\0') {
    w = {first, *p == '-' ? -1.0 : 1.0};
    return true;
  }
  if (!read_real(p, second) || !imaginary_unit(*p) || p[1] != '\0') return false;
  w = {first, second};
  return true;
}

// (a,b) as C++ and Fortran write a complex number.
bool read_pair(const std::string& t, std::complex<double>& w) {
  if (t.size() < 5 || t.front() != '(' || t.back() != ')') return false;
  const std::string inner = t.substr(1, t.size() - 2);
  const auto comma = inner.find(',');
  if (comma == std::string::npos) return false;
  const std::string a = inner.substr(0, comma), b = inner.substr(comma + 1);
  const char* pa = a.c_str();
  const char* pb = b.c_str();
  double re = 0, im = 0;
  if (!read_real(pa, re) || *pa != '\0' || !read_real(pb, im) || *pb != '\0') return false;
  w = {re, im};
  return true;
}

}  // namespace

std::optional<std::complex<double>> read_weight(const std::string& text) {
  std::complex<double> w;
  if (!read_pair(text, w) && !read_cartesian(text.c_str(), w)) return std::nullopt;
  if (!std::isfinite(w.real()) || !std::isfinite(w.imag())) return std::nullopt;
  return w;
}

std::complex<double> parse_weight(const std::string& text, const std::string& flag) {
  if (auto w = read_weight(text)) return *w;
  throw UsageError(flag + " " + text + ": the weight is not a finite number (write 0.5, -2e-3, 0.5+0.25i, 2j or (0.5,0.25))");
}

namespace {

// The fewest digits that read back to the same double (15 do for most weights people write).
void shortest(char (&out)[32], double x, bool sign) {
  std::snprintf(out, sizeof out, sign ? "%+.15g" : "%.15g", x);
  if (std::strtod(out, nullptr) != x) std::snprintf(out, sizeof out, sign ? "%+.17g" : "%.17g", x);
}

}  // namespace

std::string format_weight(std::complex<double> w) {
  char re[32], im[32];
  shortest(re, w.real(), false);
  shortest(im, w.imag(), true);
  if (w.imag() == 0) return re;
  if (w.real() == 0) return std::string(im + (im[0] == '+' ? 1 : 0)) + "i";
  return std::string(re) + im + "i";
}

}  // namespace srcc
