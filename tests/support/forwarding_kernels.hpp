#pragma once
// The arithmetic of another backend's kernels, forwarded unchanged: the base of the test
// stand-ins (fake_device.hpp, guarded_device.hpp, counting_backend.hpp), which differ only in how
// they hold memory and run tasks. Every forwarded call runs between enter() and leave(), where a
// stand-in may open its memory to the arithmetic (guarded_device.hpp).
#include "srcc/backend/backend.hpp"

namespace srcc::test {

template <class T> class ForwardingKernels : public Kernels<T> {
 public:
  using R = real_t<T>;
  explicit ForwardingKernels(Kernels<T>& inner) : k_(inner) {}

  void gemm(Op oa, Op ob, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* a, std::size_t lda,
            std::size_t sa, const T* b, std::size_t ldb, std::size_t sb, T beta, T* c, std::size_t ldc,
            std::size_t sc, std::size_t batch) override {
    const Inside inside(*this);
    k_.gemm(oa, ob, m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, c, ldc, sc, batch);
  }
  void khatri_rao(std::size_t s, std::size_t nl, std::size_t nx, std::size_t ny, const T* env, const T* omega,
                  T* out) override {
    const Inside inside(*this);
    k_.khatri_rao(s, nl, nx, ny, env, omega, out);
  }
  void swap_axes(std::size_t p, std::size_t x, std::size_t q, std::size_t y, std::size_t r, const T* in,
                 T* out) override {
    const Inside inside(*this);
    k_.swap_axes(p, x, q, y, r, in, out);
  }
  void copy(std::size_t n, const T* in, T* out) override {
    const Inside inside(*this);
    k_.copy(n, in, out);
  }
  void copy_runs(std::size_t count, std::size_t len, const T* in, std::size_t ld_in, T* out,
                 std::size_t ld_out) override {
    const Inside inside(*this);
    k_.copy_runs(count, len, in, ld_in, out, ld_out);
  }
  void zero(std::size_t n, T* x) override {
    const Inside inside(*this);
    k_.zero(n, x);
  }
  void conj(std::size_t n, const T* in, T* out) override {
    const Inside inside(*this);
    k_.conj(n, in, out);
  }
  void scale(std::size_t n, R alpha, T* x) override {
    const Inside inside(*this);
    k_.scale(n, alpha, x);
  }
  void add(std::size_t n, R alpha, const T* x, T* y) override {
    const Inside inside(*this);
    k_.add(n, alpha, x, y);
  }
  R norm(std::size_t n, const T* x) override {
    const Inside inside(*this);
    return k_.norm(n, x);
  }
  void qr(std::size_t m, std::size_t n, T* y, T* r) override {
    const Inside inside(*this);
    k_.qr(m, n, y, r);
  }
  void qr_r(std::size_t m, std::size_t n, T* y, T* r) override {
    const Inside inside(*this);
    k_.qr_r(m, n, y, r);
  }
  void upper_inverse(std::size_t k, T* r) override {
    const Inside inside(*this);
    k_.upper_inverse(k, r);
  }
  void svd(std::size_t m, std::size_t n, T* a, T* u, R* s, T* vt) override {
    const Inside inside(*this);
    k_.svd(m, n, a, u, s, vt);
  }
  void left_svd(std::size_t m, std::size_t n, T* a, T* u, R* s) override {
    const Inside inside(*this);
    k_.left_svd(m, n, a, u, s);
  }

 protected:
  // Around every forwarded call (nested calls too: a stand-in counts the depth).
  virtual void enter() {}
  virtual void leave() {}
  class Inside {
   public:
    explicit Inside(ForwardingKernels& k) : k_(k) { k_.enter(); }
    ~Inside() { k_.leave(); }
    Inside(const Inside&) = delete;
    Inside& operator=(const Inside&) = delete;

   private:
    ForwardingKernels& k_;
  };

  Kernels<T>& k_;
};

}  // namespace srcc::test
