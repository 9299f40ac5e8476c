#pragma once
// A short list of small values kept inside the object: up to N elements with no heap block of
// their own, more on the heap. For the keys and charges of block-sparse tensors, which are made,
// copied and compared by the hundred thousand in a charged sweep — as std::vectors each was a
// malloc and a free (a χ = 128 run made 1.1 million of them).
#include <algorithm>
#include <array>
#include <compare>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <vector>

namespace srcc {

template <class T, std::size_t N> class InlineVector {
 public:
  using value_type = T;
  using size_type = std::size_t;
  using iterator = T*;
  using const_iterator = const T*;
  using reference = T&;
  using const_reference = const T&;

  InlineVector() = default;
  explicit InlineVector(std::size_t n) { assign_n(n, T()); }
  InlineVector(std::size_t n, const T& v) { assign_n(n, v); }
  // To and from std::vector, as files, messages and the ranks' exchanges hold them.
  InlineVector(const std::vector<T>& v) : InlineVector(v.begin(), v.end()) {}  // NOLINT: the same list
  operator std::vector<T>() const { return std::vector<T>(begin(), end()); }  // NOLINT: the same list
  InlineVector(std::initializer_list<T> values) : InlineVector(values.begin(), values.end()) {}
  template <class It, class = typename std::iterator_traits<It>::iterator_category>
  InlineVector(It first, It last) {
    for (; first != last; ++first) push_back(*first);
  }

  std::size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  T* data() { return n_ <= N ? small_.data() : big_.data(); }
  const T* data() const { return n_ <= N ? small_.data() : big_.data(); }
  T& operator[](std::size_t i) { return data()[i]; }
  const T& operator[](std::size_t i) const { return data()[i]; }
  T* begin() { return data(); }
  T* end() { return data() + n_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + n_; }
  std::reverse_iterator<const T*> rbegin() const { return std::reverse_iterator<const T*>(end()); }
  std::reverse_iterator<const T*> rend() const { return std::reverse_iterator<const T*>(begin()); }
  T& front() { return data()[0]; }
  const T& front() const { return data()[0]; }
  T& back() { return data()[n_ - 1]; }
  const T& back() const { return data()[n_ - 1]; }
  void reserve(std::size_t /*n*/) {}

  void push_back(const T& v) {
    if (n_ < N) {
      small_[n_++] = v;
      return;
    }
    if (n_ == N) big_.assign(small_.begin(), small_.end());
    big_.push_back(v);
    ++n_;
  }
  void pop_back() {
    --n_;
    if (n_ >= N) big_.pop_back();
    if (n_ == N) {  // back inside: the heap holds the current values
      std::copy(big_.begin(), big_.end(), small_.begin());
      big_.clear();
    }
  }
  void clear() {
    n_ = 0;
    big_.clear();
  }
  void resize(std::size_t n, const T& v = T()) {
    while (n_ > n) pop_back();
    while (n_ < n) push_back(v);
  }
  // Inserts [first, last) before `pos`.
  template <class It> void insert(const T* pos, It first, It last) {
    const std::size_t at = static_cast<std::size_t>(pos - begin());
    std::vector<T> tail(begin() + at, end());
    resize(at);
    for (; first != last; ++first) push_back(*first);
    for (const T& v : tail) push_back(v);
  }

  friend bool operator==(const InlineVector& a, const InlineVector& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  friend auto operator<=>(const InlineVector& a, const InlineVector& b) {
    return std::lexicographical_compare_three_way(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  void assign_n(std::size_t n, const T& v) {
    for (std::size_t i = 0; i < n; ++i) push_back(v);
  }
  std::array<T, N> small_{};
  std::vector<T> big_;  // all elements, when there are more than N
  std::size_t n_ = 0;
};

}  // namespace srcc
