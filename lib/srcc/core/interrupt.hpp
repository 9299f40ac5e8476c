#pragma once
// A stop request for the whole process (SIGINT, SIGTERM): the application's signal handler
// records it, and every loop over sites that may run for long, in any command, polls it and
// unwinds with InterruptedError, so temporary files are removed and nothing is left under a
// final name. Loops with their own check (the sweep's check_interrupt, which also enforces
// --max-time) poll it through that check.
namespace srcc {

// Async-signal-safe: one lock-free atomic store. `signal` is the signal number.
void request_interrupt(int signal) noexcept;
// Throws InterruptedError naming the signal once a stop was requested.
void poll_interrupt();
// The requested signal, 0 when none.
int interrupt_signal() noexcept;

// While one exists, poll_interrupt does not throw (the request stays recorded): for bounded work
// that must finish once a stop was requested — an interrupted evolution's last checkpoint —
// so that what the run then says it saved is saved. SLURM sends SIGKILL only after its grace
// period (KillWait), long enough for a checkpoint.
class InterruptShield {
 public:
  InterruptShield() noexcept;
  ~InterruptShield();
  InterruptShield(const InterruptShield&) = delete;
  InterruptShield& operator=(const InterruptShield&) = delete;
};

}  // namespace srcc
