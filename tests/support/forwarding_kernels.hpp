#pragma once
// The arithmetic of another backend's kernels, forwarded unchanged: the base of the test
// stand-ins (fake_device.hpp, counting_backend.hpp), which differ only in how they hold memory
// and run tasks.
#include "srcc/backend/backend.hpp"

namespace srcc::test {

template <class T> class ForwardingKernels : public Kernels<T> {
 public:
  using R = real_t<T>;
  explicit ForwardingKernels(Kernels<T>& inner) : k_(inner) {}

  void gemm(Op oa, Op ob, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* a, std::size_t lda,
            std::size_t sa, const T* b, std::size_t ldb, std::size_t sb, T beta, T* c, std::size_t ldc,
            std::size_t sc, std::size_t batch) override {
    k_.gemm(oa, ob, m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, c, ldc, sc, batch);
  }
  void khatri_rao(std::size_t s, std::size_t nl, std::size_t nx, std::size_t ny, const T* env, const T* omega,
                  T* out) override {
    k_.khatri_rao(s, nl, nx, ny, env, omega, out);
  }
  void swap_axes(std::size_t p, std::size_t x, std::size_t q, std::size_t y, std::size_t r, const T* in,
                 T* out) override {
    k_.swap_axes(p, x, q, y, r, in, out);
  }
  void copy(std::size_t n, const T* in, T* out) override { k_.copy(n, in, out); }
  void conj(std::size_t n, const T* in, T* out) override { k_.conj(n, in, out); }
  void scale(std::size_t n, R alpha, T* x) override { k_.scale(n, alpha, x); }
  void add(std::size_t n, R alpha, const T* x, T* y) override { k_.add(n, alpha, x, y); }
  R norm(std::size_t n, const T* x) override { return k_.norm(n, x); }
  void qr(std::size_t m, std::size_t n, T* y, T* r) override { k_.qr(m, n, y, r); }
  void upper_inverse(std::size_t k, T* r) override { k_.upper_inverse(k, r); }
  void svd(std::size_t m, std::size_t n, T* a, T* u, R* s, T* vt) override { k_.svd(m, n, a, u, s, vt); }
  void left_svd(std::size_t m, std::size_t n, T* a, T* u, R* s) override { k_.left_svd(m, n, a, u, s); }

 protected:
  Kernels<T>& k_;
};

}  // namespace srcc::test
