#pragma once
// A minimal JSON object builder for summaries and plans (flat values, nested objects/arrays as
// pre-built text). Keys keep insertion order, so output is stable for diffs and tests.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace srcc {

std::string json_quote(const std::string& s);  // "…" with escapes
std::string json_number(double value);          // every digit (%.17g); non-finite → null
std::string json_strings(const std::vector<std::string>& v);  // ["…", …]

// The number after the first "key": in JSON text this program wrote (a plan, a summary: flat
// keys, numbers as JsonObject writes them); nothing when the key is absent or not a number.
std::optional<double> json_number_field(std::string_view json, std::string_view key);

class JsonObject {
 public:
  JsonObject& add(const std::string& key, const std::string& value);
  JsonObject& add(const std::string& key, const char* value) { return add(key, std::string(value)); }
  JsonObject& add(const std::string& key, double value);  // non-finite → null
  JsonObject& add(const std::string& key, std::int64_t value);
  JsonObject& add(const std::string& key, std::uint64_t value);
  JsonObject& add(const std::string& key, int value) { return add(key, std::int64_t{value}); }
  JsonObject& add(const std::string& key, bool value);
  JsonObject& add_raw(const std::string& key, const std::string& json);  // already JSON text
  std::string str() const;

 private:
  std::vector<std::pair<std::string, std::string>> items_;
};

template <class T> std::string json_array(const std::vector<T>& v) {
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + std::to_string(v[i]);
  return out + "]";
}

}  // namespace srcc
