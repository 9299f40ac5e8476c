#pragma once
// What an evolution records besides its states: the trajectory's columns (names, units,
// meanings; docs/FORMAT.md, "The output of evolve"), each step's progress line, and the
// fingerprint that a resumed run must share with the one it continues.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "srcc/core/dtype.hpp"
#include "srcc/core/process_tag.hpp"
#include "srcc/core/tensor.hpp"
#include "srcc/io/h5/h5_writer.hpp"
#include "srcc/io/result_reader.hpp"
#include "srcc/session/evolve_options.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

struct TrajectoryColumn {
  std::string name, unit, meaning;
  bool integer = false;
};

// The fixed columns of /trajectory (the observables' follow: observable.hpp).
std::vector<TrajectoryColumn> trajectory_columns(const EvolveOptions& eo);
std::string columns_json(const std::vector<TrajectoryColumn>& columns);
// Index of a fixed column of trajectory_columns().
inline constexpr std::size_t kNormColumn = 2, kBudgetColumn = 4, kMaxBondColumn = 5, kLog10NormColumn = 8;

// "key=value" lines: what must be the same for a run to continue another (the steps asked for
// and how often states are saved may change).
using Fingerprint = std::vector<std::pair<std::string, std::string>>;
std::string to_text(const Fingerprint& f);
Fingerprint fingerprint_from_text(const std::string& text);
// A train as a fingerprint names it: where it is, its kind, type and bonds, and `content_hash`,
// the hash of the values it holds (the bytes of its sites one after another).
std::string fingerprint_entry(const TrainInfo& t, const std::string& content_hash);
// The same for a train held in memory as `sites`.
template <class T> std::string fingerprint_of(const TrainInfo& t, const std::vector<Tensor<T>>& sites) {
  ContentHash h;
  for (const auto& s : sites) h.add({reinterpret_cast<const char*>(s.data.data()), s.bytes()});
  return fingerprint_entry(t, h.hex());
}
// The options part: accuracy controls, seed, working type, dt, normalisation.
void add_options(Fingerprint& f, const EvolveOptions& eo, DType dtype);

// The rows of an earlier run of the same evolution, after checking that it is one (its
// fingerprint and columns are this run's; InputError naming the output otherwise): `rows` gets
// its finished steps' values; returns how many steps it finished.
std::size_t resume_trajectory(const EvolveRecord& rec, const Fingerprint& fp, std::vector<TableColumn>& rows,
                              const std::string& output);

// The checkpoint's state (described by `saved`, of norm 10^saved_log10_norm) must be the one the
// last of its trajectory's `rows` describes (its norm, or 1 with --normalize, and its largest
// bond) and fit the `input` state; otherwise the file was changed or damaged (InputError naming
// `output`).
void check_resumed_state(const TrainInfo& input, const TrainInfo& saved, double saved_log10_norm,
                         const std::vector<TableColumn>& rows, std::size_t done, bool normalize, const std::string& output);

// The step's line for the reporter: step, time, norm, bond, errors, seconds (the observables
// add theirs).
struct StepValues {
  std::size_t step = 0, steps = 0;
  double time = 0, norm = 0, log10_norm = 0, error = 0, budget = 0, seconds = 0;
  std::int64_t max_bond = 0;
};
std::string step_line(const StepValues& v);

}  // namespace srcc
