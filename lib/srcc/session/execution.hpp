#pragma once
// Where and with what every entry point computes (apply, evolve, expect, distance, the xtensor
// API): threads, the memory budgets, the device and the scratch directory; and the backend made
// from them for work that needs no plan (a measurement).
#include <cstdint>
#include <memory>
#include <string>

#include "srcc/backend/backend.hpp"
#include "srcc/backend/device.hpp"

namespace srcc {

struct Execution {
  int threads = 0;                   // threads that compute (CPU backend); 0 = its default
  std::string threads_source;        // why that many (recorded in /log)
  std::uint64_t host_memory = 0;     // --host-memory in bytes; 0 = detected
  std::uint64_t gpu_memory = 0;      // --gpu-memory in bytes; 0 = detected (GPU backend)
  DeviceSpec device;                 // --device: cpu (default), gpu, gpu:N
  std::string scratch_dir;           // --scratch-dir; "" = $TMPDIR or /tmp
};

// The backend of the first device `exec` names, for its budgets (--device gpu:0,1 measures on
// gpu:0: a measurement has no sketch to split).
std::unique_ptr<Backend> measuring_backend(const Execution& exec);

}  // namespace srcc
