#include "srcc/core/interrupt.hpp"

#include <atomic>
#include <csignal>
#include <string>

#include "srcc/core/error.hpp"

namespace srcc {

namespace {
std::atomic<int> g_requested{0};
std::atomic<int> g_shields{0};
static_assert(std::atomic<int>::is_always_lock_free, "set from a signal handler");
}  // namespace

void request_interrupt(int signal) noexcept { g_requested.store(signal, std::memory_order_relaxed); }

int interrupt_signal() noexcept { return g_requested.load(std::memory_order_relaxed); }

InterruptShield::InterruptShield() noexcept { g_shields.fetch_add(1); }
InterruptShield::~InterruptShield() { g_shields.fetch_sub(1); }

void poll_interrupt() {
  const int sig = interrupt_signal();
  if (sig != 0 && g_shields.load() == 0)
    throw InterruptedError(std::string("stopped by ") +
                           (sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal"),
                           std::string("; no output was written"));
}

}  // namespace srcc
