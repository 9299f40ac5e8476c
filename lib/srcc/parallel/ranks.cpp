#include "srcc/parallel/ranks.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>

#include "srcc/core/error.hpp"
#include "srcc/core/interrupt.hpp"
#include "srcc/core/module_path.hpp"
#include "srcc/parallel/mpi_module.hpp"

namespace srcc {

namespace {

// A plain start: one rank, nothing to exchange.
class SingleRank final : public Ranks {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  int local_size() const override { return 1; }
  std::vector<std::byte> all_gather(const void* mine, std::size_t bytes, std::vector<std::size_t>& sizes,
                                    const WaitCheck&) override {
    sizes = {bytes};
    const auto* p = static_cast<const std::byte*>(mine);
    return std::vector<std::byte>(p, p + bytes);
  }
  void all_gather_known(const void* mine, void* out, const std::vector<std::size_t>& bytes_of,
                        const WaitCheck&) override {
    if (out != mine && !bytes_of.empty() && bytes_of[0] > 0) std::memcpy(out, mine, bytes_of[0]);
  }
  void broadcast(void*, std::size_t, int, const WaitCheck&) override {}
  std::unique_ptr<Ranks> first(int count) override {
    return count > 0 ? std::make_unique<SingleRank>() : nullptr;
  }
  [[noreturn]] void abort(int code) override {
    std::fflush(nullptr);
    std::_Exit(code);
  }
};

const MpiModule* mpi_module = nullptr;

Ranks* load_world(std::string& error) {
#ifdef SRCC_MPI_MODULE
  std::string path;
  // RTLD_GLOBAL: Open MPI's own plugins, loaded by MPI_Init, resolve libmpi's symbols through it.
  void* handle = open_module(module_candidates("SRCC_MPI_MODULE", SRCC_MPI_MODULE, SRCC_INSTALL_LIBDIR),
                             RTLD_NOW | RTLD_GLOBAL, "MPI (libsrcc_mpi.so; set SRCC_MPI_MODULE)", path, error);
  if (!handle) return nullptr;
  auto entry = reinterpret_cast<const MpiModule* (*)()>(dlsym(handle, "srcc_mpi_module"));
  if (!entry) {
    error = path + " is not a src-compress MPI module";
    return nullptr;
  }
  mpi_module = entry();
  return mpi_module->world(error);
#else
  error = "this build has no MPI support (CMake found no MPI: install libopenmpi-dev and rebuild)";
  return nullptr;
#endif
}

// How the ranks stand towards each other (see end_together).
struct Agreement {
  int lockstep = 0;         // Lockstep guards alive
  bool broken = false;      // an exception left a Lockstep: the others may wait for this rank
  bool ended = false;       // an agreement already ended the command (a failed checkpoint)
  int agreed = 0;
};
Agreement agreement;

// The status and rank of an agreement in one comparable number: the largest status first,
// then the lowest rank.
constexpr std::int64_t kRankSpan = 1 << 24;
std::int64_t encode(int code, int rank) { return static_cast<std::int64_t>(code) * kRankSpan + (kRankSpan - 1 - rank); }

std::int64_t agree(int code) {
  Ranks& w = world_ranks();
  const auto all = w.gather_values<std::int64_t>(encode(code, w.rank()), [] { poll_interrupt(); });
  return *std::max_element(all.begin(), all.end());
}

[[noreturn]] void throw_status(int code, const std::string& message) {
  for (ErrorKind kind : kErrorKinds)
    if (exit_code(kind) == code) throw_error(kind, message);
  throw std::runtime_error(message);
}

}  // namespace

bool launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE", "MPI_LOCALNRANKS"})
    if (const char* s = std::getenv(v); s && *s) return true;
  return false;
}

Ranks& world_ranks() {
  static std::once_flag once;
  static Ranks* world = nullptr;
  static std::string error;
  std::call_once(once, [] {
    if (launched_by_mpi()) world = load_world(error);
    else world = new SingleRank();  // for the process's life, like MPI's
  });
  if (!world) throw BackendError("started by an MPI launcher, but " + error);
  return *world;
}

RankEnding end_together(int code, const std::function<void()>& report) {
  if (!launched_by_mpi() || world_ranks().size() == 1) return {code, code != 0};
  if (agreement.ended) return {agreement.agreed, false};
  if ((agreement.lockstep > 0 || agreement.broken) && code != 0) {
    report();
    world_ranks().abort(code);
  }
  const std::int64_t best = agree(code);
  agreement.ended = true;
  agreement.agreed = static_cast<int>(best / kRankSpan);
  const int reporter = static_cast<int>(kRankSpan - 1 - best % kRankSpan);
  return {agreement.agreed, code != 0 && reporter == world_ranks().rank()};
}

void checkpoint_ranks(const WaitCheck& wait) {
  if (!launched_by_mpi()) return;
  Ranks& w = world_ranks();
  if (w.size() == 1) return;
  const auto all = w.gather_values<std::int64_t>(encode(0, w.rank()), wait);
  const std::int64_t best = *std::max_element(all.begin(), all.end());
  if (best / kRankSpan == 0) return;
  agreement.ended = true;
  agreement.agreed = static_cast<int>(best / kRankSpan);
  throw_status(agreement.agreed, "rank " + std::to_string(kRankSpan - 1 - best % kRankSpan) +
                                     " stopped the run (its message is above)");
}

void finish_ranks() {
  if (mpi_module) mpi_module->finish();
}

void linger_after_signal(double seconds) {
  if (!launched_by_mpi() || world_ranks().size() == 1 || world_ranks().rank() == 0) return;
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

Lockstep::Lockstep() : exceptions_(std::uncaught_exceptions()) { ++agreement.lockstep; }
Lockstep::~Lockstep() {
  --agreement.lockstep;
  if (std::uncaught_exceptions() > exceptions_) agreement.broken = true;
}

}  // namespace srcc
