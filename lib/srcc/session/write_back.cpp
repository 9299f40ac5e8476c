#include "srcc/session/write_back.hpp"

#include <chrono>

#include "srcc/core/error.hpp"
#include "srcc/core/options.hpp"
#include "srcc/io/itensor_writer.hpp"
#include "srcc/io/tenpy_writer.hpp"
#include "srcc/sweep/sector_form.hpp"

namespace srcc {

namespace {

template <class T>
void log_written(TransferLog& log, const std::vector<Tensor<T>>& cores, const std::string& target,
                 double seconds) {
  const std::string dt(dtype_name(dtype_of<T>));
  for (std::size_t j = 0; j < cores.size(); ++j)
    log.add({.what = "result site", .site = static_cast<std::int64_t>(j), .mechanism = mechanism::kFileWrite,
             .source = "host", .target = target + "/" + std::to_string(j), .dtype_from = dt, .dtype_to = dt,
             .bytes = static_cast<std::int64_t>(cores[j].bytes()),
             .seconds = seconds / static_cast<double>(cores.size())});
}

}  // namespace

void check_write_back(TrainFormat format, const TrainInfo& state) {
  if (format == TrainFormat::kAuto || format == TrainFormat::kSrcc || state.format == format) return;
  throw UsageError(opt::kOutputFormat.name() + " " + std::string(train_format_name(format)) +
                   ": the state " + state.where() + " is a " + std::string(train_format_name(state.format)) +
                   " train; a result is written in another library's layout from a state of that "
                   "library (its sites are the template)");
}

template <class T>
WriteBack write_back(ResultWriter& out, TrainFormat format, const TrainInfo& state, TrainKind kind,
                     std::vector<Tensor<T>> cores, Kernels<T>& kernels, TransferLog& log) {
  const auto t0 = std::chrono::steady_clock::now();
  auto since = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  check_write_back(format, state);
  WriteBack wb;
  wb.group = "/" + state.group.substr(state.group.rfind('/') + 1);
  if (wb.group == "/" || wb.group == "/result" || wb.group == "/log") wb.group = "/psi";
  // Each cut keeps at most the bond the result has there.
  std::vector<std::size_t> bonds(cores.size(), 1);
  for (std::size_t j = 1; j < cores.size(); ++j) bonds[j] = cores[j].shape[kLegL];
  const SectorTemplate tpl = format == TrainFormat::kTenpy
                                 ? tenpy_sector_template(state.file, state.group, kind)
                                 : itensor_sector_template(state.file, state.group, kind);
  if (format == TrainFormat::kTenpy) {
    // TeNPy wants B form with Schmidt values, charged or not.
    const SectorForm<T> form = sector_form(std::move(cores), tpl, bonds, kernels);
    wb.dropped_weight = form.dropped_weight;
    wb.truncated_weight = form.truncated_weight;
    out.write_tenpy_train(wb.group, kind, form, state.file, state.group);
    log_written(log, form.cores, "file:" + out.path() + ":" + wb.group + "/tensors", since());
    return wb;
  }
  if (tpl.rule.count() == 0) {  // dense ITensor: the cores as they are
    out.write_itensor_train<T>(wb.group, kind, cores, nullptr, state.file, state.group);
    log_written(log, cores, "file:" + out.path() + ":" + wb.group, since());
    return wb;
  }
  const SectorForm<T> form = sector_form(cores, tpl, bonds, kernels);
  wb.dropped_weight = form.dropped_weight;
  wb.truncated_weight = form.truncated_weight;
  out.write_itensor_train(wb.group, kind, cores, &form, state.file, state.group);
  log_written(log, form.cores, "file:" + out.path() + ":" + wb.group, since());
  return wb;
}

#define SRCC_INSTANTIATE(T)                                                                       \
  template WriteBack write_back(ResultWriter&, TrainFormat, const TrainInfo&, TrainKind,        \
                                std::vector<Tensor<T>>, Kernels<T>&, TransferLog&);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
