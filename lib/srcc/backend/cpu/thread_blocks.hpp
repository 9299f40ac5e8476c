#pragma once
// A few freed medium-sized heap blocks (16 KiB up to the mmap pool's size) kept by the thread
// that freed them and handed back to it by exact size. The sweep allocates the same
// intermediates at every site (the left step's V and E on each thread, the right step's
// sketch, S and Q): from the C heap each one went through malloc's large-block bins, and the
// heap, fragmented by the results kept in between, kept growing into fresh pages; a kept block
// is also still in the thread's cache (docs/PERFORMANCE.md, "Memory", has the measurement).
//
// A thread keeps at most kSlots blocks, each smaller than the pool's blocks (CpuKernels sends
// only those here): under 1 MiB a thread, about what its tasks hold at once anyway. Its blocks
// are freed when it exits.
#include <cstddef>
#include <new>

namespace srcc {

class ThreadBlocks {
 public:
  static constexpr std::size_t kMinBytes = std::size_t{16} << 10;
  static constexpr std::align_val_t kAlign{64};

  // A block of `bytes` (64-byte aligned, uninitialised): one this thread kept, or a new one.
  static void* take(std::size_t bytes) {
    if (gone()) return ::operator new(bytes, kAlign);
    Slots& s = slots();
    for (std::size_t i = 0; i < kSlots; ++i)
      if (s.block[i] != nullptr && s.bytes[i] == bytes) {
        void* p = s.block[i];
        s.block[i] = nullptr;
        s.held -= bytes;
        return p;
      }
    return ::operator new(bytes, kAlign);
  }

  // Keeps a block from take() for this thread, or frees it when all slots are taken.
  static void give(void* p, std::size_t bytes) {
    if (gone()) return ::operator delete(p, kAlign);
    Slots& s = slots();
    for (std::size_t i = 0; i < kSlots; ++i)
      if (s.block[i] == nullptr) {
        s.block[i] = p;
        s.bytes[i] = bytes;
        s.held += bytes;
        return;
      }
    ::operator delete(p, kAlign);
  }

  // Bytes this thread keeps.
  static std::size_t held() { return gone() ? 0 : slots().held; }

 private:
  static constexpr std::size_t kSlots = 4;
  struct Slots {
    void* block[kSlots] = {};
    std::size_t bytes[kSlots] = {};
    std::size_t held = 0;
    ~Slots() {
      for (void* p : block)
        if (p != nullptr) ::operator delete(p, kAlign);
      gone() = true;
    }
  };
  // Set once this thread's slots are destroyed (at its exit): a block freed after that, by an
  // object destroyed later in the thread's exit, goes straight back to the heap. A plain bool
  // has no destructor, so it outlives the slots.
  static bool& gone() {
    thread_local bool g = false;
    return g;
  }
  static Slots& slots() {
    thread_local Slots s;
    return s;
  }
};

}  // namespace srcc
