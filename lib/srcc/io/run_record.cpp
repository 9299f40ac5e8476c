#include "srcc/io/run_record.hpp"

#include <hdf5.h>

#include <sstream>
#include <type_traits>

#include "srcc/io/h5/h5_handle.hpp"
#include "srcc/io/h5/h5_names.hpp"
#include "srcc/version.hpp"

namespace srcc {

void write_run_record(H5Writer& w, const std::string& lg, const RunRecord& r) {
  namespace n = h5names;
  w.int_attr(lg, n::kAttrSchemaVersion, n::kSchemaVersion);
  w.string_attr(lg, n::kAttrToolVersion, kVersion);
  w.string_attr(lg, n::kAttrCommandLine, r.command_line);
  w.string_attr(lg, n::kAttrPlan, r.plan_json);
  w.string_attr(lg, n::kAttrDevices, r.devices);
  w.string_attr(lg, n::kAttrBlas, r.blas);
  w.int_attr(lg, n::kAttrThreads, r.threads);
  w.string_attr(lg, n::kAttrThreadsSource, r.threads_source);
  w.int_attr(lg, n::kAttrSeed, static_cast<std::int64_t>(r.seed));
  const std::string command = r.evolve ? "evolve" : r.command;
  if (!command.empty()) w.string_attr(lg, n::kAttrCommand, command);
  if (!r.method.empty()) w.string_attr(lg, n::kAttrMethod, r.method);
  if (!r.fit_json.empty()) w.string_attr(lg, n::kAttrFit, r.fit_json);
  if (!r.terms_json.empty()) w.string_attr(lg, n::kAttrTerms, r.terms_json);
  w.string_attr(lg, n::kAttrStart, r.start_utc);
  w.string_attr(lg, n::kAttrEnd, r.end_utc);
  w.double_attr(lg, n::kAttrWall, r.wall_seconds);
  w.double_attr(lg, n::kAttrErrorEstimate, r.error_estimate);
  w.string_attr(lg, n::kAttrSummary, r.summary_json);
  if (!r.notes.empty()) w.string_attr(lg, n::kAttrNotes, r.notes);
  if (r.output_format != "srcc") {
    w.string_attr(lg, n::kAttrOutputFormat, r.output_format);
    w.double_attr(lg, n::kAttrDroppedWeight, r.dropped_weight);
  }
  if (r.evolve) {
    w.int_attr(lg, n::kAttrSteps, r.evolve->steps);
    w.int_attr(lg, n::kAttrStepsDone, r.evolve->steps_done);
    w.string_attr(lg, n::kAttrFingerprint, r.evolve->fingerprint);
    w.double_attr(lg, n::kAttrDt, r.evolve->dt);
    w.int_attr(lg, n::kAttrNormalize, r.evolve->normalize ? 1 : 0);
    w.string_attr(lg, n::kAttrRunId, r.evolve->run_id);
    if (r.evolve->saved_states) w.string_attr(lg, n::kAttrSavedStates, *r.evolve->saved_states);
  }
}

static_assert(std::is_same_v<hid_t, std::int64_t>, "read_run_record takes a hid_t as std::int64_t");

RunRecord read_run_record(std::int64_t log, const std::string& where) {
  namespace n = h5names;
  auto has = [&](const char* name) { return h5::has_attr(log, name); };
  auto str = [&](const char* name) { return has(name) ? h5::read_string_attr(log, name, where) : std::string(); };
  auto num = [&](const char* name) { return has(name) ? h5::read_double_attr(log, name, where) : 0.0; };
  auto integer = [&](const char* name) { return has(name) ? h5::read_int_attr(log, name, where) : 0LL; };
  RunRecord r;
  r.tool_version = str(n::kAttrToolVersion);
  r.command = str(n::kAttrCommand);
  r.command_line = str(n::kAttrCommandLine);
  r.plan_json = str(n::kAttrPlan);
  r.devices = str(n::kAttrDevices);
  r.blas = str(n::kAttrBlas);
  r.threads = integer(n::kAttrThreads);
  r.threads_source = str(n::kAttrThreadsSource);
  r.seed = static_cast<std::uint64_t>(integer(n::kAttrSeed));
  r.method = str(n::kAttrMethod);
  r.fit_json = str(n::kAttrFit);
  r.terms_json = str(n::kAttrTerms);
  r.start_utc = str(n::kAttrStart);
  r.end_utc = str(n::kAttrEnd);
  r.wall_seconds = num(n::kAttrWall);
  r.error_estimate = num(n::kAttrErrorEstimate);
  r.summary_json = str(n::kAttrSummary);
  r.notes = str(n::kAttrNotes);
  if (has(n::kAttrOutputFormat)) {
    r.output_format = str(n::kAttrOutputFormat);
    r.dropped_weight = num(n::kAttrDroppedWeight);
  }
  // Outputs written before /log@command named the command only in the command line, and the
  // method only for apply, compress and truncate, where src was the default.
  std::istringstream words(r.command_line);
  for (std::string w; r.command.empty() && words >> w;)
    if (w == "apply" || w == "compress" || w == "truncate" || w == "evolve") r.command = w;
  if (r.method.empty()) r.method = r.command == "truncate" ? "svd" : "src";
  if (r.command == "evolve") {
    RunRecord::Evolution e;
    e.steps = integer(n::kAttrSteps);
    e.steps_done = integer(n::kAttrStepsDone);
    e.fingerprint = str(n::kAttrFingerprint);
    e.dt = num(n::kAttrDt);
    e.normalize = integer(n::kAttrNormalize) == 1;
    e.run_id = str(n::kAttrRunId);
    if (has(n::kAttrSavedStates)) e.saved_states = str(n::kAttrSavedStates);
    r.evolve = e;
  }
  return r;
}

}  // namespace srcc
