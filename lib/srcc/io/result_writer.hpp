#pragma once
// The one way src-compress writes an HDF5 file (docs/FORMAT.md): everything goes to a temporary
// file beside the target, which is renamed into place only once complete, so an interrupted or
// failed run leaves no half-written file under the final name and never touches an existing
// one it was not allowed to replace. A run's output gets its train under /result and its record
// under /log, the flag /log@complete written last; `generate` adds a train to a new or an
// existing file.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "srcc/core/tensor.hpp"
#include "srcc/io/h5/h5_writer.hpp"
#include "srcc/io/run_record.hpp"
#include "srcc/log/site_stats.hpp"
#include "srcc/log/transfer_log.hpp"
#include "srcc/train/layout.hpp"
#include "srcc/train/sectors.hpp"

namespace srcc {

class FileLock;
class OutputFile;

class ResultWriter {
 public:
  enum class Mode {
    kNewFile,   // a new file; an existing one is replaced only with `force`
    kAddGroup,  // the existing file (if any) with one more group; an existing group of the same
                // name is replaced only with `force`
  };
  // Checks the target before any work (OutputError: exists without force, directory missing
  // or not writable). kAddGroup locks the existing file (io/file_lock.hpp: OutputError when
  // another program has it open for writing), checks it in a child process (InputError when it
  // would crash HDF5) and copies it to the temporary one.
  ResultWriter(const std::string& path, bool force, Mode mode = Mode::kNewFile,
               const std::string& group = "");
  ~ResultWriter();  // without commit(): the temporary file is removed, the target untouched
  ResultWriter(const ResultWriter&) = delete;
  ResultWriter& operator=(const ResultWriter&) = delete;

  // A train in quimb layout under `group`; one "file write" row in `log` per site.
  template <class T>
  void write_train(const std::string& group, TrainKind kind, const std::vector<Tensor<T>>& cores,
                   TransferLog& log, const std::string& what);

  // The same with site j made by `site(j)` as it is written, sites 0 … n−1 in order: a train
  // held in another form (blocks) or made as it goes (`generate`) is never in memory all at once.
  template <class T>
  void write_train(const std::string& group, TrainKind kind, std::size_t sites,
                   const std::function<Tensor<T>(std::size_t)>& site, TransferLog& log, const std::string& what);

  // The result in another library's layout at `group` (the name of the template's group), from
  // the template train at template_group of template_file, with /result a second name for it
  // (and, for TeNPy, /log marked as a member its loader skips, once written).
  template <class T>
  void write_tenpy_train(const std::string& group, TrainKind kind, const SectorForm<T>& form,
                         const std::string& template_file, const std::string& template_group);
  template <class T>
  void write_itensor_train(const std::string& group, TrainKind kind, const std::vector<Tensor<T>>& cores,
                           const SectorForm<T>* form, const std::string& template_file,
                           const std::string& template_group);

  // A table of numbers at `path` (the trajectory of an evolution), with a `columns` attribute
  // (JSON: each column's name, unit and meaning).
  void write_table(const std::string& path, const std::vector<TableColumn>& columns,
                   const std::string& columns_json);
  // The object at `path` of `file` (an earlier version of this output) copied here; the bytes
  // its datasets store, or nothing when `file` has none. With `run_id`, only from a version that
  // run wrote (its /log@run_id, read from the same opening of the file as the copy): OutputError
  // when another run has replaced it meanwhile, so that a run never takes in another's data.
  std::optional<std::uint64_t> copy_from(const std::string& file, const std::string& path,
                                         const std::optional<std::string>& run_id = std::nullopt);
  // The charges of the train at `group` (written before), as our format's extension stores them.
  void write_charges(const std::string& group, const PhysicalCharges& charges);
  // The names of its sites' basis states (the `basis` attribute; nothing for an empty list).
  void write_basis(const std::string& group, const std::vector<std::string>& names);
  // A string attribute of an object written before.
  void string_attr(const std::string& object, const std::string& name, const std::string& value);
  void int_attr(const std::string& object, const std::string& name, std::int64_t value);
  void double_attr(const std::string& object, const std::string& name, double value);

  // /log: the run's attributes, /log/transfers from `log`, /log/sites; /log@complete last
  // (`complete` = 0 marks a checkpoint of an evolution that is not finished).
  void write_log(const RunRecord& run, const TransferLog& log, bool complete = true);

  const std::string& path() const;  // the final name

  // Closes the file, makes it durable and moves it into place.
  void commit();

 private:
  void train_written();  // its blocks sent to the disk (write_train)
  // copy_from of this run's own output, refused with `refusal` when another run wrote it last.
  std::optional<std::uint64_t> copy_owned_from(const std::string& file, const std::string& path,
                                               const std::string& run_id, const std::string& refusal);
  std::unique_ptr<FileLock> lock_;  // kAddGroup: held until after the rename
  bool tenpy_ = false;               // the result is a TeNPy train: /log must say TeNPy skips it
  std::unique_ptr<OutputFile> out_;
  std::unique_ptr<H5Writer> h5_;
};

// The current time as ISO 8601 UTC with seconds ("2026-12-01T05:00:00Z"), as /log records it.
std::string utc_now();

}  // namespace srcc
