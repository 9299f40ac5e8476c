#pragma once
// Progress on stderr through spdlog: on a terminal one line per step at debug level (-v), in
// batch jobs at most one line every few seconds per phase, so job logs stay readable.
#include <chrono>
#include <string>

#include "srcc/srcc.hpp"

namespace srcc::app {

class ProgressReporter final : public Reporter {
 public:
  void progress(std::string_view phase, std::size_t done, std::size_t total) override;
  void warning(std::string_view message) override;

 private:
  std::string last_phase_;
  std::chrono::steady_clock::time_point last_line_{};
};

}  // namespace srcc::app
