#include "srcc/sweep/truncation_sweep.hpp"

#include <algorithm>
#include <cmath>

#include "srcc/core/interrupt.hpp"
#include "srcc/sweep/truncation.hpp"
#include "srcc/train/layout.hpp"

namespace srcc {

namespace {
std::int64_t site(std::size_t j) { return static_cast<std::int64_t>(j); }
}  // namespace

template <class T>
void right_canonicalize(std::vector<Tensor<T>>& cores, Mover<T>& mover, CountingGemm<T>& gemm,
                        double* log_scale) {
  auto& K = mover.kernels();
  const std::size_t n = cores.size();
  // Right to left: core j = L · Q with orthonormal rows; L moves into core j−1.
  for (std::size_t j = n; j-- > 1;) {
    poll_interrupt();
    auto& c = cores[j];
    const std::size_t l = c.shape[kLegL], rud = c.size() / l, kq = std::min(l, rud);
    Buffer<T> q = mover.up(std::move(c.data), "result site", site(j));  // row-major [l, rud] = column-major rud × l
    Buffer<T> rf = K.allocate(kq * l);
    K.qr(rud, l, q.data(), rf.data());
    c.data = mover.down(q, kq * rud, "result site", site(j));
    c.shape[kLegL] = kq;
    auto& prev = cores[j - 1];
    const std::size_t pl = prev.shape[kLegL], ud = prev.shape[kLegU] * prev.shape[kLegD];
    Buffer<T> pb = mover.up(std::move(prev.data), "result site", site(j - 1));
    Buffer<T> out = K.allocate(pl * kq * ud);
    gemm(Op::kTrans, Op::kNone, kq, ud, l, T(1), rf.data(), kq, 0, pb.data(), ud, l * ud, T(0),
         out.data(), ud, kq * ud, pl);
    if (log_scale) {
      const double norm = static_cast<double>(K.norm(pl * kq * ud, out.data()));
      if (norm > 0 && std::isfinite(norm)) {
        K.scale(pl * kq * ud, static_cast<real_t<T>>(1.0 / norm), out.data());
        *log_scale += std::log(norm);
      }
    }
    prev.data = mover.down(out, pl * kq * ud, "result site", site(j - 1));
    prev.shape[kLegR] = kq;
  }
}

template <class T>
std::vector<double> truncate_train(std::vector<Tensor<T>>& cores, std::size_t chi, double cutoff,
                                   double tol, Mover<T>& mover, CountingGemm<T>& gemm) {
  auto& K = mover.kernels();
  const std::size_t n = cores.size();
  std::vector<double> discarded(n > 0 ? n - 1 : 0, 0.0);
  double norm = 0;
  // Left to right: SVD of core j as the matrix [(l, u, d), r], keep `rank`, push Σ V* right.
  for (std::size_t j = 0; j + 1 < n; ++j) {
    poll_interrupt();
    auto& c = cores[j];
    const std::size_t l = c.shape[kLegL], r = c.shape[kLegR], ud = c.shape[kLegU] * c.shape[kLegD];
    const std::size_t m = l * ud, kk = std::min(m, r);
    Buffer<T> in = mover.up(std::move(c.data), "result site", site(j));
    Buffer<T> a = K.allocate(m * r);  // (r, l, u, d) row-major = [(l u d) × r] column-major
    K.swap_axes(1, l, 1, r, ud, in.data(), a.data());
    Buffer<T> u = K.allocate(m * kk), vt = K.allocate(kk * r);
    std::vector<real_t<T>> sigma(kk);
    K.svd(m, r, a.data(), u.data(), sigma.data(), vt.data());
    const std::size_t rank = truncation_rank(sigma, cutoff, tol, chi);
    // Relative to the norm of the train as given (the first cut has seen no truncation yet),
    // so that the cuts' errors add in quadrature to the total error.
    if (j == 0) {
      for (auto s : sigma) norm += static_cast<double>(s) * static_cast<double>(s);
      norm = std::sqrt(norm);
    }
    discarded[j] = norm > 0 ? discarded_norm(sigma, rank) / norm : 0.0;
    // Core j: U[:, :rank] read row-major is (rank, l, u, d); reorder to (l, rank, u, d).
    Buffer<T> left = K.allocate(l * rank * ud);
    K.swap_axes(1, rank, 1, l, ud, u.data(), left.data());
    c.data = mover.down(left, l * rank * ud, "result site", site(j));
    c.shape = {l, rank, c.shape[kLegU], c.shape[kLegD]};
    // Core j+1 ← diag(σ[:rank]) · V*[:rank, :] · core j+1.
    auto& next = cores[j + 1];
    const std::size_t rest = next.size() / r;
    Buffer<T> nb = mover.up(std::move(next.data), "result site", site(j + 1));
    Buffer<T> out = K.allocate(rank * rest);
    gemm(Op::kTrans, Op::kNone, rank, rest, r, T(1), vt.data(), kk, nb.data(), rest, T(0),
         out.data(), rest);
    for (std::size_t i = 0; i < rank; ++i) K.scale(rest, sigma[i], out.data() + i * rest);
    next.data = mover.down(out, rank * rest, "result site", site(j + 1));
    next.shape[kLegL] = rank;
  }
  right_canonicalize(cores, mover, gemm);
  return discarded;
}

#define SRCC_INSTANTIATE(T)                                                                  \
  template void right_canonicalize(std::vector<Tensor<T>>&, Mover<T>&, CountingGemm<T>&,      \
                                  double*);                                                  \
  template std::vector<double> truncate_train(std::vector<Tensor<T>>&, std::size_t, double, \
                                              double, Mover<T>&, CountingGemm<T>&);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
