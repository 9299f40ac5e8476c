#pragma once
// A backend that counts the tensor memory a sweep holds: every buffer its kernels allocate or
// adopt is tallied while it lives, and the largest total is kept. It wraps another backend's
// kernels (the CPU's, or the stand-in device's) and forwards everything else, so the sweep runs
// exactly as it would on the wrapped one.
#include <algorithm>
#include <atomic>
#include <memory>
#include <string>

#include "srcc/backend/backend.hpp"
#include "forwarding_kernels.hpp"

namespace srcc::test {

struct MemoryTally {
  std::atomic<std::int64_t> live{0}, peak{0};
  void add(std::int64_t bytes) {
    const std::int64_t now = live.fetch_add(bytes) + bytes;
    std::int64_t p = peak.load();
    while (now > p && !peak.compare_exchange_weak(p, now)) {}
  }
};

template <class T> class CountingKernels final : public ForwardingKernels<T> {
 public:
  using R = real_t<T>;
  CountingKernels(Backend* inner, const std::shared_ptr<MemoryTally>& tally)
      : ForwardingKernels<T>(inner->kernels<T>()), tally_(tally) {}

  Buffer<T> allocate(std::size_t n) override { return counted(k_.allocate(n)); }
  Buffer<T> adopt(std::vector<T>&& host, CopyClock* clock) override {
    return counted(k_.adopt(std::move(host), clock));
  }
  Buffer<T> allocate_warmed(std::size_t n) override {
    Buffer<T> b = k_.allocate_warmed(n);
    return b.data() == nullptr ? b : counted(std::move(b));
  }
  std::vector<T> download(const Buffer<T>& b, std::size_t n, CopyClock* clock, const QueuePoint& after) override {
    return k_.download(b, n, clock, after);
  }
  bool moves_data() const override { return k_.moves_data(); }
  std::size_t concurrency() const override { return k_.concurrency(); }
  void for_each_task(std::size_t count, const std::function<void(std::size_t)>& task) override {
    k_.for_each_task(count, task);
  }
  QueuePoint mark() override { return k_.mark(); }
  void warm(T* p, std::size_t n) override { k_.warm(p, n); }
  std::size_t piece_units(std::size_t units, std::size_t unit_bytes) const override {
    return k_.piece_units(units, unit_bytes);
  }
  typename Kernels<T>::RowCut row_cut(std::size_t units, std::size_t unit_bytes) const override {
    return k_.row_cut(units, unit_bytes);
  }
  R gemm_norm(Op oa, Op ob, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* a, std::size_t lda,
              std::size_t sa, const T* b, std::size_t ldb, std::size_t sb, T beta, T* c, std::size_t ldc,
              std::size_t sc, std::size_t batch) override {
    return k_.gemm_norm(oa, ob, m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, c, ldc, sc, batch);
  }
 private:
  // The same memory, with its bytes on the tally until the last owner lets it go.
  Buffer<T> counted(Buffer<T> b) {
    const auto bytes = static_cast<std::int64_t>(b.bytes());
    tally_->add(bytes);
    auto keep = std::make_shared<Buffer<T>>(std::move(b));
    T* p = keep->data();
    const std::size_t n = keep->size();
    return Buffer<T>(std::shared_ptr<T>(p, [keep, tally = tally_, bytes](T*) mutable {
                       tally->add(-bytes);
                       keep.reset();
                     }),
                     n);
  }

  using ForwardingKernels<T>::k_;
  std::shared_ptr<MemoryTally> tally_;
};

class CountingBackend final : public BackendOf<CountingKernels> {
 public:
  CountingBackend(std::unique_ptr<Backend> inner, std::shared_ptr<MemoryTally> tally)
      : CountingBackend(inner.get(), tally, std::move(inner)) {}
  std::string name() const override { return inner_->name(); }
  std::string library_info() const override { return inner_->library_info(); }
  std::size_t memory_budget() const override { return inner_->memory_budget(); }
  int threads() const override { return inner_->threads(); }

 private:
  CountingBackend(Backend* raw, const std::shared_ptr<MemoryTally>& tally, std::unique_ptr<Backend>&& inner)
      : BackendOf<CountingKernels>(raw, tally), inner_(std::move(inner)) {}
  std::unique_ptr<Backend> inner_;
};

}  // namespace srcc::test
