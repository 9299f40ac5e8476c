#pragma once
// Writing HDF5 files of our schema (docs/FORMAT.md): trains, attributes and the compound log
// tables. The low level of io/result_writer.hpp, which decides what goes where.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "srcc/core/tensor.hpp"
#include "srcc/log/site_stats.hpp"
#include "srcc/log/transfer_log.hpp"
#include "srcc/train/layout.hpp"

namespace srcc {

// A named column of a table of numbers (an evolution's trajectory): int64 or float64 values.
struct TableColumn {
  std::string name;
  bool integer = false;        // stored as int64 (exact up to 2^53 here), else float64
  std::vector<double> values;  // one per row
};

class H5Writer {
 public:
  enum class Open { kCreate, kExisting };
  // kCreate: creates `path`, which must not exist; kExisting: opens the HDF5 file `path` to add
  // to it. `label` names the file in the transfer log and in errors (the final name, not the
  // temporary one).
  H5Writer(const std::string& path, std::string label, Open mode = Open::kCreate);
  ~H5Writer();
  H5Writer(const H5Writer&) = delete;
  H5Writer& operator=(const H5Writer&) = delete;

  // Writes cores given in (l, r, u, d) order as a train in quimb layout ("lrp"/"lrud", boundary
  // bonds dropped, d dropped for an MPS): a reshape, no copy. Logs a "file write" per site.
  template <class T>
  void write_train(const std::string& group, TrainKind kind, const std::vector<Tensor<T>>& cores,
                   TransferLog& log, const std::string& what);
  // The same one site at a time: the group and its attributes, then site j of n.
  void begin_train(const std::string& group, TrainKind kind, std::size_t sites);
  template <class T>
  void write_site(const std::string& group, TrainKind kind, std::size_t j, std::size_t sites,
                  const Tensor<T>& core, TransferLog& log, const std::string& what);

  void create_group(const std::string& group);
  bool exists(const std::string& path) const;  // an object at this absolute path
  void remove(const std::string& path);        // unlinks it (its space is not reclaimed)
  void string_attr(const std::string& object, const std::string& name, const std::string& value);
  void int_attr(const std::string& object, const std::string& name, std::int64_t value);
  void double_attr(const std::string& object, const std::string& name, double value);
  // An int64 dataset of `shape` (row-major values) at `path`.
  void int_array(const std::string& path, const std::vector<std::int64_t>& values, const std::vector<std::size_t>& shape);

  void write_transfers(const std::string& path, const std::vector<TransferRecord>& rows);
  void write_sites(const std::string& path, const std::vector<SiteStats>& rows);
  // A compound table, one member per column in order (all columns of one length).
  void write_table(const std::string& path, const std::vector<TableColumn>& columns);

  // The open file's HDF5 identifier, for io/ writers of other formats (tenpy_writer, itensor_writer).
  long long file_id() const;
  // A second name for the object at `existing` (a hard link): /result beside a train written in
  // another library's layout.
  void link(const std::string& existing, const std::string& name);
  // The object at `path` of another HDF5 file copied, with everything under it, to the same path
  // here; returns the bytes its datasets store, or nothing when `file` has no such object.
  // `check` (when given) sees the opened source (its hid_t) first and may throw to refuse it.
  std::optional<std::uint64_t> copy_from(const std::string& file, const std::string& path,
                                         const std::function<void(long long)>& check = {});

  void flush();  // hands everything written so far to the operating system
  void close();  // flushes and closes; errors become OutputError

  struct Impl;  // HDF5 state; defined in h5_writer.cpp only

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace srcc
