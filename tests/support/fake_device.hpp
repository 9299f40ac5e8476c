#pragma once
// A stand-in for a GPU backend in tests without one: the CPU kernels behind an interface that
// behaves like device memory (adopt and download copy, moves_data() is true, a device budget),
// so the device paths of the sweep — tiers, transfers, their log — run on any machine.
#include <memory>
#include <string>
#include <vector>

#include "srcc/backend/backend.hpp"
#include "srcc/backend/cpu/cpu_backend.hpp"
#include "srcc/core/error.hpp"

namespace srcc::test {

template <class T> class FakeDeviceKernels final : public Kernels<T> {
 public:
  using R = real_t<T>;
  FakeDeviceKernels(const std::shared_ptr<Backend>& cpu, std::size_t fail_over)
      : cpu_(cpu), c_(cpu->kernels<T>()), fail_over_(fail_over) {}
  Buffer<T> allocate(std::size_t n) override { return c_.allocate(n); }
  Buffer<T> adopt(std::vector<T>&& host, CopyClock* /*clock*/) override {
    Buffer<T> b = c_.allocate(host.size());
    std::copy(host.begin(), host.end(), b.data());
    return b;
  }
  std::vector<T> download(const Buffer<T>& b, std::size_t n, CopyClock* /*clock*/,
                          const QueuePoint& /*after*/) override {
    if (fail_over_ > 0 && n * sizeof(T) > fail_over_)
      throw BackendError("fake device: download of " + std::to_string(n * sizeof(T)) + " bytes failed");
    return c_.download(b, n);
  }
  bool moves_data() const override { return true; }
  void gemm(Op oa, Op ob, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* a,
            std::size_t lda, std::size_t sa, const T* b, std::size_t ldb, std::size_t sb, T beta,
            T* c, std::size_t ldc, std::size_t sc, std::size_t batch) override {
    c_.gemm(oa, ob, m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, c, ldc, sc, batch);
  }
  void khatri_rao(std::size_t s, std::size_t nl, std::size_t nx, std::size_t ny, const T* env,
                  const T* omega, T* out) override {
    c_.khatri_rao(s, nl, nx, ny, env, omega, out);
  }
  void swap_axes(std::size_t p, std::size_t x, std::size_t q, std::size_t y, std::size_t r,
                 const T* in, T* out) override {
    c_.swap_axes(p, x, q, y, r, in, out);
  }
  void copy(std::size_t n, const T* in, T* out) override { c_.copy(n, in, out); }
  void conj(std::size_t n, const T* in, T* out) override { c_.conj(n, in, out); }
  void scale(std::size_t n, R alpha, T* x) override { c_.scale(n, alpha, x); }
  R norm(std::size_t n, const T* x) override { return c_.norm(n, x); }
  void qr(std::size_t m, std::size_t n, T* y, T* r) override { c_.qr(m, n, y, r); }
  void upper_inverse(std::size_t k, T* r) override { c_.upper_inverse(k, r); }
  void svd(std::size_t m, std::size_t n, T* a, T* u, R* s, T* vt) override { c_.svd(m, n, a, u, s, vt); }

 private:
  std::shared_ptr<Backend> cpu_;
  Kernels<T>& c_;
  std::size_t fail_over_;  // downloads larger than this many bytes fail (0: none)
};

class FakeDevice final : public BackendOf<FakeDeviceKernels> {
 public:
  explicit FakeDevice(std::size_t budget, std::string name = "fake:0")
      : FakeDevice(budget, std::move(name), 0) {}
  // A device whose downloads of more than `fail_over` bytes throw BackendError.
  FakeDevice(std::size_t budget, std::string name, std::size_t fail_over)
      : BackendOf<FakeDeviceKernels>(std::shared_ptr<Backend>(make_cpu_backend(1)), fail_over),
        name_(std::move(name)),
        budget_(budget) {}
  std::string name() const override { return name_; }
  std::string library_info() const override { return "CPU kernels behind a device interface"; }
  std::size_t memory_budget() const override { return budget_; }

 private:
  std::string name_;
  std::size_t budget_;
};

}  // namespace srcc::test
