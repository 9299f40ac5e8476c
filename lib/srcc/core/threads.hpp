#pragma once
// How many threads a run uses, and why: --threads, else SLURM_CPUS_PER_TASK, else
// OMP_NUM_THREADS, else the CPU affinity mask — never more than the cores this process may
// run on.
#include <functional>
#include <string>

namespace srcc {

struct ThreadChoice {
  int threads = 1;
  std::string source;  // "--threads", "SLURM_CPUS_PER_TASK", "OMP_NUM_THREADS", "affinity mask"
};

// `getenv` and `allowed_cores` are parameters so that tests can pose any environment.
ThreadChoice resolve_threads(int flag, const std::function<const char*(const char*)>& getenv,
                             int allowed_cores);
ThreadChoice resolve_threads(int flag);  // the process's own environment and affinity mask
int affinity_cores();                    // CPUs in this process's affinity mask

}  // namespace srcc
