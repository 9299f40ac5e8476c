// The CPU backend's thread pool: every task runs once, errors come back, nested and concurrent
// calls are safe.
#include "srcc/backend/cpu/work_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

namespace srcc {
namespace {

TEST(WorkPool, RunsEveryTaskOnceAndUsesItsThreads) {
  WorkPool pool(3);
  EXPECT_EQ(pool.threads(), 3);
  for (std::size_t count : {1u, 2u, 3u, 7u, 1000u}) {
    std::vector<std::atomic<int>> hits(count);
    pool.run(count, [&](std::size_t i) { hits[i].fetch_add(1); });
    for (std::size_t i = 0; i < count; ++i) EXPECT_EQ(hits[i].load(), 1) << count << " tasks, task " << i;
  }
  // Tasks that wait for each other only finish when they run on different threads at once.
  std::atomic<int> arrived{0};
  pool.run(3, [&](std::size_t) {
    arrived.fetch_add(1);
    while (arrived.load() < 3) std::this_thread::yield();
  });
  EXPECT_EQ(arrived.load(), 3);
}

TEST(WorkPool, RethrowsTheFirstErrorAfterTheOtherTasksRan) {
  WorkPool pool(2);
  std::atomic<int> ran{0};
  EXPECT_THROW(pool.run(50,
                        [&](std::size_t i) {
                          ran.fetch_add(1);
                          if (i % 10 == 3) throw std::runtime_error("task " + std::to_string(i));
                        }),
               std::runtime_error);
  EXPECT_EQ(ran.load(), 50);
  // The pool is still usable.
  std::atomic<int> again{0};
  pool.run(10, [&](std::size_t) { again.fetch_add(1); });
  EXPECT_EQ(again.load(), 10);
}

TEST(WorkPool, NestedCallsRunOnTheTasksThread) {
  WorkPool pool(2);
  std::atomic<int> inner{0}, foreign{0};
  pool.run(4, [&](std::size_t) {
    const auto me = std::this_thread::get_id();
    pool.run(5, [&](std::size_t) {
      inner.fetch_add(1);
      if (std::this_thread::get_id() != me) foreign.fetch_add(1);
    });
  });
  EXPECT_EQ(inner.load(), 20);
  EXPECT_EQ(foreign.load(), 0);
}

TEST(WorkPool, CallersOnSeveralThreadsAreServedInTurn) {
  WorkPool pool(3);
  std::atomic<long> sum{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < 4; ++c)
    callers.emplace_back([&] {
      for (int r = 0; r < 50; ++r) pool.run(20, [&](std::size_t i) { sum.fetch_add(static_cast<long>(i)); });
    });
  for (auto& t : callers) t.join();
  EXPECT_EQ(sum.load(), 4L * 50 * (19 * 20 / 2));
}

// Runs back to back, a short one before a long one: a worker still leaving a run (its last look
// for an index) must neither take an index of the next run as one of its own run's — the index
// would run twice and the count of unfinished tasks wrap, leaving the caller waiting for ever —
// nor make the next run lose one. Every task of every run runs exactly once.
TEST(WorkPool, BackToBackRunsRunEveryTaskExactlyOnce) {
  WorkPool pool(3);
  std::vector<std::atomic<int>> hits(64);
  for (int r = 0; r < 20000; ++r) {
    const std::size_t count = r % 2 == 0 ? 2 : 64;
    for (std::size_t i = 0; i < count; ++i) hits[i].store(0, std::memory_order_relaxed);
    pool.run(count, [&](std::size_t i) { hits[i].fetch_add(1, std::memory_order_relaxed); });
    for (std::size_t i = 0; i < count; ++i)
      ASSERT_EQ(hits[i].load(), 1) << "run " << r << " of " << count << " tasks, task " << i;
  }
}

TEST(WorkPool, OneThreadRunsInlineInOrder) {
  WorkPool pool(1);
  std::vector<std::size_t> order;
  pool.run(5, [&](std::size_t i) { order.push_back(i); });
  EXPECT_EQ(order, (std::vector<std::size_t>{0, 1, 2, 3, 4}));
}

}  // namespace
}  // namespace srcc
