#include "srcc/io/h5/h5_writer.hpp"

#include <sys/statvfs.h>

#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <optional>

#include "srcc/core/error.hpp"
#include "srcc/core/interrupt.hpp"
#include "srcc/io/h5/h5_handle.hpp"
#include "srcc/io/h5/h5_names.hpp"
#include "srcc/io/h5/sparse_chunks.hpp"

namespace srcc {

using h5::Handle;

// Whether the file system holding `path` has (next to) no room left: HDF5 reports a failed
// write without its errno, and a full disk is a resource error (exit 5), not a bad output path.
bool disk_full(const std::string& path, int err) {
  if (err == ENOSPC || err == EDQUOT) return true;
  const std::filesystem::path p(path);
  struct statvfs fs {};
  if (::statvfs((p.has_parent_path() ? p.parent_path() : std::filesystem::path(".")).c_str(), &fs) != 0)
    return false;
  return static_cast<unsigned long long>(fs.f_bavail) * fs.f_frsize < (1ull << 20);
}

struct H5Writer::Impl {
  Handle file;
  std::string path, label;

  void check(herr_t status, const std::string& what) const {
    if (status >= 0) return;
    const int err = errno;
    if (disk_full(path, err))
      throw ResourceError(label + ": disk full while writing " + what);
    throw OutputError(label + ": writing " + what + " failed");
  }
  Handle open_object(const std::string& path) const {
    Handle o(H5Oopen(file.get(), path.c_str(), H5P_DEFAULT), H5Oclose);
    if (!o.valid()) throw OutputError(label + ": cannot open " + path);
    return o;
  }
  void attr(const std::string& object, const std::string& name, hid_t type, const void* value) {
    Handle o = open_object(object);
    Handle space(H5Screate(H5S_SCALAR), H5Sclose);
    if (H5Aexists(o.get(), name.c_str()) > 0) H5Adelete(o.get(), name.c_str());
    Handle a(H5Acreate2(o.get(), name.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT),
             H5Aclose);
    if (!a.valid()) throw OutputError(label + ": cannot create attribute " + object + "@" + name);
    check(H5Awrite(a.get(), type, value), object + "@" + name);
  }
};

using h5::vlen_string_type;

H5Writer::H5Writer(const std::string& path, std::string label, Open mode)
    : impl_(std::make_unique<Impl>()) {
  h5::quiet_errors();
  impl_->label = std::move(label);
  impl_->path = path;
  impl_->file = mode == Open::kCreate
                    ? Handle(H5Fcreate(path.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT), H5Fclose)
                    : Handle(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose);
  if (!impl_->file.valid()) {
    if (mode == Open::kCreate) impl_->check(-1, "the file header");
    throw OutputError(impl_->label + ": HDF5 cannot open it for writing (not an HDF5 file, or damaged?)");
  }
}

bool H5Writer::exists(const std::string& path) const {
  // Link by link from the root: H5Lexists fails, rather than answering, when a parent is missing.
  std::string prefix;
  std::size_t start = 1;
  while (start <= path.size()) {
    const std::size_t slash = path.find('/', start);
    const std::size_t end = slash == std::string::npos ? path.size() : slash;
    if (end > start) {
      prefix += "/" + path.substr(start, end - start);
      if (H5Lexists(impl_->file.get(), prefix.c_str(), H5P_DEFAULT) <= 0) return false;
    }
    start = end + 1;
  }
  return !prefix.empty();
}

void H5Writer::remove(const std::string& path) {
  impl_->check(H5Ldelete(impl_->file.get(), path.c_str(), H5P_DEFAULT), "(removing) " + path);
}

H5Writer::~H5Writer() = default;

long long H5Writer::file_id() const { return impl_->file.get(); }

void H5Writer::link(const std::string& existing, const std::string& name) {
  impl_->check(H5Lcreate_hard(impl_->file.get(), existing.c_str(), impl_->file.get(), name.c_str(),
                              H5P_DEFAULT, H5P_DEFAULT),
               "link " + name);
}

std::optional<std::uint64_t> H5Writer::copy_from(const std::string& file, const std::string& path,
                                                 const std::function<void(long long)>& check) {
  Handle from = h5::open_for_reading(file);
  if (check) check(from.get());
  if (H5Lexists(from.get(), path.c_str(), H5P_DEFAULT) <= 0) return std::nullopt;
  impl_->check(H5Ocopy(from.get(), path.c_str(), impl_->file.get(), path.c_str(), H5P_DEFAULT, H5P_DEFAULT),
               "(copying from " + file + ") " + path);
  Handle copied(H5Oopen(impl_->file.get(), path.c_str(), H5P_DEFAULT), H5Oclose);
  std::uint64_t bytes = 0;
  H5Ovisit(copied.get(), H5_INDEX_NAME, H5_ITER_INC,
           [](hid_t parent, const char* name, const H5O_info_t* info, void* sum) -> herr_t {
             if (info->type != H5O_TYPE_DATASET) return 0;
             Handle d(H5Dopen2(parent, name, H5P_DEFAULT), H5Dclose);
             if (d.valid()) *static_cast<std::uint64_t*>(sum) += H5Dget_storage_size(d.get());
             return 0;
           },
           &bytes);
  return bytes;
}

void H5Writer::flush() {
  impl_->check(H5Fflush(impl_->file.get(), H5F_SCOPE_LOCAL), "the file");
}

void H5Writer::close() {
  if (!impl_->file.valid()) return;
  impl_->check(H5Fflush(impl_->file.get(), H5F_SCOPE_GLOBAL), "the file");
  const hid_t id = impl_->file.release();
  impl_->check(H5Fclose(id), "the file's last blocks");
}

void H5Writer::create_group(const std::string& group) {
  Handle lcpl(H5Pcreate(H5P_LINK_CREATE), H5Pclose);
  H5Pset_create_intermediate_group(lcpl.get(), 1);
  Handle g(H5Gcreate2(impl_->file.get(), group.c_str(), lcpl.get(), H5P_DEFAULT, H5P_DEFAULT),
           H5Gclose);
  if (!g.valid()) throw OutputError(impl_->label + ": cannot create group " + group);
}

void H5Writer::string_attr(const std::string& object, const std::string& name,
                           const std::string& value) {
  Handle t = vlen_string_type();
  const char* p = value.c_str();
  impl_->attr(object, name, t.get(), &p);
}

void H5Writer::int_attr(const std::string& object, const std::string& name, std::int64_t value) {
  impl_->attr(object, name, H5T_NATIVE_INT64, &value);
}

void H5Writer::double_attr(const std::string& object, const std::string& name, double value) {
  impl_->attr(object, name, H5T_NATIVE_DOUBLE, &value);
}

void H5Writer::int_array(const std::string& path, const std::vector<std::int64_t>& values,
                         const std::vector<std::size_t>& shape) {
  std::vector<hsize_t> dims(shape.begin(), shape.end());
  Handle space(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose);
  Handle d(H5Dcreate2(impl_->file.get(), path.c_str(), H5T_STD_I64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT,
                      H5P_DEFAULT),
           H5Dclose);
  if (!d.valid()) throw OutputError(impl_->label + ": cannot create dataset " + path);
  if (!values.empty())
    impl_->check(H5Dwrite(d.get(), H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), "dataset " + path);
}

void H5Writer::begin_train(const std::string& group, TrainKind kind, std::size_t sites) {
  create_group(group);
  string_attr(group, h5names::kAttrType, std::string(train_kind_name(kind)));
  string_attr(group, h5names::kAttrLayout, std::string(default_layout(kind)));
  int_attr(group, h5names::kAttrLength, static_cast<std::int64_t>(sites));
}

template <class T>
void H5Writer::write_site(const std::string& group, TrainKind kind, std::size_t j, std::size_t n,
                          const Tensor<T>& c, TransferLog& log, const std::string& what) {
  poll_interrupt();
  const auto t0 = std::chrono::steady_clock::now();
  const DType dt = dtype_of<T>;
  Handle ftype = h5::file_type(dt);
  Handle mtype = h5::memory_type(dt, h5names::kReal, h5names::kImag);
  std::vector<hsize_t> dims;
  std::vector<bool> bonds;
  auto axis = [&](std::size_t size, bool bond) {
    dims.push_back(size);
    bonds.push_back(bond);
  };
  if (j != 0 || n == 1) axis(c.shape[kLegL], true);
  if (j + 1 != n) axis(c.shape[kLegR], true);
  if (j == 0 && n == 1) axis(c.shape[kLegR], true);
  axis(c.shape[kLegU], false);
  if (kind == TrainKind::kMpo) axis(c.shape[kLegD], false);
  Handle space(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose);
  const std::string path = group + "/" + std::to_string(j);
  // A site mostly zero in chunks (a charged state's, outside its blocks) keeps only its live
  // chunks (sparse_chunks.hpp), written as they lie in memory where that is the file's type.
  std::optional<h5::ChunkGrid> grid;
  if (c.size() >= h5::kSparseMinElements && H5Tequal(ftype.get(), mtype.get()) > 0) {
    grid = h5::chunk_grid(c.data.data(), dims, bonds);
    if (!h5::sparse_pays(*grid)) grid.reset();
  }
  Handle dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  if (grid) H5Pset_chunk(dcpl.get(), static_cast<int>(dims.size()), grid->chunk.data());
  Handle d(H5Dcreate2(impl_->file.get(), path.c_str(), ftype.get(), space.get(), H5P_DEFAULT,
                      dcpl.get(), H5P_DEFAULT),
           H5Dclose);
  if (!d.valid()) throw OutputError(impl_->label + ": cannot create dataset " + path);
  std::size_t bytes = c.bytes();
  if (grid) {
    const long long written = h5::write_live_chunks(d.get(), c.data.data(), *grid);
    impl_->check(written < 0 ? herr_t(-1) : herr_t(0), "dataset " + path);
    bytes = static_cast<std::size_t>(written);
  } else {
    impl_->check(H5Dwrite(d.get(), mtype.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, c.data.data()),
                 "dataset " + path);
  }
  const std::string dn(dtype_name(dt));
  log.add({.what = what, .site = static_cast<std::int64_t>(j),
           .mechanism = mechanism::kFileWrite, .source = "host",
           .target = "file:" + impl_->label + ":" + path, .dtype_from = dn, .dtype_to = dn,
           .bytes = static_cast<std::int64_t>(bytes),
           .seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()});
}

template <class T>
void H5Writer::write_train(const std::string& group, TrainKind kind,
                           const std::vector<Tensor<T>>& cores, TransferLog& log,
                           const std::string& what) {
  begin_train(group, kind, cores.size());
  for (std::size_t j = 0; j < cores.size(); ++j) write_site(group, kind, j, cores.size(), cores[j], log, what);
}

#define SRCC_INSTANTIATE(T)                                                                   \
  template void H5Writer::write_train(const std::string&, TrainKind,                        \
                                      const std::vector<Tensor<T>>&, TransferLog&,          \
                                      const std::string&);                                  \
  template void H5Writer::write_site(const std::string&, TrainKind, std::size_t, std::size_t, \
                                     const Tensor<T>&, TransferLog&, const std::string&);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

namespace {

// Row types with fixed layout for the compound tables; strings as variable-length char*.
struct TransferRow {
  std::int64_t seq;
  const char* what;
  std::int64_t site;
  const char* mechanism;
  const char* declined;
  const char* source;
  const char* target;
  const char* dtype_from;
  const char* dtype_to;
  std::int64_t bytes;
  double seconds;
  std::int64_t events;
};

template <class Row> void write_rows(H5Writer::Impl& impl, const std::string& path,
                                      hid_t type, const std::vector<Row>& rows) {
  const hsize_t n = rows.size();
  Handle space(H5Screate_simple(1, &n, nullptr), H5Sclose);
  Handle d(H5Dcreate2(impl.file.get(), path.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT,
                      H5P_DEFAULT),
           H5Dclose);
  if (!d.valid()) throw OutputError(impl.label + ": cannot create dataset " + path);
  if (n > 0) impl.check(H5Dwrite(d.get(), type, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows.data()), path);
}

}  // namespace

void H5Writer::write_transfers(const std::string& path, const std::vector<TransferRecord>& rows) {
  Handle str = vlen_string_type();
  Handle t(H5Tcreate(H5T_COMPOUND, sizeof(TransferRow)), H5Tclose);
  H5Tinsert(t.get(), h5names::kColSeq, offsetof(TransferRow, seq), H5T_NATIVE_INT64);
  H5Tinsert(t.get(), h5names::kColWhat, offsetof(TransferRow, what), str.get());
  H5Tinsert(t.get(), h5names::kColSite, offsetof(TransferRow, site), H5T_NATIVE_INT64);
  H5Tinsert(t.get(), h5names::kColMechanism, offsetof(TransferRow, mechanism), str.get());
  H5Tinsert(t.get(), h5names::kColDeclined, offsetof(TransferRow, declined), str.get());
  H5Tinsert(t.get(), h5names::kColSource, offsetof(TransferRow, source), str.get());
  H5Tinsert(t.get(), h5names::kColTarget, offsetof(TransferRow, target), str.get());
  H5Tinsert(t.get(), h5names::kColDtypeFrom, offsetof(TransferRow, dtype_from), str.get());
  H5Tinsert(t.get(), h5names::kColDtypeTo, offsetof(TransferRow, dtype_to), str.get());
  H5Tinsert(t.get(), h5names::kColBytes, offsetof(TransferRow, bytes), H5T_NATIVE_INT64);
  H5Tinsert(t.get(), h5names::kColSeconds, offsetof(TransferRow, seconds), H5T_NATIVE_DOUBLE);
  H5Tinsert(t.get(), h5names::kColEvents, offsetof(TransferRow, events), H5T_NATIVE_INT64);
  std::vector<TransferRow> out;
  out.reserve(rows.size());
  for (const auto& r : rows)
    out.push_back({r.seq, r.what.c_str(), r.site, r.mechanism.c_str(), r.declined.c_str(),
                   r.source.c_str(), r.target.c_str(), r.dtype_from.c_str(), r.dtype_to.c_str(),
                   r.bytes, r.seconds, r.events});
  write_rows(*impl_, path, t.get(), out);
}

void H5Writer::write_table(const std::string& path, const std::vector<TableColumn>& columns) {
  const std::size_t width = 8 * columns.size(), rows = columns.empty() ? 0 : columns.front().values.size();
  Handle t(H5Tcreate(H5T_COMPOUND, std::max<std::size_t>(width, 8)), H5Tclose);
  for (std::size_t c = 0; c < columns.size(); ++c)
    H5Tinsert(t.get(), columns[c].name.c_str(), 8 * c, columns[c].integer ? H5T_NATIVE_INT64 : H5T_NATIVE_DOUBLE);
  std::vector<unsigned char> data(rows * width);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < columns.size(); ++c) {
      unsigned char* at = data.data() + r * width + 8 * c;
      if (columns[c].integer) {
        const auto v = static_cast<std::int64_t>(columns[c].values[r]);
        std::memcpy(at, &v, 8);
      } else {
        std::memcpy(at, &columns[c].values[r], 8);
      }
    }
  const hsize_t n = rows;
  Handle space(H5Screate_simple(1, &n, nullptr), H5Sclose);
  Handle d(H5Dcreate2(impl_->file.get(), path.c_str(), t.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
           H5Dclose);
  if (!d.valid()) throw OutputError(impl_->label + ": cannot create dataset " + path);
  if (rows > 0) impl_->check(H5Dwrite(d.get(), t.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()), path);
}

void H5Writer::write_sites(const std::string& path, const std::vector<SiteStats>& rows) {
  Handle t(H5Tcreate(H5T_COMPOUND, sizeof(SiteStats)), H5Tclose);
  H5Tinsert(t.get(), h5names::kColSite, offsetof(SiteStats, site), H5T_NATIVE_INT64);
  H5Tinsert(t.get(), h5names::kColBondLeft, offsetof(SiteStats, bond_left), H5T_NATIVE_INT64);
  H5Tinsert(t.get(), h5names::kColBondRight, offsetof(SiteStats, bond_right), H5T_NATIVE_INT64);
  H5Tinsert(t.get(), h5names::kColSketchColumns, offsetof(SiteStats, sketch_columns), H5T_NATIVE_INT64);
  H5Tinsert(t.get(), h5names::kColErrorEstimate, offsetof(SiteStats, error_estimate), H5T_NATIVE_DOUBLE);
  H5Tinsert(t.get(), h5names::kColNormEstimate, offsetof(SiteStats, norm_estimate), H5T_NATIVE_DOUBLE);
  H5Tinsert(t.get(), h5names::kColTruncationError, offsetof(SiteStats, truncation_error),
            H5T_NATIVE_DOUBLE);
  H5Tinsert(t.get(), h5names::kColSeconds, offsetof(SiteStats, seconds), H5T_NATIVE_DOUBLE);
  write_rows(*impl_, path, t.get(), rows);
}

}  // namespace srcc
