#pragma once
// Where a sweep's GEMM time goes, by shape (--profile-gemm): every GEMM call of the CPU backend
// timed on the thread that makes it. Calls made inside a task of the backend's pool (a thread's
// piece of the left step, a share of a batch) are timed per thread; the others include the
// split over the pool's threads. A GPU backend queues its GEMMs asynchronously, so timing them
// on the host would measure the queueing: it does not profile.
#include <chrono>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace srcc {

struct GemmShape {
  int op_a = 0, op_b = 0;  // Op values: 0 none, 1 transposed, 2 conjugate-transposed
  std::size_t m = 0, n = 0, k = 0, batch = 1;
  bool in_task = false;  // called from inside a pool task: one thread's time
  auto operator<=>(const GemmShape&) const = default;
};

struct GemmTiming {
  GemmShape shape;
  std::uint64_t calls = 0;
  double seconds = 0;  // summed over calls (per thread for in_task calls)
  double flops = 0;    // real flops, counted as CountingGemm counts them
};

class GemmProfile {
 public:
  void add(const GemmShape& shape, double seconds, double flops) {
    std::lock_guard lock(mutex_);
    GemmTiming& t = rows_[shape];
    t.shape = shape;
    ++t.calls;
    t.seconds += seconds;
    t.flops += flops;
  }
  // Most time first.
  std::vector<GemmTiming> rows() const;
  // A header, then one line per shape of `rows` (ops, m × n × k, batch, calls, seconds,
  // GFLOP/s) for the first `most`, and one line for the rest.
  static std::vector<std::string> table(const std::vector<GemmTiming>& rows,
                                        std::size_t most = 12);
  static std::string json(const std::vector<GemmTiming>& rows);

 private:
  mutable std::mutex mutex_;
  std::map<GemmShape, GemmTiming> rows_;
};

// Times its own lifetime into `profile` under `shape` (nothing when `profile` is null): a GEMM
// kernel opens one on entry, whatever path it returns by.
class GemmTimer {
 public:
  GemmTimer(GemmProfile* profile, const GemmShape& shape, double flops)
      : profile_(profile), shape_(shape), flops_(flops) {
    if (profile_) t0_ = std::chrono::steady_clock::now();
  }
  ~GemmTimer() {
    if (!profile_) return;
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - t0_;
    profile_->add(shape_, took.count(), flops_);
  }
  GemmTimer(const GemmTimer&) = delete;
  GemmTimer& operator=(const GemmTimer&) = delete;

 private:
  GemmProfile* profile_;
  GemmShape shape_;
  double flops_;
  std::chrono::steady_clock::time_point t0_{};
};

}  // namespace srcc
