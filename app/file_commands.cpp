#include "commands.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>

#include "common_flags.hpp"
#include "progress_reporter.hpp"
#include "signals.hpp"
#include "srcc/srcc.hpp"

namespace srcc::app {

void cmd_distance(const Cli& cli) {
  const Comparison c = distance(DistanceOptions{.a = train_ref(cli, cli.distance_trains.at(0)),
                                                .b = train_ref(cli, cli.distance_trains.at(1)),
                                                .charges = parse_symmetry(cli.common.symmetry) == Symmetry::kAuto,
                                                .exec = execution(cli.common)});
  if (cli.common.json) {
    std::printf("%s\n", c.to_json().c_str());
  } else {
    char cosine[64] = "undefined (‖A‖ = 0)";
    if (!std::isnan(c.cosine.real())) std::snprintf(cosine, sizeof cosine, "%.6e%+.6ei", c.cosine.real(), c.cosine.imag());
    std::printf("‖A − B‖/‖B‖ = %s   ‖A‖ = %s   ‖B‖ = %s   ⟨A|B⟩/(‖A‖‖B‖) = %s\n",
                format_log10(c.log10_relative_distance).c_str(), format_log10(c.log10_norm_a).c_str(),
                format_log10(c.log10_norm_b).c_str(), cosine);
  }
}

namespace {

// One line per bond: the entropies, the Schmidt rank and, with `largest` > 0, that many of the
// largest Schmidt values (each with its charge when the state carries charges).
void print_entanglement(const std::vector<BondEntanglement>& bonds, std::size_t largest) {
  const bool renyi = bonds.front().renyi.has_value();
  std::printf("bond  %-12s%s  rank%s\n", "S_vN", renyi ? "  S_renyi     " : "", largest ? "  largest Schmidt values" : "");
  for (const auto& b : bonds) {
    std::printf("%4zu  %.10f", b.bond, b.von_neumann);
    if (renyi) std::printf("  %.10f", *b.renyi);
    std::printf("  %4zu", b.rank());
    std::vector<std::pair<double, const Charge*>> values;
    for (const auto& s : b.sectors)
      for (double v : s.values) values.emplace_back(v, &s.charge);
    std::sort(values.begin(), values.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
    for (std::size_t i = 0; i < std::min(largest, values.size()); ++i) {
      std::printf("  %.6e", values[i].first);
      const Charge& q = *values[i].second;
      for (std::size_t c = 0; c < q.size(); ++c) std::printf("%s%lld", c ? "," : " [", q[c]);
      if (!q.empty()) std::printf("]");
    }
    std::printf("\n");
  }
}

// ⟨O_i⟩ as a column per operator, a row per site; each correlation as its matrix (real parts,
// with the imaginary ones below where any is not zero).
void print_local(const ExpectResult& r) {
  // Imaginary parts are shown where any is more than rounding of the largest value (--json has them all).
  auto complex_anywhere = [](const std::vector<cdouble>& v) {
    double most = 0;
    for (const auto& x : v) most = std::max(most, std::abs(x));
    return std::any_of(v.begin(), v.end(), [&](const cdouble& x) { return std::abs(x.imag()) > 1e-12 * most; });
  };
  if (!r.site_values.empty()) {
    std::printf("site");
    for (const auto& sv : r.site_values) std::printf("  %18s", ("⟨" + sv.op + "⟩").c_str());
    std::printf("\n");
    for (std::size_t i = 0; i < r.site_values.front().values.size(); ++i) {
      std::printf("%4zu", i);
      for (const auto& sv : r.site_values) {
        const cdouble v = sv.values[i];
        if (complex_anywhere(sv.values)) std::printf("  %+.9f%+.3gi", v.real(), v.imag());
        else std::printf("  %+16.12f", v.real());
      }
      std::printf("\n");
    }
  }
  for (const auto& c : r.correlations) {
    std::printf("%s⟨%s_i %s_j⟩, i and j from %zu (rows i, columns j)%s\n", c.connected ? "connected " : "", c.a.c_str(),
                c.b.c_str(), c.first, complex_anywhere(c.values) ? "; imaginary parts after" : "");
    for (int part = 0; part < (complex_anywhere(c.values) ? 2 : 1); ++part)
      for (std::size_t i = 0; i < c.count; ++i) {
        std::printf("%4zu", c.first + i);
        for (std::size_t j = 0; j < c.count; ++j) {
          const cdouble v = c.values[i * c.count + j];
          std::printf(" %+.6e", part == 0 ? v.real() : v.imag());
        }
        std::printf("\n");
      }
  }
}

}  // namespace

void cmd_expect(const Cli& cli) {
  const bool entropy = cli.expect_entropy || cli.expect_renyi > 0 || cli.expect_spectrum > 0;
  if (cli.expect_renyi == 1) throw UsageError("--renyi 1 is the von Neumann entropy (--entropy)");
  StateRequest state{.entropy = entropy,
                     .renyi_alpha = cli.expect_renyi > 0 ? std::optional<double>(cli.expect_renyi) : std::nullopt,
                     .site = cli.expect_site,
                     .site_ops = cli.expect_site_ops,
                     .connected = cli.expect_connected,
                     .trace = cli.expect_trace};
  for (const auto& pair : cli.expect_correlations) {
    const auto comma = pair.find(',');
    if (comma == std::string::npos || comma == 0 || comma + 1 == pair.size())
      throw UsageError(opt::kCorrelation.name() + " '" + pair + "': give two operators, A,B (Sz,Sz or Cdag,C)");
    state.correlations.emplace_back(pair.substr(0, comma), pair.substr(comma + 1));
  }
  if (!cli.expect_range.empty()) {
    const auto colon = cli.expect_range.find(':');
    const auto whole = [&](const std::string& t, std::size_t& v) {
      std::size_t used = 0;
      try {
        v = std::stoul(t, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      return !t.empty() && used == t.size() && t[0] != '-';
    };
    if (colon == std::string::npos || !whole(cli.expect_range.substr(0, colon), state.first) ||
        !whole(cli.expect_range.substr(colon + 1), state.last) || state.last == 0)
      throw UsageError(opt::kCorrelationSites.name() + " '" + cli.expect_range + "': give I:J, the sites I … J−1 (0:10)");
    if (state.correlations.empty()) throw UsageError(opt::kCorrelationSites.name() + ": only with " + opt::kCorrelation.name());
  }
  if (cli.expect_connected && state.correlations.empty())
    throw UsageError(opt::kConnected.name() + ": only with " + opt::kCorrelation.name());
  if (!cli.expect_site.empty() && !state.local())
    throw UsageError(opt::kSiteType.name() + ": only with " + opt::kSiteOp.name() + " or " + opt::kCorrelation.name());
  if (cli.expect_trains.size() < 2 && !state.whole() && !state.trace)
    throw UsageError("expect needs an operator after the state (or --entropy, --site-op, --correlation, --trace)");
  ExpectOptions o{.ket = train_ref(cli, cli.expect_trains.at(0)),
                  .variance = cli.expect_variance,
                  .charges = parse_symmetry(cli.common.symmetry) == Symmetry::kAuto,
                  .state = state,
                  .exec = execution(cli.common)};
  for (std::size_t i = 1; i < cli.expect_trains.size(); ++i) o.ops.push_back(train_ref(cli, cli.expect_trains[i]));
  if (!cli.expect_bra.empty()) o.bra = train_ref(cli, cli.expect_bra);
  const bool bra = o.bra.has_value();
  const ExpectResult r = expect(o);
  for (const auto& note : r.notes) spdlog::warn("{}", note);
  if (cli.common.json) {
    std::printf("%s\n", r.to_json().c_str());
    return;
  }
  if (r.trace) {
    const bool positive = r.trace->imag() == 0 && r.trace->real() > 0;
    std::printf("Tr ρ = %s%s\n", format_log10(r.log10_trace).c_str(),
                positive ? "" : (" × (" + std::to_string(r.trace->real()) + (r.trace->imag() < 0 ? "" : "+") +
                                 std::to_string(r.trace->imag()) + "i)").c_str());
  } else {
    std::printf("‖ψ‖ = %s%s\n", format_log10(r.log10_norm).c_str(),
                r.overlap ? (", ⟨φ|ψ⟩ = " + std::to_string(r.overlap->real()) + (r.overlap->imag() < 0 ? "" : "+") +
                             std::to_string(r.overlap->imag()) + "i").c_str()
                          : "");
  }
  for (const auto& e : r.rows) {
    std::printf("%s  %s = %.12g%+.3gi", e.op.c_str(), bra ? "⟨φ|O|ψ⟩" : r.trace ? "Tr(ρO)/Tr ρ" : "⟨O⟩", e.value.real(),
                e.value.imag());
    if (e.variance) std::printf("  variance %.6g", *e.variance);
    std::printf("\n");
  }
  if (!r.entanglement.empty()) print_entanglement(r.entanglement, cli.expect_spectrum);
  print_local(r);
}

void cmd_collect(const Cli& cli) {
  if (!cli.collect_csv.empty()) {
    check_output_not_input(cli.collect_csv, cli.collect_files);
    check_output_path(cli.collect_csv, cli.common.force);
  }
  probe_files(cli.collect_files, [](const std::string& file) {
    (void)read_result_record(file);
    return std::string();
  });
  std::vector<ResultRecord> records;
  for (const auto& file : cli.collect_files) {
    poll_interrupt();
    records.push_back(read_result_record(file));
  }
  const std::string out_text = cli.common.json ? result_table_json(records) : result_table_csv(records);
  if (cli.collect_csv.empty()) {
    std::fputs(out_text.c_str(), stdout);
    return;
  }
  // The same rules as every output: never over an existing file without --force, written
  // beside it and renamed into place only when complete.
  OutputFile out(cli.collect_csv, cli.common.force);
  {
    std::ofstream f(out.temp_path());
    f << out_text;
    f.flush();
    if (!f) throw ResourceError(cli.collect_csv + ": cannot write the table (disk full?)");
  }
  out.commit();
}

namespace {

// An output's /log: which command made it, how, with what error estimate (text output only;
// --json lists trains).
void print_provenance(const std::string& file) {
  ResultRecord r;
  try {
    r = read_result_record(file);
  } catch (const InputError&) {
    return;  // no output of ours
  }
  const RunRecord& log = r.log;
  std::printf("/log  %s by src-compress %s at %s, %.3f s on %s (%lld threads)%s\n",
              log.command.empty() ? "a run" : log.command.c_str(), log.tool_version.c_str(), log.start_utc.c_str(),
              log.wall_seconds, log.devices.c_str(), static_cast<long long>(log.threads),
              r.complete ? "" : "; not complete");
  std::printf("  method %s, mode %s, chi %g, cutoff %g, tol %g, oversample %g, seed %llu; estimated relative error "
              "%.2e, norm %s\n",
              log.method.c_str(), r.mode.c_str(), r.chi, r.cutoff, r.tol, r.oversample,
              static_cast<unsigned long long>(log.seed), log.error_estimate, format_magnitude(r.log10_norm).c_str());
  std::printf("  command: %s\n", printable(log.command_line).c_str());
}

// An evolution's output: how far it got and the last row of its trajectory (text output only;
// --json lists trains).
void print_trajectory(const std::string& file) {
  EvolveRecord rec;
  try {
    rec = read_evolve_record(file);
  } catch (const InputError&) {
    return;  // no evolution's output
  }
  std::printf("%s  %lld of %lld steps%s\n", h5names::kTrajectory, static_cast<long long>(rec.log.evolve->steps_done),
              static_cast<long long>(rec.log.evolve->steps),
              rec.complete ? "" : " (a checkpoint: continue with evolve --resume)");
  if (rec.trajectory.empty() || rec.trajectory.front().values.empty()) return;
  std::string last = "  last row:";
  for (const auto& c : rec.trajectory) {
    char v[96];
    std::snprintf(v, sizeof v, c.integer ? "  %s %.0f" : "  %s %.10g", c.name.c_str(), c.values.back());
    last += v;
  }
  std::printf("%s\n", last.c_str());
}

}  // namespace

namespace {

// One train of inspect's list: printed, or with `json` returned as a JSON object.
std::string describe_train(const ListedTrain& listed, bool json) {
  const std::string format(train_format_name(listed.format));
  if (!listed.info) {
    if (json) {
      JsonObject o;
      o.add("group", listed.group).add("format", format).add("refused", listed.refused);
      return o.str();
    }
    std::printf("%s  not read (format %s)\n", listed.group.c_str(), format.c_str());
    return "";
  }
  const TrainInfo& t = *listed.info;
  // Bonds that do not chain, outer bonds that are not 1: what a product would refuse (most
  // often a wrong layout), said here before any run.
  std::string warning;
  try {
    validate_stack(Stack{{t}});
  } catch (const InputError& e) {
    warning = e.what();
  }
  std::vector<std::size_t> bonds, phys;
  for (std::size_t j = 0; j + 1 < t.length(); ++j) bonds.push_back(t.dims[j][kLegR]);
  for (const auto& d : t.dims) phys.push_back(d[kLegU]);
  // The charges its file gives its physical indices (a run keeps them: docs/ALGORITHM.md,
  // "Charges"), site 0's as an example: "[1, -1]", or one list per index for several charges.
  const std::optional<PhysicalCharges> charges = train_charges(t);
  std::string site0 = "[";
  if (charges && !charges->up.empty())
    for (const Charge& q : charges->up.front())
      site0 += (site0.size() > 1 ? ", " : "") + (q.size() == 1 ? std::to_string(q.front()) : json_array(std::vector<long long>(q)));
  site0 += "]";
  if (json) {
    JsonObject o;
    o.add("group", t.group)
        .add("format", format)
        .add("type", std::string(train_kind_name(t.kind)))
        .add("layout", t.layout)
        .add("length", t.length())
        .add_raw("bonds", json_array(bonds))
        .add_raw("phys", json_array(phys))
        .add("max_bond", t.max_bond())
        .add("dtype", std::string(dtype_name(t.dtype())));
    if (charges) o.add("charges", charges->rule.name()).add_raw("site0_charges", site0);
    if (t.step_dt != 0) o.add("step_dt", t.step_dt);
    if (!warning.empty()) o.add("warning", warning);
    return o.str();
  }
  std::printf("%s  %s  length %zu  layout %s  %s  max bond %zu  format %s\n", t.group.c_str(),
              std::string(train_kind_name(t.kind)).c_str(), t.length(), t.layout.c_str(),
              std::string(dtype_name(t.dtype())).c_str(), t.max_bond(), format.c_str());
  std::printf("  bonds %s\n  phys  %s\n", json_array(bonds).c_str(), json_array(phys).c_str());
  if (charges) std::printf("  charges %s, site 0's physical indices %s\n", charges->rule.name().c_str(), site0.c_str());
  if (t.step_dt != 0) std::printf("  a time step of dt %.15g (evolve's time column takes it)\n", t.step_dt);
  if (!warning.empty()) {
    std::printf("  warning: %s\n", printable(warning).c_str());
    spdlog::warn("{}", printable(warning));
  }
  return "";
}

}  // namespace

void cmd_inspect(const Cli& cli) {
  const TrainRef ref = parse_train_ref(cli.inspect_file);
  const std::string& file = ref.file;
  probe_files({file}, [](const std::string& f) {
    (void)list_trains(f);
    for (const auto& read : {std::function<void()>([&] { (void)read_evolve_record(f); }),
                             std::function<void()>([&] { (void)read_result_record(f); })}) {
      try {
        read();
      } catch (const InputError&) {
      }
    }
    return std::string();
  });
  auto trains = list_trains(file);
  if (!ref.group.empty()) {
    std::erase_if(trains, [&](const ListedTrain& t) { return t.group != ref.group; });
    if (trains.empty()) {
      (void)TrainReader(ref);  // names what is wrong: no such group, not a train, …
      throw InputError(file + ":" + ref.group + ": not a train");
    }
  }
  std::string json = "[";
  for (const auto& listed : trains) {
    const std::string entry = describe_train(listed, cli.common.json);
    if (!entry.empty()) json += (json.size() > 1 ? ", " : "") + entry;
  }
  if (cli.common.json) std::printf("%s]\n", json.c_str());
  else if (trains.empty()) std::printf("%s: no trains\n", file.c_str());
  if (!cli.common.json && (ref.group.empty() || ref.group == h5names::kResult)) {
    print_provenance(file);
    if (ref.group.empty()) print_trajectory(file);
  }
  // The whole list is shown; a train that cannot be read still makes it an input error.
  for (const auto& listed : trains)
    if (!listed.info) throw InputError(listed.refused);
}

void cmd_generate(const Cli& cli) {
  const auto& g = cli.generate;
  const auto& c = cli.common;
  WriteExampleOptions o;
  const Example kind = parse_example(g.kind);
  o.example = ExampleOptions{.example = kind, .sites = g.sites, .bond = g.bond, .phys = g.phys,
                             .coupling = g.coupling,
                             .field = g.field.value_or(kind == Example::kXxz || kind == Example::kHubbard ? 0.0 : 1.0),
                             .delta = g.delta, .spread = g.spread, .total_charge = g.total_charge, .config = g.config,
                             .dt = g.dt,
                             .imaginary = g.imaginary, .dtype = resolve_dtype(c.dtype), .site = g.site, .pattern = g.pattern,
                             .terms = g.terms, .terms_file = g.terms_file, .translate = g.translate,
                             .interaction = g.interaction, .from = g.from,
                             .approximation = g.approximation == "I" ? StepApproximation::kFirst : StepApproximation::kSecond,
                             .order = g.order,
                             .basis_of = g.basis_of};
  o.output = parse_train_ref(g.output);
  o.force = c.force;
  o.host_memory = execution(c).host_memory;
  if (example_row(o.example.example).random) o.example.seed = resolve_seed(c);
  std::size_t sites = 0;
  const TrainRef ref = write_example(o, &sites);
  if (c.json) {
    JsonObject j;
    j.add("output", ref.file).add("group", ref.group).add("kind", g.kind).add("seed", o.example.seed)
        .add("sites", static_cast<std::uint64_t>(sites));
    std::printf("%s\n", j.str().c_str());
  } else if (!c.quiet) {
    std::printf("wrote %s:%s (%s, %zu sites)\n", ref.file.c_str(), ref.group.c_str(), g.kind.c_str(), sites);
  }
}

}  // namespace srcc::app
