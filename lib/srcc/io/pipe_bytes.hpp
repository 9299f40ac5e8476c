#pragma once
// What a read check's child sends its parent through the pipe (read_probe.hpp): numbers and
// strings, laid one after another. Both ends are this program, so there is no versioning; a
// message cut short throws.
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace srcc {

class Bytes {
 public:
  void u64(std::uint64_t v) { out_.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void str(const std::string& v) {
    u64(v.size());
    out_ += v;
  }
  template <class I> void ints(const std::vector<I>& v) {
    u64(v.size());
    for (I x : v) u64(static_cast<std::uint64_t>(x));
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

class Unbytes {
 public:
  explicit Unbytes(std::string_view in) : in_(in) {}
  std::uint64_t u64() {
    std::uint64_t v = 0;
    if (in_.size() < sizeof v) throw std::runtime_error("truncated message from the read check");
    std::memcpy(&v, in_.data(), sizeof v);
    in_.remove_prefix(sizeof v);
    return v;
  }
  std::string str() {
    const std::uint64_t n = u64();
    if (in_.size() < n) throw std::runtime_error("truncated message from the read check");
    std::string v(in_.substr(0, n));
    in_.remove_prefix(n);
    return v;
  }
  template <class I> std::vector<I> ints() {
    const std::uint64_t n = u64();
    if (in_.size() / sizeof(std::uint64_t) < n) throw std::runtime_error("truncated message from the read check");
    std::vector<I> v(n);
    for (auto& x : v) x = static_cast<I>(u64());
    return v;
  }

 private:
  std::string_view in_;
};

}  // namespace srcc
