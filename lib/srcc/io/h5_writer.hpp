#pragma once
// Writing HDF5 files of our schema: trains, /log attributes and the compound log tables.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "srcc/core/tensor.hpp"
#include "srcc/log/site_stats.hpp"
#include "srcc/log/transfer_log.hpp"
#include "srcc/train/layout.hpp"

namespace srcc {

class H5Writer {
 public:
  // Creates `path` (which must not exist) for writing; `label` names the file in the transfer
  // log and in errors (the final name, not the temporary one).
  H5Writer(const std::string& path, std::string label);
  ~H5Writer();
  H5Writer(const H5Writer&) = delete;
  H5Writer& operator=(const H5Writer&) = delete;

  // Writes cores given in (l, r, u, d) order as a train in quimb layout ("lrp"/"lrud", boundary
  // bonds dropped, d dropped for an MPS): a reshape, no copy. Logs a "file write" per site.
  template <class T>
  void write_train(const std::string& group, TrainKind kind, const std::vector<Tensor<T>>& cores,
                   TransferLog& log, const std::string& what);

  void create_group(const std::string& group);
  void string_attr(const std::string& object, const std::string& name, const std::string& value);
  void int_attr(const std::string& object, const std::string& name, std::int64_t value);
  void double_attr(const std::string& object, const std::string& name, double value);

  void write_transfers(const std::string& path, const std::vector<TransferRecord>& rows);
  void write_sites(const std::string& path, const std::vector<SiteStats>& rows);

  void close();  // flushes and closes; errors become OutputError

  struct Impl;  // HDF5 state; defined in h5_writer.cpp only

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace srcc
