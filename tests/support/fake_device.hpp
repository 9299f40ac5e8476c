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
#include "forwarding_kernels.hpp"

namespace srcc::test {

template <class T> class FakeDeviceKernels final : public ForwardingKernels<T> {
 public:
  using R = real_t<T>;
  FakeDeviceKernels(const std::shared_ptr<Backend>& cpu, std::size_t fail_over)
      : ForwardingKernels<T>(cpu->kernels<T>()), cpu_(cpu), fail_over_(fail_over) {}
  Buffer<T> allocate(std::size_t n) override { return this->k_.allocate(n); }
  Buffer<T> adopt(std::vector<T>&& host, CopyClock* /*clock*/) override {
    Buffer<T> b = this->k_.allocate(host.size());
    std::copy(host.begin(), host.end(), b.data());
    return b;
  }
  std::vector<T> download(const Buffer<T>& b, std::size_t n, CopyClock* /*clock*/,
                          const QueuePoint& /*after*/) override {
    if (fail_over_ > 0 && n * sizeof(T) > fail_over_)
      throw BackendError("fake device: download of " + std::to_string(n * sizeof(T)) + " bytes failed");
    return this->k_.download(b, n);
  }
  bool moves_data() const override { return true; }

 private:
  std::shared_ptr<Backend> cpu_;  // owns the kernels forwarded to
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
