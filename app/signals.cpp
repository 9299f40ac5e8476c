#include "signals.hpp"

#include <csignal>
#include <string>

#include "srcc/srcc.hpp"

namespace srcc::app {

namespace {
volatile std::sig_atomic_t g_signal = 0;
extern "C" void on_signal(int sig) { g_signal = sig; }
}  // namespace

void install_signal_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

void check_interrupt() {
  const int sig = g_signal;
  if (sig != 0)
    throw InterruptedError(std::string("stopped by ") + (sig == SIGINT ? "SIGINT" : "SIGTERM") +
                           "; no output was written");
}

}  // namespace srcc::app
