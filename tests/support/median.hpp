#pragma once
// The median of a few runs' figures (over seeds), for tests that judge a randomized method by
// its typical result rather than its luckiest or unluckiest.
#include <algorithm>
#include <vector>

namespace srcc::test {

inline double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

}  // namespace srcc::test
