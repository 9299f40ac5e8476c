#pragma once
// Progress on stderr. On a terminal: one line per phase, rewritten in place at every site. In
// batch jobs (stderr not a terminal): plain log lines, at most one every 10 s per phase plus
// the first and the last, so job logs stay readable. -v adds a line per site, -q none.
#include <chrono>
#include <string>

#include "srcc/srcc.hpp"

namespace srcc::app {

class ProgressReporter final : public Reporter {
 public:
  ProgressReporter();
  void progress(std::string_view phase, std::size_t done, std::size_t total) override;
  void warning(std::string_view message) override;
  void step(std::string_view line) override;
  void note(std::string_view message) override;

 private:
  bool tty_;
  std::string last_phase_;
  std::chrono::steady_clock::time_point last_line_{};
};

}  // namespace srcc::app
