#include "srcc/core/threads.hpp"

#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "srcc/core/error.hpp"
#include "srcc/core/options.hpp"

namespace srcc {

namespace {
int positive(const char* text, const char* what) {
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || v < 1 || v > 1 << 20)
    throw UsageError(std::string(what) + "='" + text + "' is not a positive thread count");
  return static_cast<int>(v);
}
}  // namespace

ThreadChoice resolve_threads(int flag, const std::function<const char*(const char*)>& getenv,
                             int allowed_cores) {
  allowed_cores = std::max(allowed_cores, 1);
  ThreadChoice c;
  if (flag > 0) {
    c = {flag, opt::kThreads.name()};
  } else if (const char* s = getenv("SLURM_CPUS_PER_TASK"); s && *s) {
    c = {positive(s, "SLURM_CPUS_PER_TASK"), "SLURM_CPUS_PER_TASK"};
  } else if (const char* o = getenv("OMP_NUM_THREADS"); o && *o) {
    // OMP_NUM_THREADS may list nesting levels ("4,2"): the first is ours.
    std::string first(o);
    first = first.substr(0, first.find(','));
    c = {positive(first.c_str(), "OMP_NUM_THREADS"), "OMP_NUM_THREADS"};
  } else {
    return {allowed_cores, "affinity mask"};
  }
  if (c.threads > allowed_cores) {
    c.threads = allowed_cores;
    c.source += " (capped at the " + std::to_string(allowed_cores) + " cores of the affinity mask)";
  }
  return c;
}

int affinity_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
  return std::max(CPU_COUNT(&set), 1);
}

ThreadChoice resolve_threads(int flag) {
  return resolve_threads(flag, [](const char* name) { return std::getenv(name); }, affinity_cores());
}

}  // namespace srcc
