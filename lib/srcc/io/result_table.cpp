#include "srcc/io/result_table.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>

#include "srcc/core/json.hpp"

namespace srcc {

namespace {

// A cell as CSV text and as a JSON value.
struct Cell {
  std::string csv, json;
};

std::string csv_quote(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return out + "\"";
}

std::string formatted(double v, const char* format) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

Cell integer(std::int64_t v) { return {std::to_string(v), std::to_string(v)}; }
Cell text(const std::string& v) { return {csv_quote(v), json_quote(v)}; }
// A word that needs no quoting in CSV (kind, method, …).
Cell word(const std::string& v) { return {v, json_quote(v)}; }
Cell real(double v, const char* format) {
  return {formatted(v, format), std::isfinite(v) ? formatted(v, "%.17g") : "null"};
}
Cell bytes(const ResultRecord& r, const char* mechanism) {
  const auto it = r.bytes_by_mechanism.find(mechanism);
  return integer(it == r.bytes_by_mechanism.end() ? 0 : it->second);
}

struct Column {
  const char* name;
  std::function<Cell(const ResultRecord&)> cell;
};

// Appended at the end only: scripts read the CSV by position too.
const std::vector<Column>& columns() {
  static const std::vector<Column> table = {
      {"file", [](const ResultRecord& r) { return text(r.file); }},
      {"complete", [](const ResultRecord& r) { return Cell{r.complete ? "1" : "0", r.complete ? "true" : "false"}; }},
      {"result", [](const ResultRecord& r) { return word(r.kind); }},
      {"sites", [](const ResultRecord& r) { return integer(static_cast<std::int64_t>(r.sites)); }},
      {"max_bond", [](const ResultRecord& r) { return integer(r.max_bond); }},
      {"bonds",
       [](const ResultRecord& r) {
         std::string list;
         for (auto b : r.bonds) list += (list.empty() ? "" : " ") + std::to_string(b);
         return Cell{list, json_array(r.bonds)};
       }},
      {"error_estimate", [](const ResultRecord& r) { return real(r.log.error_estimate, "%.6e"); }},
      {"wall_seconds", [](const ResultRecord& r) { return real(r.log.wall_seconds, "%.6f"); }},
      {"seed", [](const ResultRecord& r) { return Cell{std::to_string(r.log.seed), std::to_string(r.log.seed)}; }},
      {"threads", [](const ResultRecord& r) { return integer(r.log.threads); }},
      {"bytes_file_read", [](const ResultRecord& r) { return bytes(r, "file read"); }},
      {"bytes_file_write", [](const ResultRecord& r) { return bytes(r, "file write"); }},
      {"bytes_host_copy", [](const ResultRecord& r) { return bytes(r, "host copy"); }},
      {"bytes_device_move", [](const ResultRecord& r) { return bytes(r, "device move"); }},
      {"command_line", [](const ResultRecord& r) { return text(r.log.command_line); }},
      {"command", [](const ResultRecord& r) { return text(r.log.command); }},
      {"mode", [](const ResultRecord& r) { return text(r.mode); }},
      {"chi", [](const ResultRecord& r) { return real(r.chi, "%.0f"); }},
      {"tol", [](const ResultRecord& r) { return real(r.tol, "%.6g"); }},
      {"oversample", [](const ResultRecord& r) { return real(r.oversample, "%.6g"); }},
      {"cutoff", [](const ResultRecord& r) { return real(r.cutoff, "%.6g"); }},
      {"norm", [](const ResultRecord& r) { return real(r.norm, "%.17g"); }},
      {"log10_norm", [](const ResultRecord& r) { return real(r.log10_norm, "%.17g"); }},
      {"peak_rss_bytes", [](const ResultRecord& r) { return integer(r.peak_rss_bytes); }},
      {"method", [](const ResultRecord& r) { return word(r.log.method); }},
      {"terms", [](const ResultRecord& r) { return integer(r.terms); }},
      {"fit_sweeps", [](const ResultRecord& r) { return integer(r.fit_sweeps); }},
      {"steps", [](const ResultRecord& r) { return integer(r.log.evolve ? r.log.evolve->steps : 0); }},
      {"steps_done", [](const ResultRecord& r) { return integer(r.log.evolve ? r.log.evolve->steps_done : 0); }},
  };
  return table;
}

}  // namespace

std::vector<std::string> result_table_columns() {
  std::vector<std::string> names;
  for (const auto& c : columns()) names.emplace_back(c.name);
  return names;
}

std::string result_table_csv(const std::vector<ResultRecord>& records) {
  std::string out;
  for (const auto& c : columns()) out += std::string(out.empty() ? "" : ",") + c.name;
  out += "\n";
  for (const auto& r : records) {
    std::string line;
    for (const auto& c : columns()) line += (line.empty() ? "" : ",") + c.cell(r).csv;
    out += line + "\n";
  }
  return out;
}

std::string result_table_json(const std::vector<ResultRecord>& records) {
  std::string out = "[";
  for (const auto& r : records) {
    std::string o = "{";
    for (const auto& c : columns()) o += (o.size() > 1 ? ", " : "") + json_quote(c.name) + ": " + c.cell(r).json;
    out += (out.size() > 1 ? ", " : "") + o + "}";
  }
  return out + "]\n";
}

}  // namespace srcc
