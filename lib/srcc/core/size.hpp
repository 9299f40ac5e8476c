#pragma once
// Byte sizes given by users: "4096", "512MB", "4GiB", "1.5 TB" (B, KB, MB, GB, TB are powers of
// 10; KiB, MiB, GiB, TiB powers of 2; case-insensitive).
#include <cstdint>
#include <string>
#include <string_view>

namespace srcc {

// Throws UsageError naming `what` (the flag) and listing the accepted forms.
std::uint64_t parse_size(std::string_view text, std::string_view what);
// "1.50 GiB", "12.0 MiB", "512 B".
std::string format_size(std::uint64_t bytes);
// "67.1 GFLOP", "3.2 TFLOP", "850 MFLOP": an amount of floating-point work.
std::string format_flops(double flops);

}  // namespace srcc
