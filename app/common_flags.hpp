#pragma once
// What the subcommands take from the common flags (cli.hpp), each conversion in one place.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "cli.hpp"
#include "srcc/srcc.hpp"

namespace srcc::app {

// The sweep's options with the flags kept as text converted (--oversample, --method).
SweepOptions sweep_options(const CommonFlags& c);
// --seed; or derived from --seed-base and --task-id ($SLURM_ARRAY_TASK_ID); or drawn (and said).
std::uint64_t resolve_seed(const CommonFlags& c);
// A train argument with the --format the user gave.
TrainRef train_ref(const Cli& cli, const std::string& arg);
// apply --term's words as the sum's terms: each occurrence is WEIGHT TRAIN…; a word with blanks
// whose first is a weight is a whole term (a config file's `term = "0.5 a.h5 psi.h5"`).
std::vector<RunTerm> sum_terms(const Cli& cli, const std::vector<std::vector<std::string>>& words);
// --dtype: empty for auto.
std::optional<DType> resolve_dtype(const std::string& name);
// --skip-existing: true (and said so) when `output` is complete. An output that crashes the
// HDF5 library counts as incomplete: it is replaced.
bool skipped(const CommonFlags& c, const std::string& output);
// What every run takes from the common flags: working type, threads, budgets, device.
// Threads (logged with their source), budgets, device and scratch from the common flags.
Execution execution(const CommonFlags& c);
void execution_options(const CommonFlags& c, RunOptions& o);
// check_interrupt, and --max-time's deadline checked where signals are: between sites.
// The deadline is `o`'s (execution_options parsed --max-time); the message quotes the flag as given.
std::function<void()> interrupt_check(const CommonFlags& c, const RunOptions& o, const std::string& what);

}  // namespace srcc::app
