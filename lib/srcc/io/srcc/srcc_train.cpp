#include "srcc/io/srcc/srcc_train.hpp"

#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstring>

#include "srcc/core/error.hpp"
#include "srcc/io/h5/h5_dataset.hpp"
#include "srcc/io/h5/h5_handle.hpp"
#include "srcc/io/h5/h5_names.hpp"

namespace srcc {

using h5::Handle;

namespace {

// The number of sites: datasets "0", "1", … without gaps; a site-like name beyond a gap (or
// too large to be a number at all) is reported as the missing site it implies.
std::size_t count_sites(hid_t g, const std::string& where) {
  std::size_t n = 0;
  while (H5Lexists(g, std::to_string(n).c_str(), H5P_DEFAULT) > 0) ++n;
  H5G_info_t ginfo;
  H5Gget_info(g, &ginfo);
  for (hsize_t i = 0; ginfo.nlinks > n && i < ginfo.nlinks; ++i) {
    char name[64] = {0};
    H5Lget_name_by_idx(g, ".", H5_INDEX_NAME, H5_ITER_INC, i, name, sizeof name, H5P_DEFAULT);
    const std::string s(name);
    unsigned long long index = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), index);
    const bool digits = !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
    if (digits && end == s.data() + s.size() && (ec == std::errc::result_out_of_range || index >= n))
      throw InputError(where + ": dataset \"" + std::to_string(n) + "\" is missing (found \"" + s +
                       "\"; sites must be named 0 … n-1 without gaps)");
  }
  return n;
}

// An optional float64 attribute of the train's group that must be finite (0 where absent).
double finite_double_attr(hid_t g, const char* name, const std::string& where) {
  if (!h5::has_attr(g, name)) return 0;
  const double v = h5::read_double_attr(g, name, where);
  if (!std::isfinite(v))
    throw InputError(where + ": attribute '" + name + "' is " + std::to_string(v) + ", not a finite number");
  return v;
}

TrainInfo describe(hid_t file, const std::string& file_name, const std::string& group) {
  TrainInfo info;
  info.file = file_name;
  info.group = group;
  info.format = TrainFormat::kSrcc;
  const std::string where = info.where();
  if (H5Lexists(file, group.c_str(), H5P_DEFAULT) <= 0) throw InputError(where + ": no such group");
  Handle g(H5Gopen2(file, group.c_str(), H5P_DEFAULT), H5Gclose);
  if (!g.valid()) throw InputError(where + ": not a group");
  if (!h5::has_attr(g.get(), h5names::kAttrType))
    throw InputError(where + ": missing attribute 'type' (\"MPS\" or \"MPO\")");
  const std::string type = h5::read_string_attr(g.get(), h5names::kAttrType, where);
  if (type == "MPS") info.kind = TrainKind::kMps;
  else if (type == "MPO") info.kind = TrainKind::kMpo;
  else throw InputError(where + ": attribute 'type' is '" + type + "', expected MPS or MPO");
  info.layout_assumed = !h5::has_attr(g.get(), h5names::kAttrLayout);
  info.layout = h5::has_attr(g.get(), h5names::kAttrLayout)
                    ? h5::read_string_attr(g.get(), h5names::kAttrLayout, where)
                    : std::string(default_layout(info.kind));
  const Layout layout(info.kind, info.layout, where);
  const std::size_t n = count_sites(g.get(), where);
  if (h5::has_attr(g.get(), h5names::kAttrLength)) {
    const long long len = h5::read_int_attr(g.get(), h5names::kAttrLength, where);
    if (len != static_cast<long long>(n))
      throw InputError(where + ": attribute 'length' is " + std::to_string(len) + " but " +
                       std::to_string(n) + " site datasets were found" +
                       (len > static_cast<long long>(n)
                            ? " (missing dataset \"" + std::to_string(n) + "\")"
                            : ""));
  }
  if (n == 0) throw InputError(where + ": train has no sites (no dataset \"0\")");
  std::vector<std::string> basis;
  if (h5::has_attr(g.get(), h5names::kAttrBasis)) {
    const std::string text = h5::read_string_attr(g.get(), h5names::kAttrBasis, where);
    for (std::size_t at = 0; at <= text.size();) {
      const std::size_t comma = std::min(text.find(',', at), text.size());
      basis.push_back(text.substr(at, comma - at));
      at = comma + 1;
    }
  }
  info.log_scale = finite_double_attr(g.get(), h5names::kAttrLogScale, where);
  if (info.kind == TrainKind::kMpo) info.step_dt = finite_double_attr(g.get(), h5names::kAttrStepDt, where);
  for (std::size_t j = 0; j < n; ++j) {
    const std::string ds_where = info.where(j);
    Handle d(H5Dopen2(g.get(), std::to_string(j).c_str(), H5P_DEFAULT), H5Dclose);
    if (!d.valid()) throw InputError(ds_where + ": not a dataset");
    auto shape = h5::dataset_shape(d.get());
    const std::string letters = layout.dataset_letters(j, n, shape.size(), ds_where);
    const h5::StoredType st = h5::stored_type(d.get(), ds_where);
    h5::check_storage(d.get(), shape_size(shape) * dtype_size(st.dtype), ds_where);
    info.dtypes.push_back(st.dtype);
    info.raw_offsets.push_back(h5::raw_offset(d.get(), st, shape_size(shape)));
    info.dims.push_back(internal_dims(letters, shape.data()));
    info.dataset_letters.push_back(letters);
    info.dataset_shapes.push_back(std::move(shape));
    if (!basis.empty() && basis.size() != info.dims.back()[kLegU])
      throw InputError(info.where() + ": attribute 'basis' names " + std::to_string(basis.size()) + " states but site " +
                       std::to_string(j) + " has " + std::to_string(info.dims.back()[kLegU]));
  }
  if (!basis.empty()) info.basis.assign(n, basis);
  return info;
}

}  // namespace

SrccTrain::SrccTrain(hid_t file, const PinnedFile& pin, const std::string& group)
    : SrccTrain(file, pin, describe(file, pin.path(), group)) {}

SrccTrain::SrccTrain(hid_t file, const PinnedFile& pin, TrainInfo described)
    : file_(file), pin_(pin) {
  info_ = std::move(described);
}

// One pread, no HDF5 call: HDF5's per-read bookkeeping dominates reading a small site
// (docs/PERFORMANCE.md).
void SrccTrain::read_raw(const std::string& where, std::int64_t offset, void* out,
                         std::size_t bytes) const {
  auto* p = static_cast<char*>(out);
  std::size_t done = 0;
  while (done < bytes) {
    const ssize_t n = ::pread(pin_.fd(), p + done, bytes - done,
                              static_cast<off_t>(offset) + static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw InputError(where + ": reading the dataset failed (" +
                       (n == 0 ? std::string("the file ends inside its data: truncated?")
                               : std::string(std::strerror(errno))) + ")");
    done += static_cast<std::size_t>(n);
  }
}

AnyTensor SrccTrain::read_site(std::size_t site, TransferLog& log) const {
  const auto& info = info_;
  const std::string where = info.where(site);
  const auto start = std::chrono::steady_clock::now();
  const auto& shape = info.dataset_shapes[site];
  const std::int64_t raw = site < info.raw_offsets.size() ? info.raw_offsets[site] : -1;
  Handle d;
  h5::StoredType st{info.dtypes[site]};
  if (raw < 0) {
    d = Handle(H5Dopen2(file_, info.dataset_path(site).c_str(), H5P_DEFAULT), H5Dclose);
    if (!d.valid()) throw InputError(where + ": cannot open dataset");
    if (h5::dataset_shape(d.get()) != shape)
      throw InputError(where + ": the dataset changed since the file was checked (written into "
                               "while being read?)");
    st = h5::stored_type(d.get(), where);
  }
  AnyTensor out = visit_dtype(st.dtype, [&](auto zero) -> AnyTensor {
    using T = decltype(zero);
    Tensor<T> t(shape);
    if (raw >= 0) read_raw(where, raw, t.data.data(), t.size() * sizeof(T));
    else h5::read_values(d.get(), st, t.data.data(), t.size(), where);
    h5::check_finite(t, shape, where);
    return t;
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  h5::log_site_read(log, info.kind, site, where, st.dtype, shape_size(shape) * dtype_size(st.dtype), seconds);
  return out;
}

std::unique_ptr<FormatTrain> srcc_train_from(hid_t file, const PinnedFile& pin, TrainInfo described) {
  return std::make_unique<SrccTrain>(file, pin, std::move(described));
}

bool is_srcc_train(hid_t, const std::string& type, const std::string&) { return type == "MPS" || type == "MPO"; }

}  // namespace srcc
