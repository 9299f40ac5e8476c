#include "srcc/backend/gemm_profile.hpp"

#include <algorithm>
#include <cstdio>

#include "srcc/core/json.hpp"

namespace srcc {

namespace {

char op_name(int op) { return op == 0 ? 'N' : op == 1 ? 'T' : 'C'; }

double rate(const GemmTiming& t) { return t.seconds > 0 ? t.flops / t.seconds / 1e9 : 0.0; }

}  // namespace

std::vector<GemmTiming> GemmProfile::rows() const {
  std::vector<GemmTiming> out;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [shape, t] : rows_) out.push_back(t);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const GemmTiming& a, const GemmTiming& b) { return a.seconds > b.seconds; });
  return out;
}

std::vector<std::string> GemmProfile::table(const std::vector<GemmTiming>& rows,
                                            std::size_t most) {
  std::vector<std::string> lines{
      "GEMM profile (most time first; \"task\": one thread's share, timed on that thread)",
      "  ops        m ×      n ×      k   batch    calls   seconds  GFLOP/s"};
  char buf[160];
  double rest_seconds = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const GemmTiming& t = rows[i];
    if (i >= most) {
      rest_seconds += t.seconds;
      continue;
    }
    const GemmShape& s = t.shape;
    std::snprintf(buf, sizeof buf, "  %c%c  %7zu × %6zu × %6zu  %6zu  %7llu  %8.4f  %7.1f%s",
                  op_name(s.op_a), op_name(s.op_b), s.m, s.n, s.k, s.batch,
                  static_cast<unsigned long long>(t.calls), t.seconds, rate(t),
                  s.in_task ? "  task" : "");
    lines.emplace_back(buf);
  }
  if (rows.size() > most) {
    std::snprintf(buf, sizeof buf, "  … %zu more shapes, %.4f s", rows.size() - most,
                  rest_seconds);
    lines.emplace_back(buf);
  }
  return lines;
}

std::string GemmProfile::json(const std::vector<GemmTiming>& rows) {
  std::string out = "[";
  for (const auto& t : rows) {
    const auto& s = t.shape;
    JsonObject o;
    o.add("ops", std::string{op_name(s.op_a), op_name(s.op_b)})
        .add("m", s.m)
        .add("n", s.n)
        .add("k", s.k)
        .add("batch", s.batch)
        .add("in_task", s.in_task)
        .add("calls", static_cast<std::int64_t>(t.calls))
        .add("seconds", t.seconds)
        .add("gflop", t.flops / 1e9)
        .add("gflops_per_second", rate(t));
    if (out.size() > 1) out += ',';
    out += o.str();
  }
  return out + "]";
}

}  // namespace srcc
