#pragma once
// SIGINT/SIGTERM: the handler only records the signal; the run notices it between sites
// (check_interrupt) and unwinds, so temporary files are removed and no output is left under
// the final name.
namespace srcc::app {

void install_signal_handlers();
// Throws InterruptedError naming the signal if one arrived.
void check_interrupt();

}  // namespace srcc::app
