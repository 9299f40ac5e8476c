// The page warmer: it faults in every page of its region, changes no byte of it (also while
// another thread writes there), stops when withdrawn, and is stepped by a waiting pool thread.
#include "srcc/backend/cpu/page_warmer.hpp"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "srcc/backend/cpu/work_pool.hpp"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

namespace srcc {
namespace {

const std::size_t kPage = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));

// Fresh anonymous memory, unmapped at the end of the test.
class Mapping {
 public:
  explicit Mapping(std::size_t bytes) : bytes_(bytes) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    p_ = p == MAP_FAILED ? nullptr : static_cast<unsigned char*>(p);
  }
  ~Mapping() {
    if (p_ != nullptr) munmap(p_, bytes_);
  }
  unsigned char* data() const { return p_; }
  // Pages of the mapping that are in memory.
  std::size_t resident_pages() const {
    std::vector<unsigned char> in((bytes_ + kPage - 1) / kPage);
    if (mincore(p_, bytes_, in.data()) != 0) return 0;
    std::size_t n = 0;
    for (unsigned char v : in) n += v & 1;
    return n;
  }

 private:
  unsigned char* p_ = nullptr;
  std::size_t bytes_;
};

bool kernel_populates() {
  Mapping m(kPage);
  return m.data() != nullptr && madvise(m.data(), kPage, MADV_POPULATE_WRITE) == 0;
}

TEST(PageWarmer, FaultsInTheWholeRegionAndKeepsItsContents) {
  if (!kernel_populates()) GTEST_SKIP() << "this kernel has no MADV_POPULATE_WRITE (Linux < 5.14)";
  const std::size_t pages = 100, bytes = pages * kPage;
  Mapping m(bytes);
  ASSERT_NE(m.data(), nullptr);
  // Three pages already written: their bytes must stay.
  for (std::size_t p : {0u, 37u, 99u}) std::memset(m.data() + p * kPage, 0x5a, kPage);
  ASSERT_EQ(m.resident_pages(), 3u);
  PageWarmer warmer;
  // A region that starts and ends inside pages: those whole pages are warmed.
  warmer.start(m.data() + 100, bytes - 200);
  std::size_t steps = 0;
  while (warmer.step()) ++steps;
  EXPECT_EQ(steps, (bytes + PageWarmer::kChunkBytes - 1) / PageWarmer::kChunkBytes);
  EXPECT_EQ(m.resident_pages(), pages);
  EXPECT_EQ(warmer.populated(), bytes);
  for (std::size_t p = 0; p < pages; ++p) {
    const unsigned char want = (p == 0 || p == 37 || p == 99) ? 0x5a : 0;
    for (std::size_t i = 0; i < kPage; i += 512)
      ASSERT_EQ(m.data()[p * kPage + i], want) << "page " << p;
  }
  EXPECT_FALSE(warmer.step());  // nothing left
}

TEST(PageWarmer, StopsWhenWithdrawnOrReplaced) {
  if (!kernel_populates()) GTEST_SKIP() << "this kernel has no MADV_POPULATE_WRITE (Linux < 5.14)";
  const std::size_t bytes = 64 * kPage;
  Mapping a(bytes), b(bytes);
  PageWarmer warmer;
  EXPECT_FALSE(warmer.step());  // no region yet
  warmer.start(a.data(), bytes);
  ASSERT_TRUE(warmer.step());
  warmer.stop();
  EXPECT_FALSE(warmer.step());
  EXPECT_EQ(a.resident_pages(), PageWarmer::kChunkBytes / kPage);
  // A new region replaces the old one: only it is warmed from then on.
  warmer.start(a.data(), bytes);
  warmer.start(b.data(), bytes);
  while (warmer.step()) {
  }
  EXPECT_EQ(b.resident_pages(), bytes / kPage);
  EXPECT_EQ(a.resident_pages(), PageWarmer::kChunkBytes / kPage);
}

TEST(PageWarmer, LeavesWhatAnotherThreadWritesMeanwhile) {
  if (!kernel_populates()) GTEST_SKIP() << "this kernel has no MADV_POPULATE_WRITE (Linux < 5.14)";
  const std::size_t words = 4096 * kPage / sizeof(std::uint64_t);
  Mapping m(words * sizeof(std::uint64_t));
  auto* w = reinterpret_cast<std::uint64_t*>(m.data());
  PageWarmer warmer;
  warmer.start(w, words * sizeof(std::uint64_t));
  std::thread writer([&] {
    for (std::size_t i = 0; i < words; ++i) w[i] = i * 2654435761u + 1;
  });
  while (warmer.step()) {
  }
  writer.join();
  for (std::size_t i = 0; i < words; ++i) ASSERT_EQ(w[i], i * 2654435761u + 1) << "word " << i;
}

TEST(PageWarmer, AWaitingPoolThreadStepsIt) {
  if (!kernel_populates()) GTEST_SKIP() << "this kernel has no MADV_POPULATE_WRITE (Linux < 5.14)";
  // A waiting thread steps the warmer only while it polls (about a millisecond) before it
  // sleeps: a region small enough to fault in within that on a slow virtual machine (256 pages
  // took longer there).
  const std::size_t bytes = 16 * kPage;
  Mapping m(bytes);
  auto warmer = std::make_shared<PageWarmer>();
  WorkPool pool(2, warmer);
  warmer->start(m.data(), bytes);
  // Task 0 holds the run open until the region is warm: only the thread that finished task 1,
  // waiting for the run's end or for new work, can have warmed it.
  std::atomic<bool> warm{false};
  pool.run(2, [&](std::size_t i) {
    if (i == 1) return;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (warmer->populated() < bytes && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    warm = warmer->populated() == bytes;
  });
  EXPECT_TRUE(warm.load());
  EXPECT_EQ(m.resident_pages(), bytes / kPage);
  warmer->stop();
}

}  // namespace
}  // namespace srcc
