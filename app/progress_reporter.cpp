#include "progress_reporter.hpp"

#include <spdlog/spdlog.h>

namespace srcc::app {

void ProgressReporter::progress(std::string_view phase, std::size_t done, std::size_t total) {
  constexpr auto kInterval = std::chrono::seconds(5);
  const auto now = std::chrono::steady_clock::now();
  const bool new_phase = phase != last_phase_;
  spdlog::debug("{}: {}/{}", phase, done, total);
  if (new_phase || done == total || now - last_line_ >= kInterval) {
    if (spdlog::get_level() > spdlog::level::debug)
      spdlog::info("{}: {}/{}", phase, done, total);
    last_line_ = now;
    last_phase_ = std::string(phase);
  }
}

void ProgressReporter::warning(std::string_view message) { spdlog::warn("{}", message); }

}  // namespace srcc::app
