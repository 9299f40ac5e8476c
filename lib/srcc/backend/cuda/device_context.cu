#include "srcc/backend/cuda/device_context.hpp"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>

#include "srcc/backend/cuda/cuda_check.hpp"
#include "srcc/core/error.hpp"

namespace srcc::cuda {

struct MoveEvents {
  int device;
  cudaEvent_t start = nullptr, end = nullptr;
  explicit MoveEvents(int d) : device(d) {
    check_cuda(cudaEventCreate(&start), "cudaEventCreate");
    check_cuda(cudaEventCreate(&end), "cudaEventCreate");
  }
  ~MoveEvents() {
    cudaEventDestroy(start);
    cudaEventDestroy(end);
  }
  MoveEvents(const MoveEvents&) = delete;
  MoveEvents& operator=(const MoveEvents&) = delete;
};

// A mark(): an event recorded on the compute stream.
struct ComputeMark {
  cudaEvent_t done = nullptr;
  ~ComputeMark() {
    if (done) cudaEventDestroy(done);
  }
};

namespace {

CopyClock clock_of(std::shared_ptr<MoveEvents> ev) {
  return [ev = std::move(ev)]() -> double {
    check_cuda(cudaSetDevice(ev->device), "cudaSetDevice");
    check_cuda(cudaEventSynchronize(ev->end), "cudaEventSynchronize (copy timing)");
    float ms = 0;
    check_cuda(cudaEventElapsedTime(&ms, ev->start, ev->end), "cudaEventElapsedTime");
    return static_cast<double>(ms) / 1000.0;
  };
}

}  // namespace

DeviceContext::DeviceContext(int device, std::size_t budget) : device_(device), budget_(budget) {
  use();
  check_cuda(cudaStreamCreateWithFlags(&compute_, cudaStreamNonBlocking), "cudaStreamCreateWithFlags (compute)");
  check_cuda(cudaStreamCreateWithFlags(&up_.stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags (upload)");
  check_cuda(cudaStreamCreateWithFlags(&down_.stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags (download)");
  check_cuda(cudaEventCreateWithFlags(&compute_tail_, cudaEventDisableTiming), "cudaEventCreateWithFlags");
  check_cublas(cublasCreate(&blas_), "cublasCreate");
  check_cublas(cublasSetStream(blas_, compute_), "cublasSetStream");
  check_cusolver(cusolverDnCreate(&solver_), "cusolverDnCreate");
  check_cusolver(cusolverDnSetStream(solver_, compute_), "cusolverDnSetStream");
  // Freed blocks are kept for reuse up to the budget (without one, memory/policy.hpp's default).
  // A block is really freed only when the device is idle, so no queued kernel or copy can still
  // be using it.
  cache_ = std::make_unique<BlockCache>(budget > 0 ? budget : memory::kDeviceCacheDefaultBytes,
                                        [device](void* p, std::size_t) {
                                          note_failure(cudaSetDevice(device), "cudaSetDevice (freeing a block)");
                                          note_failure(cudaDeviceSynchronize(), "cudaDeviceSynchronize (freeing a block)");
                                          note_failure(cudaFree(p), "cudaFree");
                                        });
}

DeviceContext::~DeviceContext() {
  // Teardown runs on error paths too: release what can be released, report nothing.
  cudaSetDevice(device_);
  cudaDeviceSynchronize();
  uploads_.clear();
  cache_.reset();
  for (auto& [block, ev] : released_) cudaEventDestroy(ev);
  for (Lane* lane : {&up_, &down_}) {
    for (auto& s : lane->slots) {
      if (s.host) cudaFreeHost(s.host);
      if (s.free) cudaEventDestroy(s.free);
    }
    if (lane->stream) cudaStreamDestroy(lane->stream);
  }
  if (solver_) cusolverDnDestroy(solver_);
  if (blas_) cublasDestroy(blas_);
  if (compute_tail_) cudaEventDestroy(compute_tail_);
  if (compute_) cudaStreamDestroy(compute_);
}

void DeviceContext::use() const { check_cuda(cudaSetDevice(device_), "cudaSetDevice"); }

void DeviceContext::note_live(std::size_t live) {
  std::size_t old = peak_.load();
  while (live > old && !peak_.compare_exchange_weak(old, live)) {
  }
}

void* DeviceContext::allocate(std::size_t bytes) {
  if (void* p = cache_->take(bytes)) {
    note_live(live_ += bytes);
    return p;
  }
  const std::size_t live = live_.load();
  if (budget_ > 0 && live + cache_->cached() + bytes > budget_)
    cache_->shrink(budget_ > live + bytes ? budget_ - live - bytes : 0);
  if (budget_ > 0 && live + bytes > budget_)
    throw ResourceError("device memory: " + std::to_string(live + bytes) + " bytes needed on cuda:" +
                        std::to_string(device_) + ", --gpu-memory allows " + std::to_string(budget_));
  void* p = nullptr;
  cudaError_t e = cudaMalloc(&p, bytes);
  if (e == cudaErrorMemoryAllocation) {
    // Other processes may hold memory the default budget counted on: give back the cache and
    // try once more before reporting it as a budget problem.
    cudaGetLastError();
    cache_->shrink(0);
    e = cudaMalloc(&p, bytes);
    if (e == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      throw ResourceError("device memory: cudaMalloc of " + std::to_string(bytes) +
                          " bytes failed on cuda:" + std::to_string(device_) + " with " +
                          std::to_string(live) +
                          " bytes in use; lower --gpu-memory so that the plan spills more");
    }
  }
  check_cuda(e, "cudaMalloc");
  note_live(live_ += bytes);
  return p;
}

void DeviceContext::release(void* p, std::size_t bytes) {
  // Buffers of one device may be dropped by a thread working on another: events and stream
  // calls below must be made with this device current. Called from buffer deleters, also
  // while an error unwinds, so nothing here throws; a failure here is a failed device, which
  // the next checked call reports.
  note_failure(cudaSetDevice(device_), "cudaSetDevice (release)");
  {
    std::lock_guard lock(books_);
    // Memory an upload is still filling must not be handed out again before the upload ends:
    // from here on the compute stream (which every reuse is ordered after) waits for it.
    const char* c = static_cast<const char*>(p);
    for (auto it = uploads_.begin(); it != uploads_.end();) {
      if (it->begin < c + bytes && c < it->begin + it->bytes) {
        if (!it->compute_waits) note_failure(cudaStreamWaitEvent(compute_, it->events->end, 0), "cudaStreamWaitEvent (release)");
        it = uploads_.erase(it);
      } else {
        ++it;
      }
    }
    // Where the compute stream stands now: an upload into this block, once reused, waits for it.
    cudaEvent_t& ev = released_[p];
    if (!ev) note_failure(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming), "cudaEventCreateWithFlags (release)");
    if (ev) note_failure(cudaEventRecord(ev, compute_), "cudaEventRecord (release)");
  }
  live_ -= bytes;
  cache_->give(p, bytes);
}

DeviceContext::Slot& DeviceContext::next_slot(Lane& lane) {
  Slot& s = lane.slots[lane.turn++ % lane.slots.size()];
  if (!s.host) {
    check_cuda(cudaHostAlloc(&s.host, kStageBytes, cudaHostAllocDefault), "cudaHostAlloc (staging buffer)");
    check_cuda(cudaEventCreateWithFlags(&s.free, cudaEventDisableTiming), "cudaEventCreateWithFlags");
  }
  // The DMA that last used this slot has to be over before the host touches it again.
  check_cuda(cudaEventSynchronize(s.free), "cudaEventSynchronize (staging buffer)");
  return s;
}

void DeviceContext::wait_for(InFlight& f) {
  if (f.compute_waits) return;
  check_cuda(cudaStreamWaitEvent(compute_, f.events->end, 0), "cudaStreamWaitEvent");
  f.compute_waits = true;
}

CopyClock DeviceContext::upload(void* dst, const void* src, std::size_t bytes) {
  use();
  std::lock_guard lane_lock(up_.mutex);
  auto ev = std::make_shared<MoveEvents>(device_);
  {
    std::lock_guard lock(books_);
    if (auto it = released_.find(dst); it != released_.end())
      check_cuda(cudaStreamWaitEvent(up_.stream, it->second, 0), "cudaStreamWaitEvent");
  }
  check_cuda(cudaEventRecord(ev->start, up_.stream), "cudaEventRecord");
  const char* from = static_cast<const char*>(src);
  char* to = static_cast<char*>(dst);
  for (std::size_t off = 0; off < bytes; off += kStageBytes) {
    const std::size_t len = std::min(kStageBytes, bytes - off);
    Slot& s = next_slot(up_);
    std::memcpy(s.host, from + off, len);
    check_cuda(cudaMemcpyAsync(to + off, s.host, len, cudaMemcpyHostToDevice, up_.stream),
               "cudaMemcpyAsync (host to device)");
    check_cuda(cudaEventRecord(s.free, up_.stream), "cudaEventRecord");
  }
  check_cuda(cudaEventRecord(ev->end, up_.stream), "cudaEventRecord");
  if (bytes > 0) {
    std::lock_guard lock(books_);
    uploads_.push_back({static_cast<const char*>(dst), bytes, ev});
  }
  return clock_of(std::move(ev));
}

QueuePoint DeviceContext::mark() {
  use();
  auto m = std::make_shared<ComputeMark>();
  check_cuda(cudaEventCreateWithFlags(&m->done, cudaEventDisableTiming), "cudaEventCreateWithFlags");
  check_cuda(cudaEventRecord(m->done, compute_), "cudaEventRecord");
  return m;
}

CopyClock DeviceContext::download(void* dst, const void* src, std::size_t bytes,
                                  const QueuePoint& after) {
  use();
  std::lock_guard lane_lock(down_.mutex);
  auto ev = std::make_shared<MoveEvents>(device_);
  if (after) {
    const auto* m = static_cast<const ComputeMark*>(after.get());
    check_cuda(cudaStreamWaitEvent(down_.stream, m->done, 0), "cudaStreamWaitEvent");
  } else {
    check_cuda(cudaEventRecord(compute_tail_, compute_), "cudaEventRecord");
    check_cuda(cudaStreamWaitEvent(down_.stream, compute_tail_, 0), "cudaStreamWaitEvent");
  }
  {
    // Data uploaded and read back before any compute touched it: wait for the upload too.
    std::lock_guard lock(books_);
    const char* c = static_cast<const char*>(src);
    for (const auto& f : uploads_)
      if (f.begin < c + bytes && c < f.begin + f.bytes)
        check_cuda(cudaStreamWaitEvent(down_.stream, f.events->end, 0), "cudaStreamWaitEvent");
  }
  check_cuda(cudaEventRecord(ev->start, down_.stream), "cudaEventRecord");
  const char* from = static_cast<const char*>(src);
  char* to = static_cast<char*>(dst);
  struct Chunk {
    Slot* slot;
    std::size_t off, len;
  };
  // While the DMA engine fills one slot the host empties the other.
  auto drain = [&](const Chunk& c) {
    check_cuda(cudaEventSynchronize(c.slot->free), "cudaEventSynchronize (device to host)");
    std::memcpy(to + c.off, c.slot->host, c.len);
  };
  std::optional<Chunk> previous;
  for (std::size_t off = 0; off < bytes; off += kStageBytes) {
    const std::size_t len = std::min(kStageBytes, bytes - off);
    Slot& s = next_slot(down_);
    check_cuda(cudaMemcpyAsync(s.host, from + off, len, cudaMemcpyDeviceToHost, down_.stream),
               "cudaMemcpyAsync (device to host)");
    check_cuda(cudaEventRecord(s.free, down_.stream), "cudaEventRecord");
    if (previous) drain(*previous);
    previous = Chunk{&s, off, len};
  }
  check_cuda(cudaEventRecord(ev->end, down_.stream), "cudaEventRecord");
  if (previous) drain(*previous);
  return clock_of(std::move(ev));
}

void DeviceContext::await(const void* p) {
  if (!p) return;
  std::lock_guard lock(books_);
  if (uploads_.empty()) return;
  const char* c = static_cast<const char*>(p);
  for (auto& f : uploads_)
    if (c >= f.begin && c < f.begin + f.bytes) wait_for(f);
}

void DeviceContext::finish_compute() {
  check_cuda(cudaStreamSynchronize(compute_), "cudaStreamSynchronize (compute)");
}

}  // namespace srcc::cuda
