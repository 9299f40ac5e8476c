#include "srcc/memory/resident.hpp"

#include <fstream>
#include <string>

namespace srcc::memory {

std::int64_t peak_resident_bytes() {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "VmHWM:") {
      std::int64_t kb = 0;
      status >> kb;
      return kb * 1024;
    }
    status.ignore(1 << 12, '\n');
  }
  return 0;
}

}  // namespace srcc::memory
