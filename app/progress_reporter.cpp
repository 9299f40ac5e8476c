#include "progress_reporter.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdio>

namespace srcc::app {

ProgressReporter::ProgressReporter() : tty_(isatty(STDERR_FILENO) == 1) {}

void ProgressReporter::progress(std::string_view phase, std::size_t done, std::size_t total) {
  if (spdlog::get_level() > spdlog::level::info) return;
  if (spdlog::get_level() <= spdlog::level::debug) {
    spdlog::debug("{}: {}/{}", phase, done, total);
    return;
  }
  if (tty_) {
    std::fprintf(stderr, "\r%.*s: %zu/%zu   %s", static_cast<int>(phase.size()), phase.data(),
                 done, total, done == total ? "\n" : "");
    std::fflush(stderr);
    return;
  }
  constexpr auto kInterval = std::chrono::seconds(10);
  const auto now = std::chrono::steady_clock::now();
  if (phase != last_phase_ || done == total || now - last_line_ >= kInterval) {
    spdlog::info("{}: {}/{}", phase, done, total);
    last_line_ = now;
    last_phase_ = std::string(phase);
  }
}

void ProgressReporter::step(std::string_view line) { spdlog::info("{}", line); }

void ProgressReporter::note(std::string_view message) { spdlog::info("{}", message); }

void ProgressReporter::warning(std::string_view message) {
  if (tty_) std::fputc('\n', stderr);
  spdlog::warn("{}", message);
}

}  // namespace srcc::app
