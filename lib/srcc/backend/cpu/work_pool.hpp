#pragma once
// The CPU backend's own threads. BLAS runs single-threaded inside each task and the pool spreads
// independent work (the matrices of a batch, or row/column panels of one large product) over
// the cores. Why not BLAS's own threads: OpenBLAS forks and joins its threads on every call
// above a small size, so a sweep's many mid-sized products paid a synchronisation each and its
// idle thread spun between calls (see docs/PERFORMANCE.md for the measurements).
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace srcc {

// Work a waiting thread may do in small steps instead of only yielding the core (see
// page_warmer.hpp). step() is called from any of the pool's threads, concurrently, and
// returns false when it had nothing to do; each step should take at most some microseconds,
// since a thread in a step starts its next task only after it.
class IdleWork {
 public:
  virtual ~IdleWork() = default;
  virtual bool step() = 0;
};

class WorkPool {
 public:
  // `threads` in all, the caller of run() included (so threads − 1 workers are started).
  // `idle` (may be null) is stepped by threads that wait.
  explicit WorkPool(int threads, std::shared_ptr<IdleWork> idle = nullptr);
  ~WorkPool();
  WorkPool(const WorkPool&) = delete;
  WorkPool& operator=(const WorkPool&) = delete;

  int threads() const { return static_cast<int>(workers_.size()) + 1; }
  // Whether the calling thread is running a task of some pool.
  static bool in_task();

  // Calls task(i) for every i < count, spread over the pool and the calling thread, and returns
  // when all have finished; rethrows the first exception a task threw (the others still run).
  // Calls from several threads are served one after the other; a call made from inside a task
  // runs its tasks on that thread.
  void run(std::size_t count, const std::function<void(std::size_t)>& task);

 private:
  template <class Done> bool poll(Done&& done);  // see work_pool.cpp
  void work();                     // a worker's loop
  void drain();                    // takes task indices until none are left
  bool wait_for(std::uint64_t seen);  // a new generation (true) or shutdown (false)

  std::shared_ptr<IdleWork> idle_;
  std::vector<std::thread> workers_;
  std::mutex run_mutex_;  // one run() at a time
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::atomic<std::uint64_t> generation_{0};
  bool stop_ = false;
  // The current run: its task; its number (low 32 bits, wrapping) with its count of tasks; the
  // next index to take, under the run's number; and how many tasks are still unfinished. An
  // index is a pair (run, i) taken in one atomic step, so a worker still leaving one run cannot
  // take an index of the next as one of its own (work_pool.cpp, drain).
  std::atomic<const std::function<void(std::size_t)>*> task_{nullptr};
  std::uint32_t runs_ = 0;                   // runs started (under mutex_)
  std::atomic<std::uint64_t> run_{0};        // run << 32 | count
  std::atomic<std::uint64_t> ticket_{0};     // run << 32 | next index
  std::atomic<std::size_t> unfinished_{0};
  std::exception_ptr error_;
};

}  // namespace srcc
