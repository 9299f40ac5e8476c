#include "srcc/core/json.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "srcc/core/text.hpp"

namespace srcc {

std::string json_quote(const std::string& s) {
  std::string out = "\"";
  std::string_view rest(s);
  while (!rest.empty()) {
    const auto c = static_cast<unsigned char>(rest.front());
    const std::size_t n = utf8_sequence(rest);
    if (n == 0) {  // not UTF-8 (a file name in another encoding): JSON cannot carry the byte
      out += "\\ufffd";
      rest.remove_prefix(1);
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out.append(rest.substr(0, n));
        }
    }
    rest.remove_prefix(n);
  }
  return out + "\"";
}

JsonObject& JsonObject::add(const std::string& key, const std::string& value) {
  items_.emplace_back(key, json_quote(value));
  return *this;
}

std::string json_number(double value) {
  if (!std::isfinite(value)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", value);
  return buf;
}

std::string json_strings(const std::vector<std::string>& v) {
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + json_quote(v[i]);
  return out + "]";
}

JsonObject& JsonObject::add(const std::string& key, double value) {
  items_.emplace_back(key, json_number(value));
  return *this;
}

JsonObject& JsonObject::add(const std::string& key, std::int64_t value) {
  items_.emplace_back(key, std::to_string(value));
  return *this;
}

JsonObject& JsonObject::add(const std::string& key, std::uint64_t value) {
  items_.emplace_back(key, std::to_string(value));
  return *this;
}

JsonObject& JsonObject::add(const std::string& key, bool value) {
  items_.emplace_back(key, value ? "true" : "false");
  return *this;
}

JsonObject& JsonObject::add_raw(const std::string& key, const std::string& json) {
  items_.emplace_back(key, json);
  return *this;
}

std::string JsonObject::str() const {
  std::string out = "{";
  for (std::size_t i = 0; i < items_.size(); ++i)
    out += (i ? ", " : "") + json_quote(items_[i].first) + ": " + items_[i].second;
  return out + "}";
}

std::optional<double> json_number_field(std::string_view json, std::string_view key) {
  const std::string quoted = "\"" + std::string(key) + "\": ";
  const auto at = json.find(quoted);
  if (at == std::string_view::npos) return std::nullopt;
  // A bounded copy: strtod needs a terminated string, and a number is never longer.
  const std::string number(json.substr(at + quoted.size(), 40));
  char* end = nullptr;
  const double v = std::strtod(number.c_str(), &end);
  if (end == number.c_str()) return std::nullopt;
  return v;
}

}  // namespace srcc
