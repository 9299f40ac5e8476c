#pragma once
// A stand-in device whose memory the host cannot touch, as a GPU's cannot be: every buffer its
// kernels hand out lies in one arena of address space that is readable and writable only while
// one of its kernels runs (mprotect), so code that reads or writes a buffer's elements on the
// host instead of through the kernels stops with SIGSEGV at that line (a debugger's backtrace
// names it). The arithmetic is the CPU's on one thread; GEMM chains go through the grouping a GPU
// uses (backend/gemm_groups.hpp). Tests size their runs to the arena.
#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "srcc/backend/backend.hpp"
#include "srcc/backend/cpu/cpu_backend.hpp"
#include "srcc/backend/gemm_groups.hpp"
#include "forwarding_kernels.hpp"

namespace srcc::test {

// The address space the stand-in's buffers live in: reserved once, handed out in 64-byte
// aligned pieces, a freed piece reused for the next request of exactly its size.
class GuardedArena {
 public:
  explicit GuardedArena(std::size_t bytes) : bytes_(bytes) {
    base_ = static_cast<char*>(mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
    if (base_ == MAP_FAILED) throw std::runtime_error("guarded arena: mmap failed");
  }
  ~GuardedArena() { munmap(base_, bytes_); }
  GuardedArena(const GuardedArena&) = delete;
  GuardedArena& operator=(const GuardedArena&) = delete;

  void* take(std::size_t bytes) {
    bytes = (std::max<std::size_t>(bytes, 1) + 63) / 64 * 64;
    const std::lock_guard<std::recursive_mutex> lock(mutex_);
    auto it = free_.find(bytes);
    if (it != free_.end()) {
      void* p = it->second;
      free_.erase(it);
      return p;
    }
    if (used_ + bytes > bytes_) throw std::runtime_error("guarded arena: full (" + std::to_string(bytes_) + " bytes)");
    void* p = base_ + used_;
    used_ += bytes;
    return p;
  }
  void give(void* p, std::size_t bytes) {
    const std::lock_guard<std::recursive_mutex> lock(mutex_);
    free_.emplace((std::max<std::size_t>(bytes, 1) + 63) / 64 * 64, p);
  }
  // The arena open to the host while a kernel (or a copy in or out) runs; calls nest, and one
  // thread at a time is inside.
  void open() {
    mutex_.lock();
    if (depth_++ == 0 && mprotect(base_, bytes_, PROT_READ | PROT_WRITE) != 0) {
      --depth_;
      mutex_.unlock();
      throw std::runtime_error("guarded arena: mprotect failed");
    }
  }
  void close() {
    if (--depth_ == 0) mprotect(base_, bytes_, PROT_NONE);
    mutex_.unlock();
  }

 private:
  char* base_ = nullptr;
  std::size_t bytes_, used_ = 0;
  std::multimap<std::size_t, void*> free_;
  std::recursive_mutex mutex_;
  int depth_ = 0;
};

template <class T> class GuardedKernels final : public ForwardingKernels<T> {
 public:
  GuardedKernels(const std::shared_ptr<Backend>& cpu, const std::shared_ptr<GuardedArena>& arena)
      : ForwardingKernels<T>(cpu->kernels<T>()), cpu_(cpu), arena_(arena) {}
  Buffer<T> allocate(std::size_t n) override {
    const std::size_t bytes = n * sizeof(T);
    auto arena = arena_;
    return Buffer<T>(std::shared_ptr<T>(static_cast<T*>(arena->take(bytes)), [arena, bytes](T* p) { arena->give(p, bytes); }),
                     n);
  }
  Buffer<T> adopt(std::vector<T>&& host, CopyClock* /*clock*/) override {
    Buffer<T> b = allocate(host.size());
    const typename ForwardingKernels<T>::Inside inside(*this);
    std::memcpy(static_cast<void*>(b.data()), host.data(), host.size() * sizeof(T));
    return b;
  }
  std::vector<T> download(const Buffer<T>& b, std::size_t n, CopyClock* /*clock*/, const QueuePoint& /*after*/) override {
    std::vector<T> out(n);
    const typename ForwardingKernels<T>::Inside inside(*this);
    std::memcpy(static_cast<void*>(out.data()), b.data(), n * sizeof(T));
    return out;
  }
  bool moves_data() const override { return true; }
  // As the CUDA backend issues them: in waves of groups, here one GEMM per matrix of a group.
  void gemm_chains(const std::vector<std::vector<GemmCall<T>>>& chains) override {
    for (const auto& wave : gemm_waves(chains))
      for (const GemmGroup<T>& g : wave)
        for (std::size_t i = 0; i < g.c.size(); ++i) this->gemm(g.op_a, g.op_b, g.m, g.n, g.k, T(1), g.a[i], g.lda, 0, g.b[i], g.ldb, 0, g.beta, g.c[i], g.ldc, 0, 1);
  }

 protected:
  void enter() override { arena_->open(); }
  void leave() override { arena_->close(); }

 private:
  std::shared_ptr<Backend> cpu_;  // owns the kernels forwarded to
  std::shared_ptr<GuardedArena> arena_;
};

class GuardedDevice final : public BackendOf<GuardedKernels> {
 public:
  explicit GuardedDevice(std::size_t arena_bytes = std::size_t{256} << 20)
      : GuardedDevice(std::make_shared<GuardedArena>(arena_bytes)) {}
  std::string name() const override { return "guarded:0"; }
  std::string library_info() const override { return "CPU kernels on memory the host cannot touch"; }
  std::size_t memory_budget() const override { return std::size_t{1} << 30; }

 private:
  explicit GuardedDevice(const std::shared_ptr<GuardedArena>& arena)
      : BackendOf<GuardedKernels>(std::shared_ptr<Backend>(make_cpu_backend(1)), arena) {}
};

}  // namespace srcc::test
