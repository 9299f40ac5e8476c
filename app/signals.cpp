#include "signals.hpp"

#include <csignal>
#include <string>

#include "srcc/srcc.hpp"

namespace srcc::app {

namespace {
extern "C" void on_signal(int sig) { request_interrupt(sig); }
}  // namespace

void install_signal_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

void check_interrupt() { poll_interrupt(); }

}  // namespace srcc::app
