#pragma once
// generate: an example train (train/examples.hpp) written one site at a time to a new file, or
// added as a group to an existing one, within the host budget and the disk's room.
#include <cstdint>
#include <string>

#include "srcc/train/examples.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

struct WriteExampleOptions {
  ExampleOptions example;
  TrainRef output;                // FILE.h5 (a new file) or FILE.h5:/group (added); group "" = the kind's
  bool force = false;             // replace an existing file, or group
  std::uint64_t host_memory = 0;  // bytes; 0 = detected
};

// Where the train went (the group chosen when none was given); with `sites`, its length there
// (a step's is its Hamiltonian's, not --sites).
TrainRef write_example(const WriteExampleOptions& o, std::size_t* sites = nullptr);

}  // namespace srcc
