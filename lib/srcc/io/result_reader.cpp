#include "srcc/io/result_reader.hpp"

#include <algorithm>
#include <filesystem>

#include "srcc/core/error.hpp"
#include "srcc/io/h5_handle.hpp"
#include "srcc/io/h5_names.hpp"

namespace srcc {

using h5::Handle;

bool is_complete_result(const std::string& path) {
  h5::quiet_errors();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec) || H5Fis_hdf5(path.c_str()) <= 0) return false;
  Handle f(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!f.valid() || H5Lexists(f.get(), h5names::kLog, H5P_DEFAULT) <= 0) return false;
  Handle log(H5Gopen2(f.get(), h5names::kLog, H5P_DEFAULT), H5Gclose);
  if (!log.valid() || !h5::has_attr(log.get(), h5names::kAttrComplete)) return false;
  return h5::read_int_attr(log.get(), h5names::kAttrComplete, path) == 1;
}

ResultRecord read_result_record(const std::string& path) {
  h5::quiet_errors();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw InputError(path + ": no such file");
  if (H5Fis_hdf5(path.c_str()) <= 0) throw InputError(path + ": not an HDF5 file");
  Handle f(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (H5Lexists(f.get(), h5names::kLog, H5P_DEFAULT) <= 0 ||
      H5Lexists(f.get(), h5names::kResult, H5P_DEFAULT) <= 0)
    throw InputError(path + ": not a src-compress output (no /result and /log)");
  ResultRecord r;
  r.file = path;
  const std::string where = path + ":" + h5names::kLog;
  Handle log(H5Gopen2(f.get(), h5names::kLog, H5P_DEFAULT), H5Gclose);
  auto str = [&](const char* name) {
    return h5::has_attr(log.get(), name) ? h5::read_string_attr(log.get(), name, where) : "";
  };
  auto num = [&](const char* name) {
    return h5::has_attr(log.get(), name) ? h5::read_double_attr(log.get(), name, where) : 0.0;
  };
  auto integer = [&](const char* name) {
    return h5::has_attr(log.get(), name) ? h5::read_int_attr(log.get(), name, where) : 0LL;
  };
  r.complete = integer(h5names::kAttrComplete) == 1;
  r.error_estimate = num(h5names::kAttrErrorEstimate);
  r.wall_seconds = num(h5names::kAttrWall);
  r.seed = static_cast<std::uint64_t>(integer(h5names::kAttrSeed));
  r.threads = integer(h5names::kAttrThreads);
  r.threads_source = str(h5names::kAttrThreadsSource);
  r.command_line = str(h5names::kAttrCommandLine);
  r.plan = str(h5names::kAttrPlan);

  Handle res(H5Gopen2(f.get(), h5names::kResult, H5P_DEFAULT), H5Gclose);
  const std::string rwhere = path + ":" + h5names::kResult;
  r.kind = h5::read_string_attr(res.get(), h5names::kAttrType, rwhere);
  r.sites = static_cast<std::size_t>(h5::read_int_attr(res.get(), h5names::kAttrLength, rwhere));
  for (std::size_t j = 0; j + 1 < r.sites; ++j) {
    Handle d(H5Dopen2(res.get(), std::to_string(j).c_str(), H5P_DEFAULT), H5Dclose);
    Handle space(H5Dget_space(d.get()), H5Sclose);
    hsize_t dims[4] = {0, 0, 0, 0};
    H5Sget_simple_extent_dims(space.get(), dims, nullptr);
    // Site 0 is stored without its left bond: its first axis is the right bond.
    r.bonds.push_back(static_cast<std::int64_t>(j == 0 ? dims[0] : dims[1]));
    r.max_bond = std::max(r.max_bond, r.bonds.back());
  }

  // Bytes by mechanism from the transfer log (just the two fields needed).
  Handle d(H5Dopen2(f.get(), h5names::kTransfers, H5P_DEFAULT), H5Dclose);
  if (d.valid()) {
    Handle space(H5Dget_space(d.get()), H5Sclose);
    const auto n = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space.get()));
    struct Row {
      char* mechanism;
      std::int64_t bytes;
    };
    Handle str_t(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(str_t.get(), H5T_VARIABLE);
    H5Tset_cset(str_t.get(), H5T_CSET_UTF8);
    Handle t(H5Tcreate(H5T_COMPOUND, sizeof(Row)), H5Tclose);
    H5Tinsert(t.get(), "mechanism", offsetof(Row, mechanism), str_t.get());
    H5Tinsert(t.get(), "bytes", offsetof(Row, bytes), H5T_NATIVE_INT64);
    std::vector<Row> rows(n);
    if (n > 0 && H5Dread(d.get(), t.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, rows.data()) >= 0) {
      for (const auto& row : rows) r.bytes_by_mechanism[row.mechanism ? row.mechanism : ""] += row.bytes;
      H5Dvlen_reclaim(t.get(), space.get(), H5P_DEFAULT, rows.data());
    }
  }
  return r;
}

}  // namespace srcc
