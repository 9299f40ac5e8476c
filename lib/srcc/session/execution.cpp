#include "srcc/session/execution.hpp"

#include "srcc/memory/policy.hpp"
#include "srcc/plan/budgets.hpp"

namespace srcc {

std::unique_ptr<Backend> measuring_backend(const Execution& exec) {
  const Budgets budgets = resolve_budgets(exec.host_memory, exec.gpu_memory, exec.scratch_dir);
  return make_backend(exec.device, exec.threads, memory::host_pool_limit(budgets.host_bytes), exec.gpu_memory);
}

}  // namespace srcc
