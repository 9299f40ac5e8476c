#include "signals.hpp"

#include <csignal>
#include <cstdio>
#include <cstdlib>
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
  for (int sig : {SIGINT, SIGTERM}) {
    // A signal the parent set to be ignored (nohup, a shell's background job) stays ignored.
    struct sigaction old {};
    if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    sigaction(sig, &sa, nullptr);
  }
}

void die_by_signal(int sig) {
  std::fflush(stdout);
  std::fflush(stderr);
  struct sigaction sa {};
  sa.sa_handler = SIG_DFL;
  sigemptyset(&sa.sa_mask);
  sigaction(sig, &sa, nullptr);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  sigprocmask(SIG_UNBLOCK, &set, nullptr);
  raise(sig);
  std::_Exit(128 + sig);  // not reached: the default action of SIGINT and SIGTERM ends the process
}

void check_interrupt() { poll_interrupt(); }

}  // namespace srcc::app
