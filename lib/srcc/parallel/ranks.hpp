#pragma once
// The processes of one run. A plain start is one rank. Started by an MPI launcher (mpirun,
// mpiexec, srun --mpi=pmix|pmi2: told apart by the variables the launcher sets), the process
// loads the MPI module (libsrcc_mpi.so, built where CMake finds MPI) and its ranks are
// MPI_COMM_WORLD's; a plain start never loads MPI, so it starts as fast as without.
//
// Exchanges take a `wait` callback that is called while the exchange is in flight: it may throw
// (a SIGTERM's InterruptedError), so that a rank waiting for another still stops cleanly.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace srcc {

using WaitCheck = std::function<void()>;

class Ranks {
 public:
  virtual ~Ranks() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Ranks of this group on this rank's node (they share its cores and memory).
  virtual int local_size() const = 0;
  // Every rank's `bytes` of `mine`, concatenated in rank order, on every rank; `sizes` gets
  // each rank's count.
  virtual std::vector<std::byte> all_gather(const void* mine, std::size_t bytes, std::vector<std::size_t>& sizes,
                                            const WaitCheck& wait) = 0;
  // The same where every rank's count is known beforehand (`bytes_of[r]`, the same list on
  // every rank): straight into `out`, which holds their sum; no exchange of the counts.
  virtual void all_gather_known(const void* mine, void* out, const std::vector<std::size_t>& bytes_of,
                                const WaitCheck& wait) = 0;
  // Root's `bytes` of `data` on every rank (every rank passes the same count).
  virtual void broadcast(void* data, std::size_t bytes, int root, const WaitCheck& wait) = 0;
  // The ranks below `count` as a group of their own; null on the others. Every rank calls it.
  virtual std::unique_ptr<Ranks> first(int count) = 0;
  // Ends every rank of the run with exit status `code`: for a failure the others cannot learn
  // of at an exchange (they may be waiting in one).
  [[noreturn]] virtual void abort(int code) = 0;

  // One value from every rank, in rank order.
  template <class V> std::vector<V> gather_values(const V& v, const WaitCheck& wait) {
    std::vector<std::size_t> sizes;
    const auto bytes = all_gather(&v, sizeof(V), sizes, wait);
    std::vector<V> out(sizes.size());
    std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
  }
  // Root's vector (its size too) on every rank.
  template <class V> void broadcast_vector(std::vector<V>& v, int root, const WaitCheck& wait) {
    std::uint64_t n = v.size();
    broadcast(&n, sizeof n, root, wait);
    v.resize(n);
    broadcast(v.data(), n * sizeof(V), root, wait);
  }
};

// The run's ranks: MPI_COMM_WORLD when an MPI launcher started the process, else one rank.
// The first call loads and initialises MPI; it throws BackendError when a launcher started a
// build without the module (naming what was looked for).
Ranks& world_ranks();
// Whether the environment is an MPI launcher's (the variables it sets; no MPI call).
bool launched_by_mpi();

// How a command ends on every rank (app/main.cpp). Before the ranks share work, a failure on any
// rank is learnt by all at the next agreement: end_together and checkpoint are the same
// exchange, so a rank that failed while setting up and one that reached the checkpoint meet.
// While they share work (a Lockstep), the others may be waiting in an exchange for the failing
// rank: it reports and calls Ranks::abort, which ends all of them with its code.
struct RankEnding {
  int code = 0;         // the exit status every rank ends with
  bool report = false;  // whether this rank's own failure is the one to print
};
// Every rank calls it once, at the end of its command, with its own exit status (0: done).
// `report` prints this rank's failure; it runs before an abort. The largest status wins (ties:
// the lowest rank reports). After a failed checkpoint it returns at once.
RankEnding end_together(int code, const std::function<void()>& report);
// Every rank, before the ranks share work: throws (the agreed status's error kind) when any
// rank failed before it.
void checkpoint_ranks(const WaitCheck& wait);
// Ends MPI where it was started (once every rank agreed how to end).
void finish_ranks();
// A rank but the first, stopped by a signal, waits (at most `seconds`) before it ends: a launcher
// kills every rank as soon as one ends, and rank 0 may still be saving what a stop keeps
// (evolve's checkpoint). mpirun ends it when rank 0 is done; srun lets it run out the wait.
void linger_after_signal(double seconds);

// While one exists, the ranks are in lockstep (see end_together).
class Lockstep {
 public:
  Lockstep();
  ~Lockstep();
  Lockstep(const Lockstep&) = delete;
  Lockstep& operator=(const Lockstep&) = delete;

 private:
  int exceptions_;  // in flight when it began: one more at its end means a failure left it
};

}  // namespace srcc
