#include "srcc/train/term_sum.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "srcc/core/error.hpp"
#include "srcc/train/layout.hpp"

namespace srcc {

void validate_terms(const std::vector<const Stack*>& terms) {
  if (terms.empty()) throw UsageError("a sum needs at least one term");
  const Stack& first = *terms.front();
  auto where = [&](std::size_t k) {
    return "term " + std::to_string(k + 1) + " (" + terms[k]->layers.back().where() + ")";
  };
  for (std::size_t k = 1; k < terms.size(); ++k) {
    const Stack& t = *terms[k];
    if (t.length() != first.length())
      throw InputError(where(k) + " has " + std::to_string(t.length()) + " sites, " + where(0) + " " +
                       std::to_string(first.length()) + ": the terms of a sum must have the same sites");
    if (t.result_kind() != first.result_kind())
      throw InputError(where(k) + " is " + std::string(train_kind_name(t.result_kind())) + ", " + where(0) + " " +
                       std::string(train_kind_name(first.result_kind())) +
                       ": the terms of a sum must all be states or all operators");
    for (std::size_t j = 0; j < first.length(); ++j)
      if (t.up_dim(j) != first.up_dim(j) || t.down_dim(j) != first.down_dim(j))
        throw InputError(where(k) + " site " + std::to_string(j) + ": physical legs (" + std::to_string(t.up_dim(j)) +
                         ", " + std::to_string(t.down_dim(j)) + ") differ from " + where(0) + "'s (" +
                         std::to_string(first.up_dim(j)) + ", " + std::to_string(first.down_dim(j)) + ")");
  }
}

std::vector<std::size_t> sum_bond_bounds(const std::vector<const Stack*>& terms) {
  // The physical limits are the same for every term; the other is the fused bonds added up.
  std::vector<std::size_t> bound = terms.front()->physical_bounds();
  constexpr std::size_t kHuge = std::numeric_limits<std::size_t>::max();
  for (std::size_t j = 1; j < bound.size(); ++j) {
    std::size_t sum = 0;
    for (const Stack* t : terms) sum = std::min(kHuge - t->fused_left(j), sum) + t->fused_left(j);  // saturating
    bound[j] = std::min(bound[j], sum);
  }
  return bound;
}

std::size_t sum_largest_bond(const std::vector<const Stack*>& terms) {
  const auto b = sum_bond_bounds(terms);
  return *std::max_element(b.begin(), b.end());
}

}  // namespace srcc
