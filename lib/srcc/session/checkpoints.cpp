#include "srcc/session/checkpoints.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <random>

#include "srcc/core/process_tag.hpp"
#include "srcc/io/h5/h5_names.hpp"
#include "srcc/session/evolve_options.hpp"

namespace srcc {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// An evolution's name for itself in the versions of its output: where it runs, its process and
// a random part (two runs of one process, a PID reused).
std::string new_run_id() {
  std::random_device random;
  char tail[24];
  std::snprintf(tail, sizeof tail, "-%ld-%08x", static_cast<long>(::getpid()), random());
  return process_tag() + tail;
}

}  // namespace

template <class T>
Checkpoints<T>::Checkpoints(std::string output, bool force)
    : output_(std::move(output)), force_(force), run_id_(new_run_id()) {}

template <class T> void Checkpoints<T>::resume(std::size_t steps, std::string owner, const std::vector<long long>& saved) {
  owner_ = std::move(owner);
  for (long long k : saved) saved_.push_back(static_cast<std::size_t>(k));
  written_ = true;
  saved_steps_ = steps;
}

template <class T> void Checkpoints<T>::hold(std::size_t step, EvolutionState<T> state, double scale) {
  held_bytes_ += state.bytes();
  held_.push_back({step, std::move(state), scale});
}

template <class T>
void Checkpoints<T>::write_state(ResultWriter& out, const std::string& group, const EvolutionState<T>& state,
                                 double scale, Kernels<T>& K, TransferLog& log, const std::string& what) const {
  out.write_train<T>(group, TrainKind::kMps, state.length(), [&](std::size_t j) { return state.dense_site(K, j); },
                     log, what);
  if (scale != 0) out.double_attr(group, h5names::kAttrLogScale, scale);
  if (charges_) out.write_charges(group, *charges_);
  out.write_basis(group, basis_);
}

template <class T> bool Checkpoints<T>::due(std::size_t since_last, std::size_t every) const {
  const double interval = std::max(kCheckpointSeconds, took_ / kCheckpointShare);
  return (every > 0 ? since_last >= every : since(last_) >= interval) || (held_limit_ > 0 && held_bytes_ >= held_limit_);
}

template <class T> std::string Checkpoints<T>::saved_text() const {
  std::string out;
  for (std::size_t k : saved_) out += (out.empty() ? "" : " ") + std::to_string(k);
  for (const auto& h : held_) out += (out.empty() ? "" : " ") + std::to_string(h.step);
  return out;
}

template <class T> void Checkpoints<T>::copy_saved_states(ResultWriter& out, TransferLog& log) const {
  const auto t0 = Clock::now();
  if (const auto bytes = out.copy_from(output_, h5names::kStates, owner_)) {
    const std::string where = "file:" + output_ + ":" + h5names::kStates;
    log.add(TransferRecord{.what = "saved states", .mechanism = mechanism::kFileWrite, .source = where,
                           .target = where, .dtype_from = std::string(dtype_name(dtype_of<T>)),
                           .dtype_to = std::string(dtype_name(dtype_of<T>)),
                           .bytes = static_cast<std::int64_t>(*bytes), .seconds = since(t0)});
  }
}

template <class T>
void Checkpoints<T>::write(const std::vector<TableColumn>& rows, const std::string& columns_json,
                           const EvolutionState<T>& state, double scale, Kernels<T>& K, RunRecord record,
                           FoldedLog& history, bool finished, std::size_t steps) {
  const auto t0 = Clock::now();
  ResultWriter out(output_, written_ || force_, ResultWriter::Mode::kNewFile, h5names::kTrajectory);
  TransferLog log;
  history.copy_to(log);
  const std::size_t mark = log.size();
  if (written_) copy_saved_states(out, log);
  out.write_table(h5names::kTrajectory, rows, columns_json);
  for (const auto& h : held_)
    write_state(out, std::string(h5names::kStates) + "/" + std::to_string(h.step), h.state, h.scale, K, log,
                "saved state");
  write_state(out, h5names::kResult, state, scale, K, log, "result site");
  record.evolve->run_id = run_id_;
  record.evolve->saved_states = saved_text();
  out.write_log(record, log, finished);
  out.commit();
  history.add_round(log.take_from(mark));
  for (const auto& h : held_) saved_.push_back(h.step);
  held_.clear();
  held_bytes_ = 0;
  written_ = true;
  saved_steps_ = steps;
  owner_ = run_id_;
  last_ = Clock::now();
  took_ = since(t0);
}

#define SRCC_INSTANTIATE(T) template class Checkpoints<T>;
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
