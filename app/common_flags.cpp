#include "common_flags.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "signals.hpp"

namespace srcc::app {

SweepOptions sweep_options(const CommonFlags& c) {
  SweepOptions s = c.sweep;
  s.oversample = parse_oversample(c.oversample);
  s.method = parse_method(c.method);
  return s;
}

std::uint64_t resolve_seed(const CommonFlags& c) {
  if (c.seed) return *c.seed;
  if (c.seed_base) {
    std::uint64_t task = 0;
    if (c.task_id) {
      task = *c.task_id;
    } else if (const char* id = std::getenv("SLURM_ARRAY_TASK_ID"); id && *id) {
      task = std::strtoull(id, nullptr, 10);
    } else {
      throw UsageError(opt::kSeedBase.name() + ": needs --task-id or $SLURM_ARRAY_TASK_ID");
    }
    const std::uint64_t s = Rng::derive_seed(*c.seed_base, task);
    spdlog::info("seed {} (from --seed-base {} and task {})", s, *c.seed_base, task);
    return s;
  }
  const std::uint64_t s = Rng::random_seed();
  spdlog::info("seed {} (drawn at random; pass --seed {} to repeat this run)", s, s);
  return s;
}

namespace {

std::vector<std::string> split_words(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

}  // namespace

std::vector<RunTerm> sum_terms(const Cli& cli, const std::vector<std::vector<std::string>>& words) {
  std::vector<RunTerm> terms;
  std::vector<std::string> current;
  auto flush = [&] {
    if (current.empty()) return;
    RunTerm t;
    t.weight = parse_weight(current.front());
    if (current.size() == 1)
      throw UsageError("--term " + current.front() + ": no trains after the weight (--term WEIGHT TRAIN...)");
    for (std::size_t i = 1; i < current.size(); ++i) t.trains.push_back(train_ref(cli, current[i]));
    terms.push_back(std::move(t));
    current.clear();
  };
  for (const auto& group : words) {
    for (const auto& word : group) {
      const auto tokens = split_words(word);
      // Several words, the first a weight: a whole term (else a path with blanks).
      const bool whole = tokens.size() > 1 && read_weight(tokens.front());
      if (!whole) {
        current.push_back(word);
        continue;
      }
      flush();
      current = tokens;
      flush();
    }
    flush();
  }
  return terms;
}

// A train argument with the --format the user gave.
TrainRef train_ref(const Cli& cli, const std::string& arg) {
  TrainRef ref = parse_train_ref(arg);
  ref.format = parse_train_format(cli.common.format, opt::kFormat.name());
  return ref;
}

std::optional<DType> resolve_dtype(const std::string& name) {
  if (name == "auto") return std::nullopt;
  return parse_dtype(name, opt::kDtype.name());
}

// --skip-existing: true (and said so) when `output` is complete. An output that crashes the
// HDF5 library counts as incomplete: it is replaced.
bool skipped(const CommonFlags& c, const std::string& output) {
  bool complete = false;
  try {
    probe_files({output}, [](const std::string& file) {
      (void)is_complete_result(file);
      return std::string();
    });
    complete = is_complete_result(output);
  } catch (const InputError& e) {
    spdlog::warn("{}", e.what());
  }
  if (!complete) return false;
  spdlog::info("{}: complete output exists; skipped (--skip-existing)", output);
  if (c.json) {
    JsonObject j;
    j.add("output", output).add("skipped", true);
    std::printf("%s\n", j.str().c_str());
  } else if (!c.quiet) {
    std::printf("skipped %s: complete output exists\n", output.c_str());
  }
  return true;
}

// What every run takes from the common flags: working type, threads, budgets, device.
Execution execution(const CommonFlags& c) {
  Execution e;
  const ThreadChoice threads = resolve_threads(c.threads);
  e.threads = threads.threads;
  e.threads_source = threads.source;
  share_threads(e);
  if (!c.host_memory.empty()) e.host_memory = parse_size(c.host_memory, opt::kHostMemory.name());
  if (!c.gpu_memory.empty()) e.gpu_memory = parse_size(c.gpu_memory, opt::kGpuMemory.name());
  e.scratch_dir = c.scratch_dir;
  e.device = parse_device(c.device);
  return e;
}

void execution_options(const CommonFlags& c, RunOptions& o) {
  o.dtype = resolve_dtype(c.dtype);
  o.exec = execution(c);
  spdlog::info("{} threads ({})", o.exec.threads, o.exec.threads_source);
  if (!c.max_time.empty()) o.max_time_seconds = parse_duration(c.max_time, opt::kMaxTime.name());
  // Over MPI ranks rank 0 keeps the time: its stop (and evolve's checkpoint) ends the others.
  if (world_ranks().rank() != 0) o.max_time_seconds = 0;
}

// check_interrupt, and --max-time's deadline checked where signals are: between sites.
std::function<void()> interrupt_check(const CommonFlags& c, const RunOptions& o, const std::string& what) {
  if (c.max_time.empty() || o.max_time_seconds <= 0) return check_interrupt;  // none, or not this rank's
  const double limit = o.max_time_seconds;
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(limit));
  return [deadline, text = c.max_time, what] {
    check_interrupt();
    if (std::chrono::steady_clock::now() > deadline)
      throw InterruptedError(opt::kMaxTime.name() + " " + text + " reached", "; stopped cleanly" + what);
  };
}

}  // namespace srcc::app
