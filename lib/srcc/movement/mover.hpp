#pragma once
// One backend's kernels together with the transfer log of what moves in and out of them: every
// host -> device and device -> host copy the sweep makes goes through here, so each is a row of
// /log/transfers. Device backends time their copies on the device (CopyClock); the row then
// reads that time when the log is settled, and the copy overlaps the work queued after it.
#include <chrono>
#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "srcc/backend/backend.hpp"
#include "srcc/core/dtype.hpp"
#include "srcc/log/transfer_log.hpp"

namespace srcc {

template <class T> class Mover {
 public:
  // `log` may be null (nothing is recorded); `device` names the backend in the log ("cuda:0").
  Mover(Kernels<T>& kernels, TransferLog* log, std::string device)
      : K_(kernels), log_(log), device_(std::move(device)) {}

  Kernels<T>& kernels() { return K_; }
  const std::string& device() const { return device_; }

  // Host data into backend memory (site = -1 where no site applies).
  Buffer<T> up(std::vector<T>&& host, const std::string& what, std::int64_t site) {
    const auto bytes = static_cast<std::int64_t>(host.size() * sizeof(T));
    const auto t0 = Clock::now();
    CopyClock clock;
    Buffer<T> b = K_.adopt(std::move(host), &clock);
    if (K_.moves_data()) note(what, site, "host", device_, mechanism::kDeviceMove, bytes, t0, std::move(clock));
    return b;
  }

  // The first n elements of b back in host memory, as left by the work queued before the
  // call or before `after` (see QueuePoint).
  std::vector<T> down(const Buffer<T>& b, std::size_t n, const std::string& what,
                      std::int64_t site, const QueuePoint& after = nullptr) {
    return down_as(b, n, what, site, false, after);
  }

  // A new buffer of `n_out` values filled by `fill(in, out)` from the first `n_in` of `b`, where
  // `fill` works on host memory (an exchange between processes): on a host backend on the
  // buffers themselves, on a device through host copies, each logged.
  Buffer<T> through_host(const Buffer<T>& b, std::size_t n_in, std::size_t n_out,
                         const std::function<void(const T*, T*)>& fill, const std::string& what, std::int64_t site) {
    if (!K_.moves_data()) {
      Buffer<T> out = K_.allocate(std::max<std::size_t>(n_out, 1));
      fill(b.data(), out.data());
      return out;
    }
    const std::vector<T> in = down(b, n_in, what, site);
    std::vector<T> out(n_out);
    fill(in.data(), out.data());
    return up(std::move(out), what, site);
  }

  // The same for several buffers of `n_in` values each: `fill(ins, out)` gets each one's values
  // on the host (on a host backend the buffers themselves).
  Buffer<T> through_host(const std::vector<Buffer<T>>& bs, std::size_t n_in, std::size_t n_out,
                         const std::function<void(const std::vector<const T*>&, T*)>& fill, const std::string& what,
                         std::int64_t site) {
    std::vector<const T*> ins;
    if (!K_.moves_data()) {
      for (const auto& b : bs) ins.push_back(b.data());
      Buffer<T> out = K_.allocate(std::max<std::size_t>(n_out, 1));
      fill(ins, out.data());
      return out;
    }
    std::vector<std::vector<T>> host;
    for (const auto& b : bs) ins.push_back(host.emplace_back(down(b, n_in, what, site)).data());
    std::vector<T> out(n_out);
    fill(ins, out.data());
    return up(std::move(out), what, site);
  }

  // Like down() for data that leaves the computation for good (result cores): on a host
  // backend the copy out of its memory is logged too, as a host copy.
  std::vector<T> fetch(const Buffer<T>& b, std::size_t n, const std::string& what,
                       std::int64_t site) {
    return down_as(b, n, what, site, true, nullptr);
  }

 private:
  using Clock = std::chrono::steady_clock;

  std::vector<T> down_as(const Buffer<T>& b, std::size_t n, const std::string& what,
                         std::int64_t site, bool log_host_copy, const QueuePoint& after) {
    const auto t0 = Clock::now();
    CopyClock clock;
    std::vector<T> host = K_.download(b, n, &clock, after);
    const auto bytes = static_cast<std::int64_t>(n * sizeof(T));
    if (K_.moves_data())
      note(what, site, device_, "host", mechanism::kDeviceMove, bytes, t0, std::move(clock));
    else if (log_host_copy)
      note(what, site, "host", "host", mechanism::kHostCopy, bytes, t0, {});
    return host;
  }

  void note(const std::string& what, std::int64_t site, const std::string& source,
            const std::string& target, const char* how, std::int64_t bytes,
            Clock::time_point t0, CopyClock clock) {
    if (!log_) return;
    const std::string dt(dtype_name(dtype_of<T>));
    TransferRecord r{.what = what, .site = site, .mechanism = how, .source = source,
                     .target = target, .dtype_from = dt, .dtype_to = dt, .bytes = bytes,
                     .seconds = std::chrono::duration<double>(Clock::now() - t0).count()};
    if (clock)
      log_->add(std::move(r), std::move(clock));
    else
      log_->add(std::move(r));
  }

  Kernels<T>& K_;
  TransferLog* log_;
  std::string device_;
};

}  // namespace srcc
