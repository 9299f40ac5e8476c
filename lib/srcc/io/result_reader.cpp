#include "srcc/io/result_reader.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <vector>

#include "srcc/core/error.hpp"
#include "srcc/core/interrupt.hpp"
#include "srcc/core/json.hpp"
#include "srcc/io/format_train.hpp"
#include "srcc/io/h5/h5_handle.hpp"
#include "srcc/io/h5/h5_names.hpp"
#include "srcc/io/train_discovery.hpp"

namespace srcc {

using h5::Handle;

namespace {

bool complete_flag_set(const std::string& path) {
  Handle f = h5::open_for_reading(path);  // InputError: not complete (is_complete_result)
  if (H5Lexists(f.get(), h5names::kLog, H5P_DEFAULT) <= 0) return false;
  Handle log(H5Gopen2(f.get(), h5names::kLog, H5P_DEFAULT), H5Gclose);
  if (!log.valid() || !h5::has_attr(log.get(), h5names::kAttrComplete)) return false;
  return h5::read_int_attr(log.get(), h5names::kAttrComplete, path) == 1;
}

}  // namespace

bool is_complete_result(const std::string& path) {
  // Complete means provably complete: a damaged file (an attribute of the wrong shape, say)
  // is incomplete, and --skip-existing replaces it.
  try {
    return complete_flag_set(path);
  } catch (const InputError&) {
    return false;
  }
}

namespace {

// Bytes moved by mechanism from /log/transfers (just the two fields needed), after checking the
// table's shape and member types: a damaged table is reported, not converted blindly.
std::map<std::string, std::int64_t> read_bytes_by_mechanism(hid_t file, const std::string& path) {
  std::map<std::string, std::int64_t> out;
  if (H5Lexists(file, h5names::kLog, H5P_DEFAULT) <= 0 ||
      H5Lexists(file, h5names::kTransfers, H5P_DEFAULT) <= 0)
    return out;
  const std::string where = path + ":" + h5names::kTransfers;
  Handle d(H5Dopen2(file, h5names::kTransfers, H5P_DEFAULT), H5Dclose);
  if (!d.valid()) throw InputError(where + ": not a dataset");
  Handle space(H5Dget_space(d.get()), H5Sclose);
  Handle ftype(H5Dget_type(d.get()), H5Tclose);
  if (!space.valid() || H5Sget_simple_extent_ndims(space.get()) != 1 || !ftype.valid() ||
      H5Tget_class(ftype.get()) != H5T_COMPOUND)
    throw InputError(where + ": not a one-dimensional table of records");
  auto member_class = [&](const char* name) {
    const int i = H5Tget_member_index(ftype.get(), name);
    return i < 0 ? H5T_NO_CLASS : H5Tget_member_class(ftype.get(), static_cast<unsigned>(i));
  };
  if (member_class(h5names::kColMechanism) != H5T_STRING || member_class(h5names::kColBytes) != H5T_INTEGER)
    throw InputError(where + ": columns 'mechanism' (string) and 'bytes' (integer) are missing");
  const hssize_t n = H5Sget_simple_extent_npoints(space.get());
  // A real log has a few rows per site and layer; more than this is a damaged or crafted file.
  constexpr hssize_t kMaxRows = hssize_t{1} << 24;
  if (n < 0 || n > kMaxRows) throw InputError(where + ": " + std::to_string(n) + " rows is not a plausible log");
  // We write the log uncompressed; a compressed one could inflate beyond any bound in HDF5.
  Handle dcpl(H5Dget_create_plist(d.get()), H5Pclose);
  if (dcpl.valid() && H5Pget_nfilters(dcpl.get()) > 0)
    throw InputError(where + ": the table is stored compressed, which src-compress never writes; "
                             "not read");
  struct Row {
    char* mechanism;
    std::int64_t bytes;
  };
  Handle str_t = h5::vlen_string_type();
  Handle t(H5Tcreate(H5T_COMPOUND, sizeof(Row)), H5Tclose);
  H5Tinsert(t.get(), h5names::kColMechanism, offsetof(Row, mechanism), str_t.get());
  H5Tinsert(t.get(), h5names::kColBytes, offsetof(Row, bytes), H5T_NATIVE_INT64);
  // In blocks of rows, so that what a read holds is bounded whatever the table declares.
  constexpr hsize_t kBlock = hsize_t{1} << 16;
  std::vector<Row> rows;
  for (hsize_t first = 0; first < static_cast<hsize_t>(n); first += kBlock) {
    poll_interrupt();
    hsize_t count = std::min<hsize_t>(kBlock, static_cast<hsize_t>(n) - first);
    rows.assign(static_cast<std::size_t>(count), Row{nullptr, 0});
    Handle mem(H5Screate_simple(1, &count, nullptr), H5Sclose);
    if (H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, &first, nullptr, &count, nullptr) < 0 ||
        H5Dread(d.get(), t.get(), mem.get(), space.get(), H5P_DEFAULT, rows.data()) < 0)
      throw InputError(where + ": cannot read the table");
    for (const auto& row : rows) out[row.mechanism ? row.mechanism : ""] += row.bytes;
    H5Dvlen_reclaim(t.get(), mem.get(), H5P_DEFAULT, rows.data());
  }
  return out;
}

}  // namespace

namespace {

// What the plan and the summary say of a run: its mode and accuracy options, the result's
// norm and the run's peak memory.
void describe_run(ResultRecord& r) {
  const std::string& plan = r.log.plan_json;
  const std::string& summary = r.log.summary_json;
  // A sum's plan is {"terms": [plan, …]}: one "sites" per term.
  std::int64_t plans = 0;
  for (std::size_t at = plan.find("\"sites\":"); at != std::string::npos; at = plan.find("\"sites\":", at + 1)) ++plans;
  r.terms = std::max<std::int64_t>(plans, 1);
  r.fit_sweeps = static_cast<std::int64_t>(json_number_field(summary, "fit_sweeps").value_or(0.0));
  auto field = [&](const char* key) { return json_number_field(plan, key).value_or(0.0); };
  r.chi = field("chi");
  r.tol = field("tol");
  r.oversample = field("oversample");
  r.cutoff = field("cutoff");
  r.mode = r.log.command == "truncate" ? "svd" : r.tol > 0 ? "tolerance" : r.oversample > 0 ? "oversampled" : "plain";
  r.norm = json_number_field(summary, "norm").value_or(0.0);
  r.log10_norm = json_number_field(summary, "log10_norm").value_or(std::log10(r.norm));
  r.peak_rss_bytes = static_cast<std::int64_t>(json_number_field(summary, "peak_rss_bytes").value_or(0.0));
}

}  // namespace

ResultRecord read_result_record(const std::string& path) {
  Handle f = h5::open_for_reading(path);
  if (H5Lexists(f.get(), h5names::kLog, H5P_DEFAULT) <= 0 ||
      H5Lexists(f.get(), h5names::kResult, H5P_DEFAULT) <= 0)
    throw InputError(path + ": not a src-compress output (no /result and /log)");
  ResultRecord r;
  r.file = path;
  const std::string where = path + ":" + h5names::kLog;
  Handle log(H5Gopen2(f.get(), h5names::kLog, H5P_DEFAULT), H5Gclose);
  r.complete = h5::has_attr(log.get(), h5names::kAttrComplete) && h5::read_int_attr(log.get(), h5names::kAttrComplete, where) == 1;
  r.log = read_run_record(log.get(), where);
  describe_run(r);

  const std::string rwhere = path + ":" + h5names::kResult;
  const TrainFormat format = detect_format(f.get(), h5names::kResult, rwhere);
  if (format == TrainFormat::kTenpy || format == TrainFormat::kItensor) {
    // Written in another library's layout: its own reader describes it.
    const PinnedFile pin(path);
    const TrainInfo info = open_format_train(f.get(), pin, h5names::kResult, format)->info();
    r.kind = std::string(train_kind_name(info.kind));
    r.sites = info.length();
    for (std::size_t j = 0; j + 1 < info.length(); ++j) {
      r.bonds.push_back(static_cast<std::int64_t>(info.dims[j][kLegR]));
      r.max_bond = std::max(r.max_bond, r.bonds.back());
    }
    r.bytes_by_mechanism = read_bytes_by_mechanism(f.get(), path);
    return r;
  }
  Handle res(H5Gopen2(f.get(), h5names::kResult, H5P_DEFAULT), H5Gclose);
  if (!res.valid()) throw InputError(rwhere + ": not a group");
  r.kind = h5::read_string_attr(res.get(), h5names::kAttrType, rwhere);
  const long long length = h5::read_int_attr(res.get(), h5names::kAttrLength, rwhere);
  H5G_info_t ginfo;
  if (H5Gget_info(res.get(), &ginfo) < 0) throw InputError(rwhere + ": cannot list the group");
  if (length < 1 || static_cast<unsigned long long>(length) > ginfo.nlinks)
    throw InputError(rwhere + ": attribute 'length' is " + std::to_string(length) + " but the group has " +
                     std::to_string(ginfo.nlinks) + " members");
  r.sites = static_cast<std::size_t>(length);
  for (std::size_t j = 0; j + 1 < r.sites; ++j) {
    const std::string name = std::to_string(j), dwhere = rwhere + "/" + name;
    if (H5Lexists(res.get(), name.c_str(), H5P_DEFAULT) <= 0)
      throw InputError(dwhere + ": missing (attribute 'length' is " + std::to_string(length) + ")");
    Handle d(H5Dopen2(res.get(), name.c_str(), H5P_DEFAULT), H5Dclose);
    if (!d.valid()) throw InputError(dwhere + ": not a dataset");
    Handle space(H5Dget_space(d.get()), H5Sclose);
    const int rank = space.valid() ? H5Sget_simple_extent_ndims(space.get()) : -1;
    if (rank < 2 || rank > 4)
      throw InputError(dwhere + ": rank " + std::to_string(rank) + ", expected 2 to 4 (a site)");
    std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
    H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
    // Site 0 is stored without its left bond: its first axis is the right bond.
    r.bonds.push_back(static_cast<std::int64_t>(j == 0 ? dims[0] : dims[1]));
    r.max_bond = std::max(r.max_bond, r.bonds.back());
  }
  r.bytes_by_mechanism = read_bytes_by_mechanism(f.get(), path);
  return r;
}

EvolveRecord read_evolve_record(const std::string& path) {
  Handle f = h5::open_for_reading(path);
  const std::string where = path + ":" + h5names::kLog;
  if (H5Lexists(f.get(), h5names::kLog, H5P_DEFAULT) <= 0)
    throw InputError(path + ": not an output of src-compress evolve (no /log)");
  Handle log(H5Gopen2(f.get(), h5names::kLog, H5P_DEFAULT), H5Gclose);
  EvolveRecord r;
  r.log = read_run_record(log.get(), where);
  if (!r.log.evolve)
    throw InputError(path + ": an output of src-compress " +
                     (r.log.command.empty() ? std::string("apply, compress or truncate") : r.log.command) +
                     ", not of evolve: nothing to resume");
  r.complete = h5::has_attr(log.get(), h5names::kAttrComplete) && h5::read_int_attr(log.get(), h5names::kAttrComplete, where) == 1;
  // What an evolution must have written (a missing one is a damaged file, not a default).
  for (const char* name : {h5names::kAttrSteps, h5names::kAttrStepsDone, h5names::kAttrFingerprint})
    if (!h5::has_attr(log.get(), name)) throw InputError(where + ": attribute '" + std::string(name) + "' is missing");
  if (H5Lexists(f.get(), h5names::kStates, H5P_DEFAULT) > 0) {
    Handle states(H5Gopen2(f.get(), h5names::kStates, H5P_DEFAULT), H5Gclose);
    if (!states.valid()) throw InputError(path + ":" + h5names::kStates + ": not a group");
    H5Literate(states.get(), H5_INDEX_NAME, H5_ITER_INC, nullptr,
               [](hid_t, const char* name, const H5L_info_t*, void* out) -> herr_t {
                 char* end = nullptr;
                 const long long k = std::strtoll(name, &end, 10);
                 static_cast<std::vector<long long>*>(out)->push_back(end != name && *end == '\0' ? k : -1);
                 return 0;
               },
               &r.states);
    std::sort(r.states.begin(), r.states.end());
  }
  const std::string tw = path + ":" + h5names::kTrajectory;
  Handle d(H5Dopen2(f.get(), h5names::kTrajectory, H5P_DEFAULT), H5Dclose);
  if (!d.valid()) throw InputError(tw + ": missing");
  Handle t(H5Dget_type(d.get()), H5Tclose);
  Handle space(H5Dget_space(d.get()), H5Sclose);
  const hssize_t rows = H5Sget_simple_extent_npoints(space.get());
  if (H5Tget_class(t.get()) != H5T_COMPOUND || rows < 0 || rows > (hssize_t{1} << 24))
    throw InputError(tw + ": not a table of rows");
  const int members = H5Tget_nmembers(t.get());
  for (int m = 0; m < members; ++m) {
    char* name = H5Tget_member_name(t.get(), static_cast<unsigned>(m));
    TableColumn c;
    c.name = name ? name : "";
    H5free_memory(name);
    c.integer = H5Tget_member_class(t.get(), static_cast<unsigned>(m)) == H5T_INTEGER;
    c.values.resize(static_cast<std::size_t>(rows));
    Handle one(H5Tcreate(H5T_COMPOUND, sizeof(double)), H5Tclose);
    H5Tinsert(one.get(), c.name.c_str(), 0, H5T_NATIVE_DOUBLE);
    if (rows > 0 && H5Dread(d.get(), one.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, c.values.data()) < 0)
      throw InputError(tw + ": column " + c.name + " cannot be read");
    r.trajectory.push_back(std::move(c));
  }
  return r;
}

}  // namespace srcc
