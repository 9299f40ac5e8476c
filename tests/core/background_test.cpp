// The background thread the sweep spills through (movement/background.hpp).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "srcc/core/background.hpp"

namespace srcc {
namespace {

TEST(Background, RunsTasksInOrderAndWaitReturnsWhenAllAreDone) {
  Background bg;
  std::vector<int> order;
  for (int i = 0; i < 5; ++i)
    bg.post([&order, i] {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      order.push_back(i);
    });
  bg.wait();
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3, 4}));
  bg.wait();  // idle: returns at once
}

TEST(Background, TheFirstErrorComesBackFromWaitAndLaterTasksAreSkipped) {
  Background bg;
  std::atomic<int> ran{0};
  bg.post([&] { ++ran; });
  bg.post([] { throw std::runtime_error("disk full"); });
  bg.post([&] { ++ran; });  // skipped: an earlier task failed
  try {
    bg.wait();
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "disk full");
  }
  EXPECT_EQ(ran.load(), 1);
  // The error is reported once; the thread takes work again afterwards.
  bg.post([&] { ++ran; });
  EXPECT_NO_THROW(bg.wait());
  EXPECT_EQ(ran.load(), 2);
}

TEST(Background, DestructionFinishesWhatWasPosted) {
  std::atomic<int> ran{0};
  {
    Background bg;
    for (int i = 0; i < 3; ++i)
      bg.post([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        ++ran;
      });
  }
  EXPECT_EQ(ran.load(), 3);
}

}  // namespace
}  // namespace srcc
