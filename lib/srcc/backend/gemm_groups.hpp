#pragma once
// How a device issues Kernels::gemm_chains(): in waves, wave i holding the i-th call of every
// chain (so a chain's calls stay in order, and the calls of one wave write distinct memory), each
// wave's calls grouped by shape (ops, sizes, leading dimensions, beta) with every matrix of a
// strided batch listed apart — one pointer-array batched GEMM per group. Host code, so that the
// grouping is tested on any machine (tests/support/guarded_device.hpp issues its GEMMs through it).
#include <algorithm>
#include <complex>
#include <cstddef>
#include <map>
#include <tuple>
#include <vector>

#include "srcc/backend/backend.hpp"

namespace srcc {

// One batched launch: the shape its matrices share and, per matrix, its three pointers.
template <class T> struct GemmGroup {
  Op op_a = Op::kNone, op_b = Op::kNone;
  std::size_t m = 0, n = 0, k = 0, lda = 0, ldb = 0, ldc = 0;
  T beta = T(0);
  std::vector<const T*> a, b;
  std::vector<T*> c;
};

// The waves of `chains`, each a list of groups, in the order they must run.
template <class T>
std::vector<std::vector<GemmGroup<T>>> gemm_waves(const std::vector<std::vector<GemmCall<T>>>& chains) {
  std::size_t depth = 0;
  for (const auto& chain : chains) depth = std::max(depth, chain.size());
  std::vector<std::vector<GemmGroup<T>>> waves(depth);
  for (std::size_t w = 0; w < depth; ++w) {
    using Key = std::tuple<int, int, std::size_t, std::size_t, std::size_t, std::size_t, std::size_t, std::size_t, double,
                           double>;
    std::map<Key, std::size_t> index;
    for (const auto& chain : chains) {
      if (w >= chain.size()) continue;
      const GemmCall<T>& g = chain[w];
      if (g.m == 0 || g.n == 0 || g.batch == 0) continue;
      const std::complex<double> beta(g.beta);
      const Key key{static_cast<int>(g.op_a), static_cast<int>(g.op_b), g.m, g.n, g.k, g.lda, g.ldb, g.ldc, beta.real(),
                    beta.imag()};
      auto [it, fresh] = index.try_emplace(key, waves[w].size());
      if (fresh) waves[w].push_back({g.op_a, g.op_b, g.m, g.n, g.k, g.lda, g.ldb, g.ldc, g.beta, {}, {}, {}});
      GemmGroup<T>& group = waves[w][it->second];
      for (std::size_t i = 0; i < g.batch; ++i) {
        group.a.push_back(g.a + i * g.stride_a);
        group.b.push_back(g.b + i * g.stride_b);
        group.c.push_back(g.c + i * g.stride_c);
      }
    }
  }
  return waves;
}

}  // namespace srcc
