#pragma once
// The error a failed allocation in the sweep becomes: it names the step and the site.
#include <cstddef>
#include <string>

#include "srcc/core/error.hpp"

namespace srcc {

inline ResourceError out_of_memory(const char* step, std::size_t j) {
  return ResourceError(std::string(step) + ", site " + std::to_string(j) +
                       ": out of memory (give a --host-memory or --gpu-memory the machine "
                       "really has, so that the plan spills environments instead)");
}

}  // namespace srcc
