#pragma once
// An evolution's output, brought up to date at checkpoints: a new file written beside it and
// renamed into place, so that a killed run leaves the last complete one. The states saved by
// earlier checkpoints are copied from the version it replaces, and only from a version this
// evolution wrote (its run id: two runs to one output never mix their states); everything else
// is written anew (an update in place would leave each replaced /result, /log and /trajectory
// behind as dead space). docs/FORMAT.md, "The output of evolve", describes the file.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "srcc/core/tensor.hpp"
#include "srcc/io/h5/h5_writer.hpp"
#include "srcc/io/result_writer.hpp"
#include "srcc/log/folded_log.hpp"
#include "srcc/session/evolution_state.hpp"
#include "srcc/train/sectors.hpp"

namespace srcc {

template <class T> class Checkpoints {
 public:
  // `force`: an existing output may be replaced by the first checkpoint.
  Checkpoints(std::string output, bool force);

  // --resume: the output holds `steps` steps of the run `owner`, and the states `saved`.
  void resume(std::size_t steps, std::string owner, const std::vector<long long>& saved);
  // The states' physical charges (a run on charges): written with each, so that the saved states
  // and /result are charged inputs of later runs.
  void set_charges(const PhysicalCharges& charges) { charges_ = charges; }
  void set_basis(std::vector<std::string> names) { basis_ = std::move(names); }
  // States held for the next checkpoint bring it forward once they reach `bytes`.
  void limit_held(std::uint64_t bytes) { held_limit_ = bytes; }
  // State `step` (e^{scale}·state), saved as /states/step at the next checkpoint. Held as the
  // evolution holds it — on charges in its blocks, sharing them: an evolution never writes into
  // a finished step's tensors — and made dense a site at a time as it is written.
  void hold(std::size_t step, EvolutionState<T> state, double scale);
  // Whether to write one now, `since_last` steps after the last: every `every` steps, or with
  // `every` 0 after kCheckpointSeconds (or later where one takes more than kCheckpointShare of
  // that); held states bring one forward.
  bool due(std::size_t since_last, std::size_t every) const;

  // Writes the output holding `steps` steps: the trajectory (`rows`, described by
  // `columns_json`), the held states, the state e^{scale}·state as /result and `record` (its
  // run id and saved states filled in here), with the transfer rows of `history`, to which this
  // write's rows are added. States in blocks are made dense on `K` one site at a time.
  void write(const std::vector<TableColumn>& rows, const std::string& columns_json, const EvolutionState<T>& state,
             double scale, Kernels<T>& K, RunRecord record, FoldedLog& history, bool finished, std::size_t steps);

  bool written() const { return written_; }             // an output of this evolution exists
  std::size_t saved_steps() const { return saved_steps_; }  // the steps it holds
  double last_seconds() const { return took_; }         // the last write's

 private:
  struct Held {
    std::size_t step;
    EvolutionState<T> state;
    double scale;  // the state is e^{scale}·state
  };
  // A state as a train at `group` (its log scale, charges and basis with it).
  void write_state(ResultWriter& out, const std::string& group, const EvolutionState<T>& state, double scale,
                   Kernels<T>& K, TransferLog& log, const std::string& what) const;
  void copy_saved_states(ResultWriter& out, TransferLog& log) const;
  std::string saved_text() const;  // the states the output holds once the write in progress is in place

  std::string output_;
  bool force_;
  std::optional<PhysicalCharges> charges_;
  std::vector<std::string> basis_;  // the state's basis names (TrainInfo::basis), when uniform
  const std::string run_id_;  // this evolution's name in the versions of its output
  std::string owner_;         // the run whose version the output holds (this one, or the one --resume continues)
  bool written_ = false;
  std::size_t saved_steps_ = 0;
  std::vector<std::size_t> saved_;  // the K of every /states/K the output holds
  std::vector<Held> held_;          // until the next checkpoint
  std::uint64_t held_bytes_ = 0, held_limit_ = 0;
  double took_ = 0;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace srcc
