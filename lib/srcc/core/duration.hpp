#pragma once
// Durations given by users (--max-time): plain seconds ("90"), units ("90s", "15m", "2h",
// "1h30m", "1d"), or SLURM's forms ("MM:SS", "HH:MM:SS", "D-HH:MM:SS").
#include <string>
#include <string_view>

namespace srcc {

// Seconds; throws UsageError naming `what` and listing the accepted forms.
double parse_duration(std::string_view text, std::string_view what);
// "0.35 s", "42 s", "12 min", "3.5 h", "2.1 days": a time for a message.
std::string format_seconds(double seconds);

}  // namespace srcc
