#include "srcc/session/taylor_step.hpp"

#include "srcc/session/stages.hpp"

namespace srcc {

std::vector<Stack> taylor_stacks(const Stack& step, std::size_t order) {
  const auto ops = static_cast<std::ptrdiff_t>(step.depth() - 1);
  std::vector<Stack> stacks(order + 1);
  for (std::size_t m = 0; m <= order; ++m) {
    for (std::size_t r = 0; r < m; ++r)
      stacks[m].layers.insert(stacks[m].layers.end(), step.layers.begin(), step.layers.begin() + ops);
    stacks[m].layers.push_back(step.layers.back());
  }
  return stacks;
}

TaylorPlan plan_taylor_step(const Stack& step, std::size_t order, const RunOptions& ro, DType dtype,
                            const Budgets& budgets) {
  TaylorPlan t;
  t.stacks = taylor_stacks(step, order);
  std::vector<const Stack*> terms;
  for (const auto& st : t.stacks) terms.push_back(&st);
  t.options = fitted(ro, terms, nullptr);
  for (std::size_t m = 0; m < terms.size(); ++m)
    t.plans.push_back(plan_term(terms, m, t.options.sweep, dtype, ro.exec.threads, budgets, ro.exec.device.gpu));
  return t;
}

std::vector<std::complex<double>> taylor_weights(std::size_t order, double dt, bool imaginary_time) {
  const std::complex<double> factor = imaginary_time ? std::complex<double>(-dt, 0) : std::complex<double>(0, -dt);
  std::vector<std::complex<double>> c(order + 1, 1.0);
  for (std::size_t m = 1; m <= order; ++m) c[m] = c[m - 1] * (factor / static_cast<double>(m));
  return c;
}

}  // namespace srcc
