#include "srcc/session/evolve_record.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <sstream>

#include "srcc/core/error.hpp"
#include "srcc/core/json.hpp"
#include "srcc/core/process_tag.hpp"
#include "srcc/core/text.hpp"
#include "srcc/io/h5/h5_names.hpp"

namespace srcc {

namespace {

std::string number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// What a checkpoint says of itself must agree: /log@steps_done, the trajectory's rows (steps 1 …
// steps_done, in order) and the saved states (/log@saved_states and /states, none past the last
// step). A file changed by hand or damaged is refused rather than continued from wrong data.
void check_checkpoint(const EvolveRecord& rec, const std::string& output) {
  const std::string bad = output + ": not a consistent checkpoint (changed or damaged?): ";
  const std::size_t rows = rec.trajectory.empty() ? 0 : rec.trajectory.front().values.size();
  if (rec.log.evolve->steps_done < 0 || static_cast<unsigned long long>(rec.log.evolve->steps_done) != rows)
    throw InputError(bad + "/log@steps_done is " + std::to_string(rec.log.evolve->steps_done) + " but " + h5names::kTrajectory +
                     " has " + std::to_string(rows) + " rows");
  if (rows > 0 && rec.trajectory.front().name == "step")
    for (std::size_t k = 0; k < rows; ++k)
      if (rec.trajectory.front().values[k] != static_cast<double>(k + 1))
        throw InputError(bad + h5names::kTrajectory + " row " + std::to_string(k + 1) + " is step " +
                         number(rec.trajectory.front().values[k]));
  for (long long k : rec.states)
    if (k < 1 || k > rec.log.evolve->steps_done)
      throw InputError(bad + h5names::kStates + " holds " + (k < 1 ? std::string("a member not named by a step") : "step " + std::to_string(k)) +
                       " but the file holds " + std::to_string(rec.log.evolve->steps_done) + " steps");
  if (rec.log.evolve->saved_states) {
    std::istringstream listed(*rec.log.evolve->saved_states);
    for (long long k; listed >> k;)
      if (!std::binary_search(rec.states.begin(), rec.states.end(), k))
        throw InputError(bad + h5names::kStates + "/" + std::to_string(k) + " is missing (/log@saved_states lists it)");
  }
}

}  // namespace

std::vector<TrajectoryColumn> trajectory_columns(const EvolveOptions& eo) {
  std::vector<TrajectoryColumn> columns = {
      {"step", "1", "steps done", true},
      {"time", eo.dt != 0 ? "time units of --dt" : "steps", "step · dt (step number without --dt)"},
      {"norm", "1", "‖ψ‖ after the step, before --normalize"},
      {"error_estimate", "relative", "the step's estimated relative error"},
      {"error_budget", "relative", "the estimates of all steps so far, summed"},
      {"max_bond", "1", "the largest bond of the state", true},
      {"seconds", "s", "wall time of the step (sweep and measurements)"},
      {"sweep_seconds", "s", "wall time of the step's sweep"},
      {"log10_norm", "1", "log10 ‖ψ‖ after the step, before --normalize (norm is inf or 0 beyond a double's range)"}};
  return columns;
}

std::string columns_json(const std::vector<TrajectoryColumn>& columns) {
  std::string out = "[";
  for (const auto& c : columns) {
    JsonObject o;
    o.add("name", c.name).add("unit", c.unit).add("meaning", c.meaning);
    out += (out.size() > 1 ? ", " : "") + o.str();
  }
  return out + "]";
}

std::string to_text(const Fingerprint& f) {
  std::string out;
  for (const auto& [k, v] : f) out += k + "=" + v + "\n";
  return out;
}

Fingerprint fingerprint_from_text(const std::string& text) {
  Fingerprint out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const auto eq = line.find('=');
    if (eq != std::string::npos) out.emplace_back(line.substr(0, eq), line.substr(eq + 1));
  }
  return out;
}

std::string fingerprint_entry(const TrainInfo& t, const std::string& content_hash) {
  std::ostringstream out;
  out << t.where() << " " << train_kind_name(t.kind) << " " << dtype_name(t.dtype()) << " bonds";
  for (std::size_t j = 0; j + 1 < t.length(); ++j) out << " " << t.dims[j][kLegR];
  return out.str() + " content " + content_hash;
}

void add_options(Fingerprint& f, const EvolveOptions& eo, DType dtype) {
  const SweepOptions& so = eo.run.sweep;
  f.emplace_back("chi", std::to_string(so.chi));
  f.emplace_back("cutoff", number(so.cutoff) + (so.numerical_zeros ? "" : " (numerically zero directions kept)"));
  f.emplace_back("oversample", number(so.oversample));
  f.emplace_back("tol", number(so.tol));
  f.emplace_back("block", std::to_string(so.block_start) + " " + std::to_string(so.block_step));
  f.emplace_back("seed", std::to_string(so.seed));
  // Only when not the defaults, so that checkpoints written without these keys still resume.
  if (so.method != Method::kSrc) f.emplace_back("method", method_name(so.method));
  if (so.fit_sweep_cap() > 0)
    f.emplace_back("fit", std::to_string(so.fit_sweeps) + " " + number(so.fit_tol));
  if (eo.taylor > 0) f.emplace_back("taylor", std::to_string(eo.taylor) + (eo.imaginary_time ? " imaginary time" : ""));
  f.emplace_back("dtype", std::string(dtype_name(dtype)));
  f.emplace_back("dt", number(eo.dt));
  f.emplace_back("normalize", eo.normalize ? "yes" : "no");
}

std::size_t resume_trajectory(const EvolveRecord& rec, const Fingerprint& fp, std::vector<TableColumn>& rows,
                              const std::string& output) {
  const Fingerprint old = fingerprint_from_text(rec.log.evolve->fingerprint);
  for (const auto& entry : fp) {
    const std::string& key = entry.first;
    const std::string& value = entry.second;
    auto it = std::find_if(old.begin(), old.end(), [&key](const auto& p) { return p.first == key; });
    if (it == old.end() || it->second != value)
      throw InputError(output + ": made by another evolution: its " + key + " is '" +
                       (it == old.end() ? std::string("(none)") : it->second) + "', this run's '" + value + "'");
  }
  std::vector<TableColumn> columns = rec.trajectory;
  // A checkpoint written before the log10_norm column: it is the logarithm of the norm column.
  if (columns.size() + 1 == rows.size() && columns.size() >= kLog10NormColumn && columns[kNormColumn].name == "norm" &&
      (columns.size() == kLog10NormColumn || columns[kLog10NormColumn].name != "log10_norm")) {
    TableColumn log10_norm{"log10_norm", false, {}};
    for (double v : columns[kNormColumn].values) log10_norm.values.push_back(std::log10(v));
    columns.insert(columns.begin() + kLog10NormColumn, std::move(log10_norm));
  }
  if (columns.size() != rows.size())
    throw InputError(output + ":" + h5names::kTrajectory + ": its columns are not this run's");
  check_checkpoint(rec, output);
  for (std::size_t c = 0; c < rows.size(); ++c) {
    if (columns[c].name != rows[c].name)
      throw InputError(output + ":" + h5names::kTrajectory + ": column " + columns[c].name +
                       " where this run has " + rows[c].name);
    rows[c].values = columns[c].values;
  }
  return static_cast<std::size_t>(rec.log.evolve->steps_done);
}

void check_resumed_state(const TrainInfo& input, const TrainInfo& saved, double saved_log10_norm,
                         const std::vector<TableColumn>& rows, std::size_t done, bool normalize, const std::string& output) {
  const std::string bad = output + ": not a consistent checkpoint (changed or damaged?): ";
  if (saved.length() != input.length())
    throw InputError(bad + saved.where() + " has " + std::to_string(saved.length()) + " sites, the state " +
                     std::to_string(input.length()));
  std::int64_t max_bond = 1;
  for (std::size_t j = 0; j < saved.length(); ++j) {
    if (saved.dims[j][kLegU] != input.dims[j][kLegU])
      throw InputError(bad + saved.where(j) + ": physical leg " + std::to_string(saved.dims[j][kLegU]) +
                       ", the state's " + std::to_string(input.dims[j][kLegU]));
    max_bond = std::max<std::int64_t>(max_bond, static_cast<std::int64_t>(saved.dims[j][kLegR]));
  }
  if (done == 0) return;
  const double row_log10 = rows[kLog10NormColumn].values.back();
  const double want = normalize && std::isfinite(row_log10) ? 0.0 : row_log10;
  const auto row_bond = static_cast<std::int64_t>(rows[kMaxBondColumn].values.back());
  if (!(std::abs(saved_log10_norm - want) <= 1e-8 * std::max(1.0, std::abs(want))) || max_bond != row_bond)
    throw InputError(bad + saved.where() + " (norm " + format_log10(saved_log10_norm) + ", largest bond " +
                     std::to_string(max_bond) + ") is not the state of step " + std::to_string(done) + " in " +
                     h5names::kTrajectory + " (norm " + format_log10(want) + ", largest bond " + std::to_string(row_bond) + ")");
}

std::string step_line(const StepValues& v) {
  char line[256];
  std::snprintf(line, sizeof line, "step %zu/%zu  t %.6g  norm %s  bond %lld  error %.2e (budget %.2e)  %.3f s",
                v.step, v.steps, v.time, format_magnitude(v.log10_norm).c_str(), static_cast<long long>(v.max_bond),
                v.error, v.budget, v.seconds);
  return line;
}

}  // namespace srcc
