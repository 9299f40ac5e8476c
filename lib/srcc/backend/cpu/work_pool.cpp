#include "srcc/backend/cpu/work_pool.hpp"

#include <chrono>
#include <utility>

namespace srcc {

namespace {

// A sweep issues its products back to back with a little host work in between (a norm, a
// small QR), and splits products of a few microseconds over the threads: a thread that waits
// by sleeping on a condition variable pays tens of microseconds to be woken, a large share of
// such a product. So both waits — a worker's for the next run, the caller's for the end of its
// run — first poll for this long. They poll with sched_yield, not a pause loop: the read-ahead
// thread (io/file_site_source) needs a core too, and on a machine with as many run threads as
// cores a pausing poller held the core it was waiting for (docs/PERFORMANCE.md, "Threads").
constexpr auto kPollFor = std::chrono::microseconds(1000);

thread_local bool t_in_task = false;  // this thread is running a task of some pool

// Marks the current thread as inside a task for its lifetime.
class InTask {
 public:
  InTask() : was_(t_in_task) { t_in_task = true; }
  ~InTask() { t_in_task = was_; }
  InTask(const InTask&) = delete;
  InTask& operator=(const InTask&) = delete;

 private:
  bool was_;
};

}  // namespace

bool WorkPool::in_task() { return t_in_task; }

// Polls `done` until it holds (true) or kPollFor has passed (false). Between looks a thread
// takes a step of the idle work when there is some (faulting in pages the sweep will write
// next), and otherwise yields.
template <class Done> bool WorkPool::poll(Done&& done) {
  const auto until = std::chrono::steady_clock::now() + kPollFor;
  for (;;) {
    if (done()) return true;
    if (std::chrono::steady_clock::now() >= until) return false;
    if (idle_ == nullptr || !idle_->step()) std::this_thread::yield();
  }
}

WorkPool::WorkPool(int threads, std::shared_ptr<IdleWork> idle) : idle_(std::move(idle)) {
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { work(); });
}

WorkPool::~WorkPool() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
    generation_.fetch_add(1);
  }
  wake_.notify_all();
  for (auto& w : workers_) w.join();
}

void WorkPool::run(std::size_t count, const std::function<void(std::size_t)>& task) {
  if (count == 0) return;
  // (Indices live in 32 bits: a count beyond them, never met in a sweep, runs here too.)
  if (workers_.empty() || count == 1 || t_in_task || count >= (std::uint64_t{1} << 31)) {
    for (std::size_t i = 0; i < count; ++i) task(i);
    return;
  }
  std::lock_guard serial(run_mutex_);
  {
    std::lock_guard lock(mutex_);
    // A worker still leaving the previous run may take an index as soon as the ticket is reset,
    // so everything it reads is in place before that.
    task_.store(&task);
    error_ = nullptr;
    unfinished_.store(count);
    const std::uint64_t number = ++runs_;
    run_.store(number << 32 | count);
    ticket_.store(number << 32);
    generation_.fetch_add(1);
  }
  wake_.notify_all();
  drain();
  poll([this] { return unfinished_.load(std::memory_order_acquire) == 0; });
  std::unique_lock lock(mutex_);
  done_.wait(lock, [this] { return unfinished_.load() == 0; });
  task_.store(nullptr);
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

void WorkPool::drain() {
  for (;;) {
    // The ticket names the run the index belongs to: an index of a run other than the current
    // one (a look after its end, the next run not begun) or beyond its count ends the drain. A
    // valid index keeps its run from finishing, so run_ and task_ are still that run's here.
    const std::uint64_t ticket = ticket_.fetch_add(1);
    const std::uint64_t run = run_.load();
    if ((ticket >> 32) != (run >> 32)) return;
    const std::size_t i = ticket & 0xffffffffu;
    if (i >= (run & 0xffffffffu)) return;
    try {
      InTask mark;
      (*task_.load())(i);
    } catch (...) {
      std::lock_guard lock(mutex_);
      if (!error_) error_ = std::current_exception();
    }
    if (unfinished_.fetch_sub(1) == 1) {
      std::lock_guard lock(mutex_);  // the caller may be between its check and its wait
      done_.notify_all();
    }
  }
}

bool WorkPool::wait_for(std::uint64_t seen) {
  poll([&] { return generation_.load(std::memory_order_acquire) != seen; });
  std::unique_lock lock(mutex_);
  wake_.wait(lock, [&] { return generation_.load() != seen; });
  return !stop_;
}

void WorkPool::work() {
  std::uint64_t seen = 0;
  for (;;) {
    if (!wait_for(seen)) return;
    {
      std::lock_guard lock(mutex_);
      seen = generation_.load();
      if (stop_) return;
      if (task_.load() == nullptr) continue;  // a run that finished before this worker woke
    }
    drain();
  }
}

}  // namespace srcc
