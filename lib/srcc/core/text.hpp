#pragma once
// Text from outside (file names, config files, attribute values) made safe to show: a message
// on a terminal must not carry control bytes, and JSON must be valid UTF-8.
#include <cstddef>
#include <string>
#include <string_view>

namespace srcc {

// The length of the valid UTF-8 sequence at the start of `s` (1 … 4), 0 when the bytes there
// are not one (a stray continuation byte, an overlong or truncated sequence, a surrogate).
std::size_t utf8_sequence(std::string_view s);

// `s` with control bytes and bytes that are not UTF-8 written as \xNN (a tab and a newline
// kept): what a message may quote from an untrusted source.
std::string printable(std::string_view s);

// A number given by its base-10 logarithm, printed like %.6e even beyond a double's range
// ("3.141593e-790"); "0" for −inf.
std::string format_log10(double log10_value);
// A magnitude known by its logarithm as %.6g where a double holds it comfortably ("28.1754"),
// else as format_log10 ("4.351201e-486").
std::string format_magnitude(double log10_value);

}  // namespace srcc
