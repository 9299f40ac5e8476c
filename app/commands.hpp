#pragma once
// The subcommands. Each returns normally on success and throws an srcc::Error otherwise. The
// products and evolve are in commands.cpp; the commands that look at files or make them
// (distance, expect, collect, inspect, generate) in file_commands.cpp.
#include <string>

#include "cli.hpp"
#include "srcc/srcc.hpp"

namespace srcc::app {

// `command`: apply, compress or truncate.
void cmd_product(const Cli& cli, const ProductArgs& args, const std::string& command, const std::string& command_line);
void cmd_evolve(const Cli& cli, const std::string& command_line);
void cmd_distance(const Cli& cli);
void cmd_expect(const Cli& cli);
void cmd_collect(const Cli& cli);
void cmd_inspect(const Cli& cli);
void cmd_generate(const Cli& cli);

}  // namespace srcc::app
