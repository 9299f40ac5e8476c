#include "srcc/sweep/truncation_sweep.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <string>

#include "srcc/core/error.hpp"
#include "srcc/core/interrupt.hpp"
#include "srcc/sweep/truncation.hpp"
#include "srcc/train/layout.hpp"

namespace srcc {

namespace {
std::int64_t site(std::size_t j) { return static_cast<std::int64_t>(j); }

// Core j on the backend as the column-major [(l, u, d) × r] matrix, which is its
// (r, l, u, d) row-major reordering (the core's data moves out).
template <class T> Buffer<T> left_matrix(Mover<T>& mover, Tensor<T>& c, std::size_t j) {
  auto& K = mover.kernels();
  const std::size_t l = c.shape[kLegL], r = c.shape[kLegR], ud = c.shape[kLegU] * c.shape[kLegD];
  Buffer<T> in = mover.up(std::move(c.data), "result site", site(j));
  Buffer<T> a = K.allocate(l * ud * r);
  K.swap_axes(1, l, 1, r, ud, in.data(), a.data());
  return a;
}

// Core j ← the first `rank` columns of the column-major [(l, u, d) × rank] matrix q: read
// row-major they are (rank, l, u, d), reordered to (l, rank, u, d).
template <class T>
void set_left_core(Mover<T>& mover, Tensor<T>& c, const Buffer<T>& q, std::size_t rank, std::size_t j) {
  const std::size_t l = c.shape[kLegL], ud = c.shape[kLegU] * c.shape[kLegD];
  Buffer<T> left = mover.kernels().allocate(l * rank * ud);
  mover.kernels().swap_axes(1, rank, 1, l, ud, q.data(), left.data());
  c.data = mover.down(left, l * rank * ud, "result site", site(j));
  c.shape = {l, rank, c.shape[kLegU], c.shape[kLegD]};
}

// Core j+1 ← X · core j+1 for the rank × r matrix X stored column-major with leading
// dimension ld (an R factor, or V* of an SVD), each row i then scaled by row_scale[i] if given.
template <class T>
void absorb_left(Mover<T>& mover, CountingGemm<T>& gemm, Tensor<T>& next, const T* x,
                 std::size_t ld, std::size_t rank, std::size_t j, const real_t<T>* row_scale = nullptr) {
  const std::size_t r = next.shape[kLegL], rest = next.size() / r;
  Buffer<T> nb = mover.up(std::move(next.data), "result site", site(j + 1));
  Buffer<T> out = mover.kernels().allocate(rank * rest);
  gemm(Op::kTrans, Op::kNone, rank, rest, r, T(1), x, ld, nb.data(), rest, T(0), out.data(), rest);
  if (row_scale != nullptr)
    for (std::size_t i = 0; i < rank; ++i) mover.kernels().scale(rest, row_scale[i], out.data() + i * rest);
  next.data = mover.down(out, rank * rest, "result site", site(j + 1));
  next.shape[kLegL] = rank;
}
}  // namespace

template <class T> double scale_to_unit(Kernels<T>& K, std::size_t n, T* data) {
  const double norm = static_cast<double>(K.norm(n, data));
  if (!(norm > 0) || !std::isfinite(norm)) return 0;
  int e = 0;
  std::frexp(norm, &e);  // norm = m · 2^e, m in [1/2, 1)
  const int first = -e / 2, second = -e - first;
  K.scale(n, static_cast<real_t<T>>(std::ldexp(1.0, first)), data);
  K.scale(n, static_cast<real_t<T>>(std::ldexp(1.0, second)), data);
  return e * std::log(2.0);
}

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
    if (log_scale) *log_scale += scale_to_unit(K, pl * kq * ud, out.data());
    prev.data = mover.down(out, pl * kq * ud, "result site", site(j - 1));
    prev.shape[kLegR] = kq;
  }
}

template <class T>
void left_canonicalize(std::vector<Tensor<T>>& cores, Mover<T>& mover, CountingGemm<T>& gemm) {
  auto& K = mover.kernels();
  // Left to right: core j as [(l, u, d) × r] = Q · R; Q stays, R moves into core j+1.
  for (std::size_t j = 0; j + 1 < cores.size(); ++j) {
    poll_interrupt();
    auto& c = cores[j];
    const std::size_t r = c.shape[kLegR], m = c.size() / r, kq = std::min(m, r);
    Buffer<T> a = left_matrix(mover, c, j);
    Buffer<T> rf = K.allocate(kq * r);
    K.qr(m, r, a.data(), rf.data());
    set_left_core(mover, c, a, kq, j);
    absorb_left(mover, gemm, cores[j + 1], rf.data(), kq, kq, j);
  }
}

template <class T> double apply_log_scale(Tensor<T>& core, double log_scale) {
  long double norm2 = 0;
  for (const auto& v : core.data) norm2 += std::norm(std::complex<long double>(std::complex<double>(v)));
  if (norm2 == 0) return 0;  // the exact product is zero
  const long double log_norm = 0.5L * std::log(norm2) + log_scale;
  if (!std::isfinite(log_norm))
    throw NumericalError("the product's norm is not a finite number (an input holds an infinity or a NaN, or "
                         "its entries overflow " + std::string(dtype_name(dtype_of<T>)) + ")");
  using R = real_t<T>;
  if (log_norm < std::log(static_cast<long double>(std::numeric_limits<R>::min())) + 8 ||
      log_norm > std::log(static_cast<long double>(std::numeric_limits<R>::max())) - 8) {
    // Beyond the type: the core at unit norm, the rest returned as the train's scale.
    log_scale = -static_cast<double>(0.5L * std::log(norm2));
    if (!std::isfinite(log_scale)) throw NumericalError("the product's norm is beyond any scale");
    apply_log_scale(core, log_scale);
    return static_cast<double>(log_norm);
  }
  if (log_scale == 0) return 0;
  const long double factor = std::exp(static_cast<long double>(log_scale));
  for (auto& v : core.data) {
    if constexpr (is_complex_v<T>) {
      v = T(static_cast<R>(static_cast<long double>(v.real()) * factor),
            static_cast<R>(static_cast<long double>(v.imag()) * factor));
    } else {
      v = static_cast<T>(static_cast<long double>(v) * factor);
    }
  }
  return 0;
}

template <class T>
std::vector<double> truncate_train(std::vector<Tensor<T>>& cores, std::size_t chi, double cutoff,
                                   double tol, Mover<T>& mover, CountingGemm<T>& gemm, bool numerical_zeros,
                                   std::vector<std::vector<double>>* spectra) {
  auto& K = mover.kernels();
  const std::size_t n = cores.size();
  std::vector<double> discarded(n > 0 ? n - 1 : 0, 0.0);
  double norm = 0;
  // Left to right: SVD of core j as the matrix [(l, u, d), r], keep `rank`, push Σ V* right.
  for (std::size_t j = 0; j + 1 < n; ++j) {
    poll_interrupt();
    auto& c = cores[j];
    const std::size_t r = c.shape[kLegR], m = c.size() / r, kk = std::min(m, r);
    Buffer<T> a = left_matrix(mover, c, j);
    Buffer<T> u = K.allocate(m * kk), vt = K.allocate(kk * r);
    std::vector<real_t<T>> sigma(kk);
    K.svd(m, r, a.data(), u.data(), sigma.data(), vt.data());
    if (spectra) spectra->emplace_back(sigma.begin(), sigma.end());
    const std::size_t rank =
        truncation_rank(sigma, effective_cutoff<real_t<T>>(cutoff, numerical_zeros), tol, chi);
    // Relative to the norm of the train as given (the first cut has seen no truncation yet),
    // so that the cuts' errors add in quadrature to the total error.
    if (j == 0) {
      for (auto s : sigma) norm += static_cast<double>(s) * static_cast<double>(s);
      norm = std::sqrt(norm);
    }
    discarded[j] = norm > 0 ? discarded_norm(sigma, rank) / norm : 0.0;
    set_left_core(mover, c, u, rank, j);
    // Core j+1 ← diag(σ[:rank]) · V*[:rank, :] · core j+1.
    absorb_left(mover, gemm, cores[j + 1], vt.data(), kk, rank, j, sigma.data());
  }
  right_canonicalize(cores, mover, gemm);
  return discarded;
}

#define SRCC_INSTANTIATE(T)                                                                  \
  template double apply_log_scale(Tensor<T>&, double);                                         \
  template void left_canonicalize(std::vector<Tensor<T>>&, Mover<T>&, CountingGemm<T>&);     \
  template double scale_to_unit(Kernels<T>&, std::size_t, T*);                               \
  template void right_canonicalize(std::vector<Tensor<T>>&, Mover<T>&, CountingGemm<T>&,      \
                                  double*);                                                  \
  template std::vector<double> truncate_train(std::vector<Tensor<T>>&, std::size_t, double, \
                                              double, Mover<T>&, CountingGemm<T>&, bool,       \
                                              std::vector<std::vector<double>>*);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
