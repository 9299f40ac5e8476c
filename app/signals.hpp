#pragma once
// SIGINT/SIGTERM: the handler only records the signal; the run notices it between sites
// (check_interrupt) and unwinds, so temporary files are removed and no output is left under
// the final name. Then main ends the process by that same signal (die_by_signal), as other
// command-line tools do, so that a shell loop or a batch system sees a process killed by it,
// not one that handled it.
namespace srcc::app {

// Handlers for SIGINT and SIGTERM, except for a signal the parent left ignored.
void install_signal_handlers();
// Restores `sig`'s default action and raises it: the process ends as killed by it.
[[noreturn]] void die_by_signal(int sig);
// Throws InterruptedError naming the signal if one arrived.
void check_interrupt();

}  // namespace srcc::app
