#pragma once
// One background thread that runs posted tasks in order: what the sweep hands off so that it
// can queue the next step meanwhile (spilling an environment off the device). The first
// error a task throws is kept and rethrown by the next wait(); later tasks are skipped.
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

namespace srcc {

class Background {
 public:
  Background() = default;
  ~Background() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
  }
  Background(const Background&) = delete;
  Background& operator=(const Background&) = delete;

  void post(std::function<void()> task) {
    {
      std::lock_guard lock(mutex_);
      if (!thread_.joinable()) thread_ = std::thread([this] { loop(); });
      tasks_.push_back(std::move(task));
    }
    wake_.notify_all();
  }

  // Blocks until every posted task has finished; rethrows the first error.
  void wait() {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [this] { return tasks_.empty() && !busy_; });
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  }

 private:
  void loop() {
    std::unique_lock lock(mutex_);
    for (;;) {
      wake_.wait(lock, [this] { return stop_ || !tasks_.empty(); });
      if (tasks_.empty()) return;  // stopping, nothing left
      auto task = std::move(tasks_.front());
      tasks_.pop_front();
      busy_ = true;
      const bool skip = error_ != nullptr;
      lock.unlock();
      std::exception_ptr error;
      if (!skip) {
        try {
          task();
        } catch (...) {
          error = std::current_exception();
        }
      }
      task = nullptr;  // release what the task held before reporting it done
      lock.lock();
      if (error && !error_) error_ = error;
      busy_ = false;
      idle_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_, idle_;
  std::deque<std::function<void()>> tasks_;
  bool busy_ = false, stop_ = false;
  std::exception_ptr error_;
  std::thread thread_;
};

}  // namespace srcc
