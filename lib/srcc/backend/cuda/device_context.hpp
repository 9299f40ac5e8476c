#pragma once
// One CUDA device as the backend drives it. A compute stream runs cuBLAS, cuSOLVER and the
// element-wise kernels in order; two copy streams, one per direction, run host -> device and
// device -> host moves beside it (the DMA engines work both ways at once). Host data passes
// through page-locked staging buffers, two per direction used in turn (the host fills one while
// the DMA engine drains the other), and every move is timed with CUDA events on its stream.
//
// Ordering between the streams, which is what makes this safe:
//  - an upload starts once the compute that last used its destination block is over (an event
//    recorded when the block was released to the pool), not after all queued compute, so an
//    upload issued while the device works runs beside that work;
//  - a download starts after all compute queued before it, or before a mark(), and after any
//    upload still filling its source;
//  - compute waits for an upload only when it first touches the uploaded memory (`await`), or
//    when that memory is released.
// Locks: each direction's staging is held for a whole move; the bookkeeping of uploads in flight
// and released blocks only briefly, so a thread spilling to the host never stalls the thread
// that queues compute.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <array>
#include <atomic>
#include <map>
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "srcc/backend/backend.hpp"
#include "srcc/backend/block_cache.hpp"
#include "srcc/memory/policy.hpp"

namespace srcc::cuda {

// Start and end events of one move on the copy stream.
struct MoveEvents;

class DeviceContext {
 public:
  // budget = 0: no limit on device memory.
  DeviceContext(int device, std::size_t budget);
  ~DeviceContext();
  DeviceContext(const DeviceContext&) = delete;
  DeviceContext& operator=(const DeviceContext&) = delete;

  int device() const { return device_; }
  cublasHandle_t blas() const { return blas_; }
  cusolverDnHandle_t solver() const { return solver_; }
  cudaStream_t compute() const { return compute_; }
  // Several devices may be driven from one thread: every entry point selects its own.
  void use() const;

  // Device memory within the budget (ResourceError naming the bytes beyond it).
  void* allocate(std::size_t bytes);
  void release(void* p, std::size_t bytes);
  std::size_t peak() const { return peak_.load(); }

  // Queues a copy of `bytes` from host memory to `dst` on the copy stream and returns once the
  // host memory is no longer needed (all of it staged). Compute touching `dst` later waits for
  // it through await().
  CopyClock upload(void* dst, const void* src, std::size_t bytes);
  // Copies `bytes` from `src` to host memory after all compute queued so far, or after the
  // compute queued before `after` (a mark()); returns when the data is there.
  CopyClock download(void* dst, const void* src, std::size_t bytes, const QueuePoint& after);
  // The compute queued so far, as an event a later download can wait for.
  QueuePoint mark();
  // Makes the compute stream wait for an upload still in flight into memory holding `p`.
  void await(const void* p);
  // Blocks until the compute stream has finished everything queued.
  void finish_compute();

 private:
  struct Slot {
    void* host = nullptr;       // page-locked, kStageBytes
    cudaEvent_t free = nullptr;  // recorded after the last DMA that used the slot
  };
  // One direction of moves: its stream and staging buffers, used by one move at a time.
  struct Lane {
    cudaStream_t stream = nullptr;
    std::array<Slot, 2> slots{};
    std::size_t turn = 0;
    std::mutex mutex;
  };
  // An uploaded block, until it is released: compute waits for the upload once, downloads
  // from it wait too (whichever comes first).
  struct InFlight {
    const char* begin;
    std::size_t bytes;
    std::shared_ptr<MoveEvents> events;
    bool compute_waits = false;  // the compute stream already waits for it
  };
  static constexpr std::size_t kStageBytes = memory::kStagingBytesPerDevice / 4;  // the plan counts all four

  Slot& next_slot(Lane& lane);
  void wait_for(InFlight& f);
  void note_live(std::size_t live);

  int device_;
  std::size_t budget_;
  cudaStream_t compute_ = nullptr;
  Lane up_, down_;
  cublasHandle_t blas_ = nullptr;
  cusolverDnHandle_t solver_ = nullptr;
  cudaEvent_t compute_tail_ = nullptr;  // used under down_.mutex
  std::mutex books_;                    // the two containers below
  std::vector<InFlight> uploads_;       // uploaded blocks not yet released
  std::map<const void*, cudaEvent_t> released_;  // block -> end of its last compute use
  std::atomic<std::size_t> live_{0}, peak_{0};
  std::unique_ptr<BlockCache> cache_;  // freed blocks for reuse, within the budget
};

}  // namespace srcc::cuda
