#pragma once
// The compute devices of one sweep, and the split of its sketch columns over them. A run on
// the CPU or on one GPU has one device; with several GPUs (--device gpu:0,1,…) each holds an
// equal slice of every sketch block's columns: it draws nothing itself, gets its rows of the
// test tensors, sweeps the environments of its columns, keeps them in its own store, and
// computes its rows of each cut's sketch. Everything else (factorisations, the right sweep)
// stays on device 0. The sweep's mathematics is written once, for a device context; this layer
// says which device does what and runs the slices side by side.
#include <cstddef>
#include <exception>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "srcc/backend/backend.hpp"
#include "srcc/backend/counting_gemm.hpp"
#include "srcc/log/transfer_log.hpp"
#include "srcc/movement/env_store.hpp"
#include "srcc/movement/mover.hpp"

namespace srcc {

template <class T> class Devices {
 public:
  // What a step needs of the device it runs on.
  struct Ctx {
    Kernels<T>& K;
    CountingGemm<T>& gemm;  // counts the flops executed on this device
    Mover<T>& mover;        // its logged host <-> device copies
    EnvStore<T>& store;     // the environments of its sketch columns
  };
  // Columns [first, first + columns) of a block, on `device`.
  struct Slice {
    std::size_t device = 0, first = 0, columns = 0;
  };

  // `primary` is device 0; `more` the other GPUs of a several-device run.
  Devices(Backend& primary, const std::vector<Backend*>& more, TransferLog& log,
          typename EnvStore<T>::TierRule tiers, const std::string& scratch_dir) {
    devices_.reserve(1 + more.size());
    add(primary, log, tiers, scratch_dir);
    for (Backend* b : more) add(*b, log, tiers, scratch_dir);
  }

  std::size_t count() const { return devices_.size(); }
  Ctx ctx(std::size_t d) {
    Device& e = devices_.at(d);
    return {*e.K, *e.gemm, *e.mover, *e.store};
  }
  std::vector<Mover<T>*> movers() {
    std::vector<Mover<T>*> out;
    for (auto& e : devices_) out.push_back(e.mover.get());
    return out;
  }
  double flops() const {
    double f = 0;
    for (const auto& e : devices_) f += e.gemm->flops();
    return f;
  }

  // Equal slices of `columns`, one per device (the first ones one column larger where they do
  // not divide evenly); devices left without a column get no slice.
  std::vector<Slice> split(std::size_t columns) const {
    std::vector<Slice> out;
    const std::size_t n = devices_.size();
    for (std::size_t d = 0, first = 0; d < n; ++d) {
      const std::size_t count = columns / n + (d < columns % n ? 1 : 0);
      if (count > 0) out.push_back({d, first, count});
      first += count;
    }
    return out;
  }

  // Runs step(i) for i = 0 … n−1, step 0 on the calling thread and each other on a thread of
  // its own, so that the devices work at the same time; once all have finished, the first
  // error one of them threw is rethrown.
  template <class F> void run_side_by_side(std::size_t n, F&& step) {
    std::vector<std::exception_ptr> errors(n);
    auto guarded = [&](std::size_t i) {
      try {
        step(i);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    };
    std::vector<std::thread> threads;
    for (std::size_t i = 1; i < n; ++i) threads.emplace_back(guarded, i);
    guarded(0);
    for (auto& t : threads) t.join();
    for (auto& e : errors)
      if (e) std::rethrow_exception(e);
  }

  void settle_stores() {
    for (auto& e : devices_) e.store->settle();
  }
  void release(std::size_t block, std::size_t j) {
    for (auto& e : devices_) e.store->release(block, j);
  }

 private:
  struct Device {
    Kernels<T>* K = nullptr;
    std::unique_ptr<CountingGemm<T>> gemm;
    std::unique_ptr<Mover<T>> mover;
    std::unique_ptr<EnvStore<T>> store;
  };
  void add(Backend& b, TransferLog& log, typename EnvStore<T>::TierRule tiers,
           const std::string& scratch_dir) {
    Device e;
    e.K = &b.kernels<T>();
    e.gemm = std::make_unique<CountingGemm<T>>(*e.K);
    e.mover = std::make_unique<Mover<T>>(*e.K, &log, b.name());
    e.store = std::make_unique<EnvStore<T>>(*e.mover, log, tiers, scratch_dir);
    devices_.push_back(std::move(e));
  }

  std::vector<Device> devices_;
};

// What a step needs of the device it runs on (Devices<T>::Ctx).
template <class T> using DeviceCtx = typename Devices<T>::Ctx;

}  // namespace srcc
