// Ranks over MPI (see ranks.hpp). Exchanges are non-blocking collectives, tested in a loop that
// calls the caller's wait check between tests, so that a rank waiting for another notices a
// SIGTERM; the loop spins briefly, then sleeps in short steps so that a rank waiting long for a
// slower one leaves its cores to the others.
// The C interface only: Open MPI 4 otherwise pulls its deprecated C++ bindings into C++ code.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <climits>
#include <cstdio>
#include <thread>

#include "srcc/core/error.hpp"
#include "srcc/parallel/mpi_module.hpp"
#include "srcc/parallel/ranks.hpp"

namespace srcc {

namespace {

void wait_for(MPI_Request& request, const WaitCheck& wait) {
  int done = 0;
  for (long spins = 0; !done; ++spins) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) break;
    wait();
    if (spins > 2000) std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

int count_of(std::size_t bytes) {
  if (bytes > static_cast<std::size_t>(INT_MAX))
    throw ResourceError("an exchange between ranks of " + std::to_string(bytes) +
                        " bytes is beyond MPI's int count; use fewer terms per rank or a smaller sketch");
  return static_cast<int>(bytes);
}

class MpiRanks final : public Ranks {
 public:
  MpiRanks(MPI_Comm comm, bool owned) : comm_(comm), owned_(owned) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
    MPI_Comm node;
    MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &local_);
    MPI_Comm_free(&node);
  }
  ~MpiRanks() override {
    if (owned_) MPI_Comm_free(&comm_);
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int local_size() const override { return local_; }

  std::vector<std::byte> all_gather(const void* mine, std::size_t bytes, std::vector<std::size_t>& sizes,
                                    const WaitCheck& wait) override {
    std::vector<unsigned long long> counts(size_);
    unsigned long long own = bytes;
    MPI_Request r;
    MPI_Iallgather(&own, 1, MPI_UNSIGNED_LONG_LONG, counts.data(), 1, MPI_UNSIGNED_LONG_LONG, comm_, &r);
    wait_for(r, wait);
    std::size_t total = 0;
    sizes.resize(size_);
    for (int i = 0; i < size_; ++i) {
      sizes[i] = counts[i];
      total += counts[i];
    }
    std::vector<std::byte> out(total);
    all_gather_known(mine, out.data(), sizes, wait);
    return out;
  }

  void all_gather_known(const void* mine, void* out, const std::vector<std::size_t>& bytes_of,
                        const WaitCheck& wait) override {
    std::vector<int> n(size_), offset(size_);
    std::size_t total = 0;
    for (int i = 0; i < size_; ++i) {
      n[i] = count_of(bytes_of[i]);
      offset[i] = count_of(total);
      total += bytes_of[i];
    }
    count_of(total);
    MPI_Request r;
    MPI_Iallgatherv(mine, n[rank_], MPI_BYTE, out, n.data(), offset.data(), MPI_BYTE, comm_, &r);
    wait_for(r, wait);
  }

  void broadcast(void* data, std::size_t bytes, int root, const WaitCheck& wait) override {
    MPI_Request r;
    MPI_Ibcast(data, count_of(bytes), MPI_BYTE, root, comm_, &r);
    wait_for(r, wait);
  }

  std::unique_ptr<Ranks> first(int count) override {
    MPI_Comm part;
    MPI_Comm_split(comm_, rank_ < count ? 0 : MPI_UNDEFINED, rank_, &part);
    if (part == MPI_COMM_NULL) return nullptr;
    return std::make_unique<MpiRanks>(part, true);
  }

  [[noreturn]] void abort(int code) override {
    std::fflush(nullptr);
    MPI_Abort(MPI_COMM_WORLD, code);
    std::_Exit(code);  // not reached
  }

 private:
  MPI_Comm comm_;
  bool owned_;
  int rank_ = 0, size_ = 1, local_ = 1;
};

Ranks* world(std::string& error) {
  int provided = 0;
  // Exchanges happen on the thread that called MPI_Init (the sweep's own); the work pool's
  // threads never call MPI.
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
    error = "MPI_Init_thread failed";
    return nullptr;
  }
  static MpiRanks ranks(MPI_COMM_WORLD, false);
  return &ranks;
}

void finish() {
  int done = 0;
  MPI_Finalized(&done);
  if (!done) MPI_Finalize();
}

const MpiModule module{world, finish};

}  // namespace

}  // namespace srcc

extern "C" __attribute__((visibility("default"))) const srcc::MpiModule* srcc_mpi_module() { return &srcc::module; }
