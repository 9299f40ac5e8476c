// src-compress: the command-line front end. Parses flags, calls the library, maps errors to
// the documented exit codes (see kExitCodeHelp in cli.cpp).
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <functional>
#include <string>
#include <string_view>

#include "cli.hpp"
#include "commands.hpp"
#include "signals.hpp"
#include "srcc/srcc.hpp"

namespace {

std::string join_command_line(int argc, char** argv) {
  std::string out;
  for (int i = 0; i < argc; ++i) {
    if (i) out += ' ';
    const std::string a = argv[i];
    const bool plain = !a.empty() && a.find_first_of(" \t\"'$\\") == std::string::npos;
    out += plain ? a : "'" + a + "'";
  }
  return out;
}

void setup_logging(const srcc::app::CommonFlags& c) {
  auto logger = spdlog::stderr_color_mt("src-compress");
  spdlog::set_default_logger(logger);
  spdlog::set_pattern("[%H:%M:%S] %^%l%$: %v");
  if (c.quiet) spdlog::set_level(spdlog::level::warn);
  else if (c.verbose >= 2) spdlog::set_level(spdlog::level::trace);
  else if (c.verbose == 1) spdlog::set_level(spdlog::level::debug);
  else spdlog::set_level(spdlog::level::info);
}

// Ends the run on an error: the message on stderr, with --json also one object on stdout
// ({"error": {"code", "kind", "message"}}) for the script that reads it; returns the exit code.
int fail(const char* kind, int code, const std::string& message, bool json, bool logging) {
  if (logging) spdlog::error("{}", srcc::printable(message));
  else std::fprintf(stderr, "src-compress: %s\n", srcc::printable(message).c_str());
  if (json) {
    srcc::JsonObject e;
    e.add("code", code).add("kind", std::string(kind)).add("message", message);
    srcc::JsonObject o;
    o.add_raw("error", e.str());
    std::printf("%s\n", o.str().c_str());
  }
  return code;
}

int fail(srcc::ErrorKind kind, const std::string& message, bool json, bool logging = true) {
  return fail(srcc::error_kind_name(kind), srcc::exit_code(kind), message, json, logging);
}

// --json before the flags are parsed (a parse error): as typed.
bool json_in(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::string_view(argv[i]) == "--json") return true;
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  // OpenBLAS chose its oldest kernels for a CPU it does not know: start again with the CPU's.
  srcc::restart_for_blas_kernels(argv);
  srcc::app::Cli cli;
  try {
    srcc::app::check_config_files(argc, argv);
    cli.app.parse(argc, argv);
    cli.settle();
  } catch (const CLI::CallForHelp& e) {
    return cli.app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return cli.app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return cli.app.exit(e);
  } catch (const CLI::ParseError& e) {
    const int code = fail(srcc::ErrorKind::kUsage, srcc::app::explain_parse_error(e, argc, argv), json_in(argc, argv), false);
    std::fprintf(stderr, "Run with --help for usage.\n");
    return code;
  } catch (const srcc::UsageError& e) {
    return fail(srcc::ErrorKind::kUsage, e.what(), json_in(argc, argv), false);
  }
  setup_logging(cli.common);
  if (const auto [command, unused] = cli.unused_flags(); !unused.empty())
    for (const auto& flag : unused) spdlog::warn("{} has no effect on {} (see src-compress {} --help)", flag, command, command);
  srcc::app::install_signal_handlers();
  const bool json = cli.common.json;
  // Under an MPI launcher (srcc/parallel/ranks.hpp) rank 0 speaks for the run; apply, compress
  // and evolve run on every rank (they may share the sweep), the other commands on rank 0.
  int rank = 0;
  std::string who;  // "rank 2: " before a message, where there are ranks
  try {
    rank = srcc::world_ranks().rank();
    if (srcc::world_ranks().size() > 1) who = "rank " + std::to_string(rank) + ": ";
  } catch (const srcc::Error& e) {
    return fail(e.kind(), e.what(), json);
  }
  if (rank != 0) spdlog::set_level(spdlog::level::err);
  const bool on_every_rank = (*cli.apply_cmd || *cli.compress_cmd || *cli.evolve_cmd) && !cli.common.dry_run;
  int code = 0;
  int signal = 0;
  std::function<void()> report = [] {};
  try {
    if (rank != 0 && !on_every_rank) {
      // waits for rank 0 below
    } else if (*cli.apply_cmd) srcc::app::cmd_product(cli, cli.apply, "apply", join_command_line(argc, argv));
    else if (*cli.compress_cmd)
      srcc::app::cmd_product(cli, cli.compress, "compress", join_command_line(argc, argv));
    else if (*cli.truncate_cmd)
      srcc::app::cmd_product(cli, cli.truncate, "truncate", join_command_line(argc, argv));
    else if (*cli.evolve_cmd) srcc::app::cmd_evolve(cli, join_command_line(argc, argv));
    else if (*cli.distance_cmd) srcc::app::cmd_distance(cli);
    else if (*cli.expect_cmd) srcc::app::cmd_expect(cli);
    else if (*cli.collect_cmd) srcc::app::cmd_collect(cli);
    else if (*cli.inspect_cmd) srcc::app::cmd_inspect(cli);
    else if (*cli.generate_cmd) srcc::app::cmd_generate(cli);
  } catch (const srcc::InterruptedError& e) {
    // Everything is cleaned up by now (the unwinding removed temporary files and scratch): a
    // signal ends the process as killed by it; --max-time exits 130.
    code = srcc::exit_code(e.kind());
    report = [&, kind = e.kind(), what = who + e.what()] { fail(kind, what, json); };
    signal = srcc::interrupt_signal();
  } catch (const srcc::Error& e) {
    code = srcc::exit_code(e.kind());
    report = [&, kind = e.kind(), what = who + e.what()] { fail(kind, what, json); };
  } catch (const std::bad_alloc&) {
    code = srcc::exit_code(srcc::ErrorKind::kResource);
    report = [&] { fail(srcc::ErrorKind::kResource, who + "out of memory", json); };
  } catch (const std::exception& e) {
    code = 1;
    report = [&, what = std::string(e.what())] { fail("internal", 1, who + "internal error: " + what, json, true); };
  }
  if (signal != 0) {
    // Under a launcher every rank got the signal: each ends by it, as one process does; rank 0
    // says what the stop left, the others give it the time to save it first.
    if (rank == 0) report();
    spdlog::default_logger()->flush();
    srcc::linger_after_signal(10.0);
    srcc::app::die_by_signal(signal);
  }
  srcc::RankEnding end;
  try {
    end = srcc::end_together(code, report);
  } catch (const srcc::InterruptedError&) {  // stopped while waiting for the other ranks
    srcc::app::die_by_signal(srcc::interrupt_signal());
  }
  if (end.report) report();
  srcc::finish_ranks();
  return end.code;
}
