#pragma once
// One evolution in the working type T, once its inputs are checked (evolve.cpp): the inputs in
// memory, a sweep a step with the state held between steps, the measurements, the trajectory, and
// the output brought up to date at checkpoints, which --resume continues.
#include <functional>
#include <string>
#include <vector>

#include "srcc/io/train_reader.hpp"
#include "srcc/log/reporter.hpp"
#include "srcc/session/evolve_options.hpp"
#include "srcc/session/evolve_summary.hpp"

namespace srcc {

template <class T>
EvolveSummary run_evolution(const EvolveOptions& eo, std::vector<TrainReader>& readers, Stack stack,
                            std::vector<std::string> notes, Reporter& reporter,
                            const std::function<void()>& check_interrupt);

}  // namespace srcc
