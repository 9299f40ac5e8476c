#include "srcc/session/write_back.hpp"

#include <chrono>

#include "srcc/core/error.hpp"
#include "srcc/core/options.hpp"
#include "srcc/io/itensor/itensor_writer.hpp"
#include "srcc/io/tenpy/tenpy_writer.hpp"
#include "srcc/sweep/sector_form.hpp"

namespace srcc {

namespace {

template <class T>
void log_written(TransferLog& log, const SectorForm<T>& form, const std::string& target, double seconds) {
  const std::string dt(dtype_name(dtype_of<T>));
  const std::size_t n = form.sites();
  for (std::size_t j = 0; j < n; ++j)
    log.add({.what = "result site", .site = static_cast<std::int64_t>(j), .mechanism = mechanism::kFileWrite,
             .source = "host", .target = target + "/" + std::to_string(j), .dtype_from = dt, .dtype_to = dt,
             .bytes = static_cast<std::int64_t>(form.core_bytes(j)), .seconds = seconds / static_cast<double>(n)});
}

}  // namespace

void check_write_back(TrainFormat format, const TrainInfo& state) {
  if (format == TrainFormat::kAuto || format == TrainFormat::kSrcc || state.format == format) return;
  throw UsageError(opt::kOutputFormat.name() + " " + std::string(train_format_name(format)) +
                   ": the state " + state.where() + " is a " + std::string(train_format_name(state.format)) +
                   " train; a result is written in another library's layout from a state of that "
                   "library (its sites are the template)");
}

namespace {

// One result being written back: where, on which template, and the conversion's start.
template <class T> struct Job {
  std::chrono::steady_clock::time_point t0;  // the conversion's start (reading the template included)
  ResultWriter& out;
  const TrainInfo& state;
  TrainKind kind;
  std::vector<Tensor<T>> cores;
  Kernels<T>& kernels;
  TransferLog& log;
  SectorTemplate tpl;
  std::vector<std::size_t> bonds;  // each cut keeps at most the bond the result has there
  std::optional<ChargedCores<T>> charged;
  WriteBack wb;
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); }
};

// The result's dense cores (taken), from its blocks where only they were given.
template <class T> std::vector<Tensor<T>> dense_cores(Job<T>& j) {
  if (j.cores.empty() && j.charged)
    for (const auto& c : j.charged->cores) j.cores.push_back(dense_of_blocks(j.kernels, c));
  return std::move(j.cores);
}

// The result in the template's block structure: from its own blocks where it was computed on the
// template's charges, else its dense cores split by sector (taken: the form holds the result).
// `schmidt`: the writer stores Schmidt values (else a charged result's B form is taken as it is).
template <class T> SectorForm<T> form_of(Job<T>& j, bool schmidt) {
  if (j.charged && fits_template(*j.charged, j.tpl))
    return charged_sector_form(j.kernels, std::move(*j.charged), j.tpl, schmidt);
  return sector_form(dense_cores(j), j.tpl, j.bonds, j.kernels);
}

// TeNPy wants B form with Schmidt values, charged or not.
template <class T> void tenpy_write(Job<T>& j) {
  const SectorForm<T> form = form_of(j, true);
  j.wb.dropped_weight = form.dropped_weight;
  j.wb.truncated_weight = form.truncated_weight;
  j.out.write_tenpy_train(j.wb.group, j.kind, form, j.state.file, j.state.group);
  log_written(j.log, form, "file:" + j.out.path() + ":" + j.wb.group + "/tensors", j.seconds());
}

// ITensor takes the cores as they are when dense, split by sector when the template has charges
// (B form, no Schmidt values: right-orthogonal from site 2, as it records).
template <class T> void itensor_write(Job<T>& j) {
  if (j.tpl.rule.count() == 0) {
    SectorForm<T> plain;
    plain.cores = dense_cores(j);
    j.out.template write_itensor_train<T>(j.wb.group, j.kind, plain.cores, nullptr, j.state.file, j.state.group);
    log_written(j.log, plain, "file:" + j.out.path() + ":" + j.wb.group, j.seconds());
    return;
  }
  const SectorForm<T> form = form_of(j, false);
  j.wb.dropped_weight = form.dropped_weight;
  j.wb.truncated_weight = form.truncated_weight;
  j.out.write_itensor_train(j.wb.group, j.kind, form.cores, &form, j.state.file, j.state.group);
  log_written(j.log, form, "file:" + j.out.path() + ":" + j.wb.group, j.seconds());
}

// The layouts a result is written back in, one row each: the template's charges and the writer.
template <class T> struct WriteBackRow {
  TrainFormat format;
  SectorTemplate (*template_of)(const std::string& file, const std::string& group, TrainKind kind);
  void (*write)(Job<T>&);
};

template <class T> const std::vector<WriteBackRow<T>>& write_back_table() {
  static const std::vector<WriteBackRow<T>> table = {
      {TrainFormat::kTenpy, tenpy_sector_template, tenpy_write<T>},
      {TrainFormat::kItensor, itensor_sector_template, itensor_write<T>},
  };
  return table;
}

}  // namespace

template <class T>
WriteBack write_back(ResultWriter& out, TrainFormat format, const TrainInfo& state, TrainKind kind,
                     std::vector<Tensor<T>> cores, Kernels<T>& kernels, TransferLog& log,
                     std::optional<ChargedCores<T>> charged) {
  const auto t0 = std::chrono::steady_clock::now();
  check_write_back(format, state);
  for (const auto& row : write_back_table<T>()) {
    if (row.format != format) continue;
    const std::size_t n = charged && cores.empty() ? charged->cores.size() : cores.size();
    std::vector<std::size_t> bonds(n, 1);
    for (std::size_t j = 1; j < n; ++j)
      bonds[j] = charged && cores.empty() ? charged->cores[j].legs[0].size() : cores[j].shape[kLegL];
    Job<T> job{t0, out, state, kind, std::move(cores), kernels, log, row.template_of(state.file, state.group, kind), std::move(bonds), std::move(charged), {}};
    job.wb.group = "/" + state.group.substr(state.group.rfind('/') + 1);
    if (job.wb.group == "/" || job.wb.group == "/result" || job.wb.group == "/log") job.wb.group = "/psi";
    row.write(job);
    return job.wb;
  }
  throw UsageError(opt::kOutputFormat.name() + " " + std::string(train_format_name(format)) +
                   ": a result is written back only in a library's layout (tenpy, itensor)");
}

#define SRCC_INSTANTIATE(T)                                                                       \
  template WriteBack write_back(ResultWriter&, TrainFormat, const TrainInfo&, TrainKind,        \
                                std::vector<Tensor<T>>, Kernels<T>&, TransferLog&, std::optional<ChargedCores<T>>);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
