#include "srcc/io/result_writer.hpp"

#include "srcc/io/srcc/srcc_charges.hpp"

#include <unistd.h>

#include <ctime>
#include <filesystem>

#include "srcc/core/error.hpp"
#include "srcc/io/file_lock.hpp"
#include "srcc/io/h5/h5_handle.hpp"
#include "srcc/io/h5/h5_names.hpp"
#include "srcc/io/h5/h5_writer.hpp"
#include "srcc/io/itensor/itensor_writer.hpp"
#include "srcc/io/output_file.hpp"
#include "srcc/io/read_probe.hpp"
#include "srcc/io/tenpy/tenpy_writer.hpp"

namespace srcc {

namespace fs = std::filesystem;

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

namespace {

// The read check of a file about to be updated: every object of it visited in a child process
// (read_probe.hpp), so that a file that would crash HDF5 is refused (exit 3) before we open it.
// The caller holds the file's lock, hence no HDF5 lock of our own here.
// A file HDF5 cannot open is no file to add to (OutputError, as for any output we cannot write).
void check_file_to_update(const std::string& path) {
  const auto answer = probe_files({path}, [](const std::string& file) {
    try {
      const PinnedFile pin(file);
      h5::Handle f = h5::open_pinned(pin, false);
      H5Ovisit(f.get(), H5_INDEX_NAME, H5_ITER_INC,
               [](hid_t, const char*, const H5O_info_t*, void*) -> herr_t { return 0; }, nullptr);
      return std::string();
    } catch (const InputError&) {
      return std::string("unreadable");
    }
  });
  if (!answer.front().empty())
    throw OutputError(path + ": HDF5 cannot open it for writing (not an HDF5 file, or damaged?)");
}

}  // namespace

ResultWriter::ResultWriter(const std::string& path, bool force, Mode mode,
                           const std::string& group) {
  std::error_code ec;
  const bool adding = mode == Mode::kAddGroup && fs::exists(path, ec);
  // Adding to a file replaces it by design; the group, not the file, is what --force guards.
  out_ = std::make_unique<OutputFile>(path, force || adding);
  if (!adding) {
    h5_ = std::make_unique<H5Writer>(out_->temp_path(), path);
    return;
  }
  if (!fs::is_regular_file(path, ec)) throw OutputError(path + ": not a regular file");
  // The new version replaces the file by a rename, which its permissions would not stop: a
  // file the user cannot write is refused as it would be if written in place.
  if (::access(path.c_str(), W_OK) != 0)
    throw OutputError(path + ": cannot add " + group + ": the file is not writable");
  // From here to the rename, concurrent updates wait for this one (file_lock.hpp).
  lock_ = std::make_unique<FileLock>(path);
  check_file_to_update(path);
  fs::copy_file(path, out_->temp_path(), ec);
  if (ec) throw OutputError(path + ": cannot copy it to add " + group + ": " + ec.message());
  h5_ = std::make_unique<H5Writer>(out_->temp_path(), path, H5Writer::Open::kExisting);
  if (h5_->exists(group)) {
    if (!force) throw OutputError(path + ":" + group + " exists (use --force to replace it)");
    h5_->remove(group);
  }
}

ResultWriter::~ResultWriter() = default;

template <class T>
void ResultWriter::write_train(const std::string& group, TrainKind kind,
                               const std::vector<Tensor<T>>& cores, TransferLog& log,
                               const std::string& what) {
  h5_->write_train(group, kind, cores, log, what);
  train_written();
}

template <class T>
void ResultWriter::write_train(const std::string& group, TrainKind kind, std::size_t sites,
                               const std::function<Tensor<T>(std::size_t)>& site, TransferLog& log,
                               const std::string& what) {
  h5_->begin_train(group, kind, sites);
  for (std::size_t j = 0; j < sites; ++j) h5_->write_site(group, kind, j, sites, site(j), log, what);
  train_written();
}

void ResultWriter::train_written() {
  // The train is most of the file: its blocks go to the disk while the log is written, so
  // that commit()'s fsync waits for little.
  h5_->flush();
  out_->start_writeback();
}

template <class T>
void ResultWriter::write_tenpy_train(const std::string& group, TrainKind kind, const SectorForm<T>& form,
                                     const std::string& template_file, const std::string& template_group) {
  srcc::write_tenpy_train(h5_->file_id(), group, kind, form, template_file, template_group, out_->final_path());
  h5_->link(group, h5names::kResult);
  tenpy_ = true;
}

template <class T>
void ResultWriter::write_itensor_train(const std::string& group, TrainKind kind,
                                       const std::vector<Tensor<T>>& cores, const SectorForm<T>* form,
                                       const std::string& template_file, const std::string& template_group) {
  srcc::write_itensor_train(h5_->file_id(), group, kind, cores, form, template_file, template_group,
                            out_->final_path());
  h5_->link(group, h5names::kResult);
}

void ResultWriter::write_table(const std::string& path, const std::vector<TableColumn>& columns,
                               const std::string& columns_json) {
  h5_->write_table(path, columns);
  h5_->string_attr(path, "columns", columns_json);
}

std::optional<std::uint64_t> ResultWriter::copy_from(const std::string& file, const std::string& path,
                                                     const std::optional<std::string>& run_id) {
  if (!run_id) return h5_->copy_from(file, path);
  const std::string refusal = " since this run last wrote it; not taking that run's " + path +
                              " into this one's output: use a different -o for concurrent runs";
  try {
    return copy_owned_from(file, path, *run_id, refusal);
  } catch (const InputError& e) {
    // Renamed over while this run opened it: only another run renames versions into place.
    if (std::string(e.what()).find(h5::kReplacedWhileOpened) == std::string::npos) throw;
    throw OutputError(file + " was replaced by another run (a new version renamed over it as this run opened it)" +
                      refusal);
  }
}

std::optional<std::uint64_t> ResultWriter::copy_owned_from(const std::string& file, const std::string& path,
                                                           const std::string& run_id, const std::string& refusal) {
  return h5_->copy_from(file, path, [&](long long from) {
    std::string found;
    if (H5Lexists(from, h5names::kLog, H5P_DEFAULT) > 0) {
      h5::Handle log(H5Gopen2(from, h5names::kLog, H5P_DEFAULT), H5Gclose);
      if (log.valid() && h5::has_attr(log.get(), h5names::kAttrRunId))
        found = h5::read_string_attr(log.get(), h5names::kAttrRunId, file + ":" + h5names::kLog);
    }
    if (found != run_id)
      throw OutputError(file + " was replaced by another run (run_id '" + found + "', this one's '" + run_id + "')" +
                        refusal);
  });
}

void ResultWriter::string_attr(const std::string& object, const std::string& name, const std::string& value) {
  h5_->string_attr(object, name, value);
}
void ResultWriter::write_basis(const std::string& group, const std::vector<std::string>& names) {
  if (names.empty()) return;
  std::string text;
  for (const auto& n : names) text += (text.empty() ? "" : ",") + n;
  string_attr(group, h5names::kAttrBasis, text);
}

void ResultWriter::write_charges(const std::string& group, const PhysicalCharges& charges) {
  write_srcc_charges(*h5_, group, charges);
}

void ResultWriter::int_attr(const std::string& object, const std::string& name, std::int64_t value) {
  h5_->int_attr(object, name, value);
}
void ResultWriter::double_attr(const std::string& object, const std::string& name, double value) {
  h5_->double_attr(object, name, value);
}

void ResultWriter::write_log(const RunRecord& r, const TransferLog& log, bool complete) {
  namespace n = h5names;
  H5Writer& w = *h5_;
  const std::string lg = n::kLog;
  w.create_group(lg);
  write_run_record(w, lg, r);
  if (tenpy_) mark_ignored_by_tenpy(h5_->file_id(), lg, out_->final_path());
  w.write_transfers(n::kTransfers, log.records());
  w.write_sites(n::kSites, r.sites);
  // Written last: a reader that sees complete = 1 knows every other part is there.
  w.int_attr(lg, n::kAttrComplete, complete ? 1 : 0);
}

const std::string& ResultWriter::path() const { return out_->final_path(); }

void ResultWriter::commit() {
  h5_->close();
  out_->commit();
}

#define SRCC_INSTANTIATE(T)                                                                 \
  template void ResultWriter::write_train(const std::string&, TrainKind,                  \
                                          const std::vector<Tensor<T>>&, TransferLog&,    \
                                          const std::string&);     \
  template void ResultWriter::write_train(const std::string&, TrainKind, std::size_t,         \
                                          const std::function<Tensor<T>(std::size_t)>&,      \
                                          TransferLog&, const std::string&);                  \
  template void ResultWriter::write_tenpy_train(const std::string&, TrainKind, const SectorForm<T>&, \
                                                const std::string&, const std::string&);      \
  template void ResultWriter::write_itensor_train(const std::string&, TrainKind,              \
                                                  const std::vector<Tensor<T>>&,              \
                                                  const SectorForm<T>*, const std::string&,   \
                                                  const std::string&);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc
