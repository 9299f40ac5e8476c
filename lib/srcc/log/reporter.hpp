#pragma once
// Progress reporting from the sweep and from runs of many steps. The library calls it; the app
// decides how (or whether) to show it. Implementations must be cheap: they are called once per
// site and phase.
#include <cstddef>
#include <string_view>

namespace srcc {

class Reporter {
 public:
  virtual ~Reporter() = default;
  // `phase` is "read", "left sweep", "right sweep" or "write"; `done` of `total` steps.
  virtual void progress(std::string_view phase, std::size_t done, std::size_t total) = 0;
  virtual void warning(std::string_view message) = 0;
  // One line of a run made of many steps (evolve): what the step gave. Shown at info level.
  virtual void step(std::string_view line) { (void)line; }
  // Something the user may want to know that is no warning (the working type chosen); info level.
  virtual void note(std::string_view message) { (void)message; }
};

class SilentReporter final : public Reporter {
 public:
  void progress(std::string_view, std::size_t, std::size_t) override {}
  void warning(std::string_view) override {}
};

}  // namespace srcc
