#pragma once
// This process's own peak resident size, for the summaries. Linux's VmHWM (/proc/self/status)
// and not getrusage's ru_maxrss: that maximum survives exec, so a small run started by a large
// parent (a Python driver holding 800 MB) would report the parent's size.
#include <cstdint>

namespace srcc::memory {

// Bytes; 0 where /proc does not tell.
std::int64_t peak_resident_bytes();

}  // namespace srcc::memory
