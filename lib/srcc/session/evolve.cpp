#include "srcc/session/evolve.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "srcc/core/error.hpp"
#include "srcc/core/options.hpp"
#include "srcc/io/output_file.hpp"
#include "srcc/io/read_probe.hpp"
#include "srcc/io/result_reader.hpp"
#include "srcc/io/train_reader.hpp"
#include "srcc/memory/policy.hpp"
#include "srcc/session/evolution.hpp"
#include "srcc/session/rank_share.hpp"
#include "srcc/session/stages.hpp"
#include "srcc/session/symmetric_run.hpp"
#include "srcc/train/site_type.hpp"
#include "srcc/session/taylor_step.hpp"

namespace srcc {

namespace {

// The inputs of an evolution, checked: the readers (the step's MPOs, the state, then the
// --measure operators and the --overlap reference), the step's stack and the working type.
struct EvolveInputs {
  std::vector<TrainReader> readers;
  Stack stack;
  std::vector<std::string> notes;
  DType dtype = DType::kFloat64;
};

void check_options(const EvolveOptions& eo) {
  const RunOptions& ro = eo.run;
  validate(ro.sweep);
  if (eo.steps == 0) throw UsageError(opt::kSteps.name() + ": at least one step");
  if (ro.trains.size() < 2) throw UsageError("evolve: give the step's MPOs, then the state");
  if (eo.taylor > kMaxTaylorOrder)
    throw UsageError(opt::kTaylor.name() + " " + std::to_string(eo.taylor) + ": at most " + std::to_string(kMaxTaylorOrder));
  if (eo.taylor > 0 && eo.dt == 0)
    throw UsageError(opt::kTaylor.name() + ": needs " + opt::kDt.name() + " (the step is Σ (-i dt H)^m/m!)");
  if (eo.imaginary_time && eo.taylor == 0)
    throw UsageError(opt::kImaginaryTime.name() + ": only with " + opt::kTaylor.name() +
                     " (otherwise the step's MPOs are the step itself)");
}

std::vector<TrainRef> input_refs(const EvolveOptions& eo) {
  std::vector<TrainRef> refs = eo.run.trains;
  refs.insert(refs.end(), eo.measure.begin(), eo.measure.end());
  if (eo.overlap) refs.push_back(*eo.overlap);
  return refs;
}

// The step's stack: MPOs over an MPS, and for --taylor a Hamiltonian that maps the state's
// space onto itself.
Stack step_stack(const EvolveOptions& eo, const std::vector<TrainReader>& readers) {
  const std::size_t nstep = eo.run.trains.size() - 1;
  Stack stack;
  for (std::size_t i = 0; i <= nstep; ++i) stack.layers.push_back(readers[i].info());
  for (std::size_t i = 0; i < nstep; ++i)
    if (stack.layers[i].kind != TrainKind::kMpo) throw UsageError(stack.layers[i].where() + ": a step is made of MPOs");
  if (stack.layers.back().kind != TrainKind::kMps) throw UsageError(stack.layers.back().where() + ": evolve takes an MPS as its state");
  validate_stack(stack);
  // H^m needs H to map the state's space onto itself.
  if (eo.taylor > 0)
    for (std::size_t j = 0; j < stack.length(); ++j)
      if (stack.layers.front().dims[j][kLegU] != stack.layers[nstep - 1].dims[j][kLegD])
        throw InputError(stack.layers.front().where(j) + ": " + opt::kTaylor.name() +
                         " takes the Hamiltonian, whose output and input legs must match (" +
                         std::to_string(stack.layers.front().dims[j][kLegU]) + " and " +
                         std::to_string(stack.layers[nstep - 1].dims[j][kLegD]) + ")");
  return stack;
}

// The --measure operators and the --overlap reference against the state; their basis notes.
void check_observables(const EvolveOptions& eo, const std::vector<TrainReader>& readers, const Stack& stack,
                       std::vector<std::string>& notes) {
  for (std::size_t i = eo.run.trains.size(); i < readers.size(); ++i) {
    const TrainInfo& t = readers[i].info();
    const bool is_ref = eo.overlap && i + 1 == readers.size();
    if (t.kind != (is_ref ? TrainKind::kMps : TrainKind::kMpo))
      throw UsageError(t.where() + (is_ref ? ": --overlap takes an MPS" : ": --measure takes MPOs"));
    if (t.length() != stack.length())
      throw InputError(t.where() + " has " + std::to_string(t.length()) + " sites but the state has " +
                       std::to_string(stack.length()));
    for (std::size_t j = 0; j < t.length(); ++j)
      if (t.dims[j][kLegU] != stack.up_dim(j) || (!is_ref && t.dims[j][kLegD] != stack.up_dim(j)))
        throw InputError(t.where(j) + ": physical legs do not match the state's (" + std::to_string(stack.up_dim(j)) + ")");
    Stack pair;
    pair.layers = {t, stack.layers.back()};
    for (const auto& n : check_bases(pair)) notes.push_back(n);
  }
}

EvolveInputs open_inputs(const EvolveOptions& eo) {
  const RunOptions& ro = eo.run;
  EvolveInputs in;
  in.readers = open_trains(input_refs(eo));
  in.stack = step_stack(eo, in.readers);
  in.notes = check_bases(in.stack);
  check_observables(eo, in.readers, in.stack, in.notes);
  in.dtype = working_dtype(ro, in.stack);
  for (std::size_t i = ro.trains.size(); i < in.readers.size(); ++i) in.dtype = promote(in.dtype, in.readers[i].info().dtype());
  // A site operator with complex entries (Sy) is measured on a complex state.
  if (!eo.measure_site_ops.empty() && !state_operators(eo.site, eo.measure_site_ops, in.stack.layers.back()).is_real)
    in.dtype = complex_for_weights(ro, in.dtype, "a site operator measured has complex entries; use a complex type");
  // Real time: the weights (-i dt)^m/m! are complex.
  if (eo.taylor > 0 && !eo.imaginary_time)
    in.dtype = complex_for_weights(ro, in.dtype, "a " + opt::kTaylor.name() + " step in real time has complex weights (-i dt)^m/m!; " +
                                                 "use a complex type or " + opt::kImaginaryTime.name());
  return in;
}

// The time one step stands for, when --dt does not say: the step's own, where generate step
// recorded it on the one MPO of the step that carries one (several could be half steps or the
// same step twice: their sum is not the step's time for certain, so --dt must say it). A --dt
// that differs from the recorded value is named, and kept.
void take_step_dt(EvolveOptions& eo, const Stack& stack, Reporter& reporter) {
  if (eo.taylor > 0) return;
  std::vector<const TrainInfo*> carrying;
  for (std::size_t i = 0; i + 1 < stack.layers.size(); ++i)
    if (stack.layers[i].step_dt != 0) carrying.push_back(&stack.layers[i]);
  if (carrying.size() != 1) {
    if (carrying.size() > 1 && eo.dt == 0)
      reporter.note(std::to_string(carrying.size()) + " of the step's MPOs record their time step: the time column counts "
                    "steps (" + opt::kDt.name() + " says what one stands for)");
    return;
  }
  const TrainInfo& step = *carrying.front();
  auto text = [](double v) {
    char out[32];
    std::snprintf(out, sizeof out, "%.15g", v);
    return std::string(out);
  };
  if (eo.dt == 0) {
    eo.dt = step.step_dt;
    reporter.note("one step is dt = " + text(step.step_dt) + " in the time column, as " + step.where() + " records (" +
                  opt::kDt.name() + " overrides it)");
  } else if (std::abs(eo.dt - step.step_dt) > 1e-12 * std::abs(step.step_dt)) {
    reporter.warning(opt::kDt.name() + " " + text(eo.dt) + " labels the time column, but " + step.where() +
                     " records a step of dt = " + text(step.step_dt));
  }
}

}  // namespace

std::vector<Plan> plan_evolve(const EvolveOptions& eo) {
  check_options(eo);
  const EvolveInputs in = open_inputs(eo);
  if (eo.taylor == 0) return dry_run_plans(eo.run, {&in.stack}, in.dtype);
  const std::vector<Stack> stacks = taylor_stacks(in.stack, eo.taylor);
  std::vector<const Stack*> terms;
  for (const auto& s : stacks) terms.push_back(&s);
  return dry_run_plans(eo.run, terms, in.dtype);
}

std::string evolve_symmetry_note(const EvolveOptions& eo) {
  check_options(eo);
  const EvolveInputs in = open_inputs(eo);
  return plan_symmetry_note(choose_symmetry(eo.run, {&in.stack}));
}

EvolveSummary evolve(const EvolveOptions& given, Reporter& reporter, const std::function<void()>& check_interrupt) {
  memory::configure_allocator();
  check_options(given);
  // Under MPI (rank_share.hpp): steps the ranks cannot share are rank 0's; the others wait.
  if (world_ranks().size() > 1) {
    if (const std::string alone = why_not_spread(given.run, given.taylor > 0 ? given.taylor + 1 : 1); !alone.empty()) {
      if (world_ranks().rank() != 0) return EvolveSummary{};
      reporter.note(alone + "; the other " + std::to_string(world_ranks().size() - 1) + " rank(s) wait");
    }
  }
  EvolveOptions eo = given;
  RunOptions& ro = eo.run;
  std::vector<std::string> files;
  for (const auto& r : input_refs(eo)) files.push_back(r.file);
  check_output_not_input(ro.output, files);
  if (eo.resume) {
    if (!std::filesystem::exists(ro.output))
      throw InputError(ro.output + ": no such file to resume (--resume continues an evolution's output)");
    // Another command's output is exit 3 before any work; the file is read in a child first, as
    // every input is (read_probe.hpp).
    probe_files({ro.output}, [](const std::string& file) {
      (void)read_evolve_record(file);
      return std::string();
    });
    const auto resumed = read_result_record(ro.output);
    if (eo.seed_of_resumed) {
      ro.sweep.seed = resumed.log.seed;
      reporter.note("seed " + std::to_string(ro.sweep.seed) + " (the evolution's, from " + ro.output + ")");
    }
    // Without --dt the evolution continues with its own (given or taken from the step).
    if (eo.dt == 0 && eo.taylor == 0 && resumed.log.evolve) eo.dt = resumed.log.evolve->dt;
  } else {
    check_output_path(ro.output, ro.force);
  }
  EvolveInputs in = open_inputs(eo);
  if (!eo.resume) take_step_dt(eo, in.stack, reporter);
  note_working_dtype(ro, in.dtype, reporter);
  return visit_dtype(in.dtype, [&](auto zero) {
    return run_evolution<decltype(zero)>(eo, in.readers, in.stack, in.notes, reporter, check_interrupt);
  });
}

}  // namespace srcc
