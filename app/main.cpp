// src-compress: the command-line front end. Parses flags, calls the library, maps errors to
// the documented exit codes (see kExitCodeHelp in cli.cpp).
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>

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

}  // namespace

int main(int argc, char** argv) {
  srcc::app::Cli cli;
  try {
    srcc::app::check_config_files(argc, argv);
    cli.app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return cli.app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return cli.app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return cli.app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "src-compress: %s\nRun with --help for usage.\n",
                 srcc::printable(srcc::app::explain_parse_error(e, argc, argv)).c_str());
    return srcc::exit_code(srcc::ErrorKind::kUsage);
  } catch (const srcc::UsageError& e) {
    std::fprintf(stderr, "src-compress: %s\n", srcc::printable(e.what()).c_str());
    return srcc::exit_code(srcc::ErrorKind::kUsage);
  }
  setup_logging(cli.common);
  srcc::app::install_signal_handlers();
  try {
    if (*cli.apply_cmd) srcc::app::cmd_product(cli, cli.apply, join_command_line(argc, argv));
    else if (*cli.compress_cmd)
      srcc::app::cmd_product(cli, cli.compress, join_command_line(argc, argv));
    else if (*cli.truncate_cmd)
      srcc::app::cmd_product(cli, cli.truncate, join_command_line(argc, argv), srcc::Method::kSvd);
    else if (*cli.evolve_cmd) srcc::app::cmd_evolve(cli, join_command_line(argc, argv));
    else if (*cli.distance_cmd) srcc::app::cmd_distance(cli);
    else if (*cli.expect_cmd) srcc::app::cmd_expect(cli);
    else if (*cli.collect_cmd) srcc::app::cmd_collect(cli);
    else if (*cli.inspect_cmd) srcc::app::cmd_inspect(cli);
    else if (*cli.generate_cmd) srcc::app::cmd_generate(cli);
    return 0;
  } catch (const srcc::Error& e) {
    spdlog::error("{}", srcc::printable(e.what()));
    return srcc::exit_code(e.kind());
  } catch (const std::bad_alloc&) {
    spdlog::error("out of memory");
    return srcc::exit_code(srcc::ErrorKind::kResource);
  } catch (const std::exception& e) {
    spdlog::error("internal error: {}", e.what());
    return 1;
  }
}
