// InlineVector against std::vector doing the same things, across the step from its inline
// elements to the heap and back, and ordered as std::vector orders (maps of charges and block
// keys depend on it).
#include "srcc/core/inline_vector.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace srcc {
namespace {

using Small = InlineVector<long long, 3>;

void expect_same(const Small& a, const std::vector<long long>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < b.size(); ++i) EXPECT_EQ(a[i], b[i]) << "element " << i;
  EXPECT_EQ(std::vector<long long>(a), b);
}

TEST(InlineVector, GrowsOntoTheHeapAndBackAsAVectorDoes) {
  Small a;
  std::vector<long long> b;
  for (long long v = 1; v <= 7; ++v) {
    a.push_back(v * 10);
    b.push_back(v * 10);
    expect_same(a, b);
  }
  const Small copy = a;  // a copy on the heap side is its own
  a[5] = -1;
  b[5] = -1;
  EXPECT_EQ(copy[5], 60);
  a[0] = -7;  // changed on the heap side, then brought back inside
  b[0] = -7;
  const std::vector<long long> head(b.begin(), b.begin() + 2);  // (a vector's own range may not be inserted)
  a.insert(a.begin() + 2, head.begin(), head.end());
  b.insert(b.begin() + 2, head.begin(), head.end());
  expect_same(a, b);
  while (!b.empty()) {
    a.pop_back();
    b.pop_back();
    expect_same(a, b);
  }
  a.resize(5, 4);
  b.resize(5, 4);
  expect_same(a, b);
  EXPECT_EQ(Small(std::vector<long long>{1, 2, 3, 4}), (Small{1, 2, 3, 4}));
  EXPECT_EQ(Small(2, 9), (Small{9, 9}));
}

TEST(InlineVector, OrdersAsAVectorOrders) {
  std::mt19937_64 gen(3);
  std::uniform_int_distribution<int> len(0, 5), val(-2, 2);
  for (int t = 0; t < 2000; ++t) {
    std::vector<long long> x(len(gen)), y(len(gen));
    for (auto& v : x) v = val(gen);
    for (auto& v : y) v = val(gen);
    const Small a(x), b(y);
    EXPECT_EQ(a < b, x < y);
    EXPECT_EQ(a == b, x == y);
    EXPECT_EQ(a > b, x > y);
  }
}

}  // namespace
}  // namespace srcc
