#include "srcc/io/train_reader.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <string_view>

#include "srcc/core/error.hpp"
#include "srcc/io/chunk_reader.hpp"
#include "srcc/io/h5_handle.hpp"
#include "srcc/io/h5_names.hpp"
#include "srcc/io/read_probe.hpp"

namespace srcc {

namespace {

using h5::Handle;

using h5::has_attr;
using h5::read_int_attr;
using h5::read_string_attr;

// Element type of a dataset plus the member names of a complex compound.
struct StoredType {
  DType dtype;
  std::string re = h5names::kReal, im = h5names::kImag;
};

StoredType stored_type(hid_t dset, const std::string& where) {
  Handle t(H5Dget_type(dset), H5Tclose);
  const auto cls = H5Tget_class(t.get());
  const std::size_t size = H5Tget_size(t.get());
  if (cls == H5T_FLOAT && (size == 4 || size == 8))
    return {size == 4 ? DType::kFloat32 : DType::kFloat64};
  if (cls == H5T_COMPOUND && H5Tget_nmembers(t.get()) == 2) {
    char* n0 = H5Tget_member_name(t.get(), 0);
    char* n1 = H5Tget_member_name(t.get(), 1);
    StoredType st{DType::kComplex128, n0, n1};
    H5free_memory(n0);
    H5free_memory(n1);
    Handle m0(H5Tget_member_type(t.get(), 0), H5Tclose);
    Handle m1(H5Tget_member_type(t.get(), 1), H5Tclose);
    const bool names_ok = (st.re == h5names::kReal && st.im == h5names::kImag) ||
                          (st.re == h5names::kRealLong && st.im == h5names::kImagLong);
    const std::size_t ms = H5Tget_size(m0.get());
    if (names_ok && H5Tget_class(m0.get()) == H5T_FLOAT && H5Tget_class(m1.get()) == H5T_FLOAT &&
        ms == H5Tget_size(m1.get()) && (ms == 4 || ms == 8)) {
      // The members must lie inside a record of plausible size without overlapping: HDF5's
      // conversion trusts the offsets, and a crafted one (2^28) sends it far outside its buffers.
      const std::size_t o0 = H5Tget_member_offset(t.get(), 0), o1 = H5Tget_member_offset(t.get(), 1);
      const bool inside = size <= 8 * ms && o0 + ms <= size && o1 + ms <= size &&
                          (o0 + ms <= o1 || o1 + ms <= o0);
      if (!inside)
        throw InputError(where + ": complex compound of size " + std::to_string(size) +
                         " with members at offsets " + std::to_string(o0) + " and " +
                         std::to_string(o1) + " (" + std::to_string(ms) +
                         " bytes each) is not a valid record: damaged or crafted file");
      st.dtype = ms == 4 ? DType::kComplex64 : DType::kComplex128;
      return st;
    }
  }
  throw InputError(where +
                   ": unsupported element type (expected float32, float64, or a complex "
                   "compound of two equal floats named r,i or real,imag)");
}

// Where dataset `dset`'s values start in the file (H5Dget_offset counts from the file's first
// byte, a user block included), when its bytes are exactly the working type's on this host:
// then a read is one pread, without HDF5 on the path. -1 otherwise. Only contiguous storage of
// the full size qualifies (not chunked, compact or external), with the exact little-endian
// IEEE types, the real member first, on a little-endian host.
std::int64_t raw_offset(hid_t dset, const StoredType& st, std::size_t elements) {
  if constexpr (std::endian::native != std::endian::little) return -1;
  const haddr_t at = H5Dget_offset(dset);
  if (at == HADDR_UNDEF || at > static_cast<haddr_t>(std::numeric_limits<std::int64_t>::max()))
    return -1;
  if (H5Dget_storage_size(dset) != elements * dtype_size(st.dtype)) return -1;
  Handle t(H5Dget_type(dset), H5Tclose);
  const bool single = st.dtype == DType::kFloat32 || st.dtype == DType::kComplex64;
  const hid_t ieee = single ? H5T_IEEE_F32LE : H5T_IEEE_F64LE;
  if (!dtype_is_complex(st.dtype)) return H5Tequal(t.get(), ieee) > 0 ? static_cast<std::int64_t>(at) : -1;
  const std::size_t half = single ? 4 : 8;
  if (H5Tget_size(t.get()) != 2 * half || H5Tget_member_offset(t.get(), 0) != 0 ||
      H5Tget_member_offset(t.get(), 1) != half)
    return -1;
  char* first = H5Tget_member_name(t.get(), 0);
  const bool real_first = first != nullptr && st.re == first;
  H5free_memory(first);
  Handle m0(H5Tget_member_type(t.get(), 0), H5Tclose);
  Handle m1(H5Tget_member_type(t.get(), 1), H5Tclose);
  if (!real_first || H5Tequal(m0.get(), ieee) <= 0 || H5Tequal(m1.get(), ieee) <= 0) return -1;
  return static_cast<std::int64_t>(at);
}

std::vector<std::size_t> dataset_shape(hid_t dset) {
  Handle space(H5Dget_space(dset), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  std::vector<hsize_t> dims(static_cast<std::size_t>(std::max(rank, 0)));
  H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  return {dims.begin(), dims.end()};
}

TrainInfo describe(hid_t file, const std::string& file_name, const std::string& group) {
  TrainInfo info;
  info.file = file_name;
  info.group = group;
  const std::string where = info.where();
  if (H5Lexists(file, group.c_str(), H5P_DEFAULT) <= 0)
    throw InputError(where + ": no such group");
  Handle g(H5Gopen2(file, group.c_str(), H5P_DEFAULT), H5Gclose);
  if (!g.valid()) throw InputError(where + ": not a group");
  if (!has_attr(g.get(), h5names::kAttrType))
    throw InputError(where + ": missing attribute 'type' (\"MPS\" or \"MPO\")");
  const std::string type = read_string_attr(g.get(), h5names::kAttrType, where);
  if (type == "MPS") info.kind = TrainKind::kMps;
  else if (type == "MPO") info.kind = TrainKind::kMpo;
  else throw InputError(where + ": attribute 'type' is '" + type + "', expected MPS or MPO");
  info.layout = has_attr(g.get(), h5names::kAttrLayout)
                    ? read_string_attr(g.get(), h5names::kAttrLayout, where)
                    : std::string(default_layout(info.kind));
  const Layout layout(info.kind, info.layout, where);

  std::size_t n = 0;
  while (H5Lexists(g.get(), std::to_string(n).c_str(), H5P_DEFAULT) > 0) ++n;
  H5G_info_t ginfo;
  H5Gget_info(g.get(), &ginfo);
  if (ginfo.nlinks > n) {
    // Some other member: find whether it looks like a site beyond a gap.
    for (hsize_t i = 0; i < ginfo.nlinks; ++i) {
      char name[64] = {0};
      H5Lget_name_by_idx(g.get(), ".", H5_INDEX_NAME, H5_ITER_INC, i, name, sizeof name,
                         H5P_DEFAULT);
      const std::string s(name);
      unsigned long long index = 0;
      const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), index);
      // A site-like name beyond the last site (or too large to be a number at all).
      const bool digits = !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
      if (digits && end == s.data() + s.size() && (ec == std::errc::result_out_of_range || index >= n))
        throw InputError(where + ": dataset \"" + std::to_string(n) + "\" is missing (found \"" +
                         s + "\"; sites must be named 0 … n-1 without gaps)");
    }
  }
  if (has_attr(g.get(), h5names::kAttrLength)) {
    const long long len = read_int_attr(g.get(), h5names::kAttrLength, where);
    if (len != static_cast<long long>(n))
      throw InputError(where + ": attribute 'length' is " + std::to_string(len) + " but " +
                       std::to_string(n) + " site datasets were found" +
                       (len > static_cast<long long>(n)
                            ? " (missing dataset \"" + std::to_string(n) + "\")"
                            : ""));
  }
  if (n == 0) throw InputError(where + ": train has no sites (no dataset \"0\")");
  for (std::size_t j = 0; j < n; ++j) {
    const std::string ds_where = info.where(j);
    Handle d(H5Dopen2(g.get(), std::to_string(j).c_str(), H5P_DEFAULT), H5Dclose);
    if (!d.valid()) throw InputError(ds_where + ": not a dataset");
    auto shape = dataset_shape(d.get());
    const std::string letters = layout.dataset_letters(j, n, shape.size(), ds_where);
    const StoredType st = stored_type(d.get(), ds_where);
    h5::check_storage(d.get(), shape_size(shape) * dtype_size(st.dtype), ds_where);
    info.dtypes.push_back(st.dtype);
    info.raw_offsets.push_back(raw_offset(d.get(), st, shape_size(shape)));
    info.dims.push_back(internal_dims(letters, shape.data()));
    info.dataset_letters.push_back(letters);
    info.dataset_shapes.push_back(std::move(shape));
  }
  return info;
}

herr_t collect_train_groups(hid_t root, const char* name, const H5L_info_t*, void* out) {
  H5O_info_t oinfo;
  if (H5Oget_info_by_name(root, name, &oinfo, H5P_DEFAULT) < 0) return 0;
  if (oinfo.type != H5O_TYPE_GROUP) return 0;
  if (H5Aexists_by_name(root, name, h5names::kAttrType, H5P_DEFAULT) > 0)
    static_cast<std::vector<std::string>*>(out)->push_back(std::string("/") + name);
  return 0;
}

std::vector<std::string> train_groups(hid_t file) {
  std::vector<std::string> groups;
  if (H5Aexists(file, h5names::kAttrType) > 0) groups.push_back("/");
  H5Lvisit(file, H5_INDEX_NAME, H5_ITER_INC, collect_train_groups, &groups);
  return groups;
}

template <class T> bool all_finite(const Tensor<T>& t, std::size_t& bad) {
  for (std::size_t i = 0; i < t.size(); ++i) {
    bool ok;
    if constexpr (is_complex_v<T>) ok = std::isfinite(t.data[i].real()) && std::isfinite(t.data[i].imag());
    else ok = std::isfinite(t.data[i]);
    if (!ok) {
      bad = i;
      return false;
    }
  }
  return true;
}

std::string index_string(std::size_t flat, const std::vector<std::size_t>& shape) {
  std::vector<std::size_t> idx(shape.size());
  for (std::size_t a = shape.size(); a-- > 0;) {
    idx[a] = flat % shape[a];
    flat /= shape[a];
  }
  return shape_string(idx);
}

}  // namespace

std::vector<TrainInfo> list_trains(const std::string& file) {
  Handle f = h5::open_for_reading(file);
  std::vector<TrainInfo> out;
  for (const auto& g : train_groups(f.get())) out.push_back(describe(f.get(), file, g));
  return out;
}

struct TrainReader::Impl {
  std::shared_ptr<const PinnedFile> pin;  // the file, for direct reads (raw_offsets)
  Handle file;
  TrainInfo info;
};

namespace {

// The file's only train when `group` is empty.
std::string resolve_group(hid_t file, const TrainRef& ref) {
  if (!ref.group.empty()) return ref.group;
  const auto groups = train_groups(file);
  if (groups.empty())
    throw InputError(ref.file + ": holds no train (no group with a 'type' attribute)");
  if (groups.size() > 1) {
    std::string list;
    for (const auto& g : groups) list += (list.empty() ? "" : ", ") + g;
    throw InputError(ref.file + ": holds " + std::to_string(groups.size()) + " trains (" + list +
                     "); name one as " + ref.file + ":/group");
  }
  return groups.front();
}

}  // namespace

TrainReader::TrainReader(const TrainRef& ref)
    : TrainReader(ref, std::make_shared<const PinnedFile>(ref.file)) {}

TrainReader::TrainReader(const TrainRef& ref, std::shared_ptr<const PinnedFile> pin)
    : impl_(std::make_unique<Impl>()) {
  impl_->pin = std::move(pin);
  impl_->file = h5::open_pinned(*impl_->pin);
  impl_->info = describe(impl_->file.get(), ref.file, resolve_group(impl_->file.get(), ref));
}

TrainReader::TrainReader(const TrainRef& ref, TrainInfo described,
                         std::shared_ptr<const PinnedFile> pin)
    : impl_(std::make_unique<Impl>()) {
  (void)ref;
  impl_->pin = std::move(pin);
  impl_->file = h5::open_pinned(*impl_->pin);
  impl_->info = std::move(described);
}

TrainReader::~TrainReader() = default;
TrainReader::TrainReader(TrainReader&&) noexcept = default;
TrainReader& TrainReader::operator=(TrainReader&&) noexcept = default;

void TrainReader::check_unchanged() const { impl_->pin->check_unchanged(); }

const TrainInfo& TrainReader::info() const { return impl_->info; }

// A dataset HDF5 described as plain bytes at `offset`: one pread, no HDF5 call (at small bonds
// HDF5's per-read bookkeeping was most of a read: 42 µs for a 16 KiB site).
// A dataset HDF5 described as plain bytes at `offset`: one pread, no HDF5 call (HDF5's per-read
// bookkeeping dominates reading a small site; docs/PERFORMANCE.md).
void TrainReader::read_raw(const std::string& where, std::int64_t offset, void* out,
                           std::size_t bytes) const {
  auto* p = static_cast<char*>(out);
  std::size_t done = 0;
  while (done < bytes) {
    const ssize_t n = ::pread(impl_->pin->fd(), p + done, bytes - done,
                              static_cast<off_t>(offset) + static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw InputError(where + ": reading the dataset failed (" +
                       (n == 0 ? std::string("the file ends inside its data: truncated?")
                               : std::string(std::strerror(errno))) + ")");
    done += static_cast<std::size_t>(n);
  }
}

AnyTensor TrainReader::read_site(std::size_t site, TransferLog& log) const {
  const auto& info = impl_->info;
  const std::string where = info.where(site);
  const auto start = std::chrono::steady_clock::now();
  const auto& shape = info.dataset_shapes[site];
  const std::int64_t raw = site < info.raw_offsets.size() ? info.raw_offsets[site] : -1;
  Handle d;
  StoredType st{info.dtypes[site]};
  if (raw < 0) {
    d = Handle(H5Dopen2(impl_->file.get(), info.dataset_path(site).c_str(), H5P_DEFAULT), H5Dclose);
    if (!d.valid()) throw InputError(where + ": cannot open dataset");
    // The buffer below is sized from the description: a dataset that no longer matches it (a
    // file written into meanwhile) must not be read into it.
    if (dataset_shape(d.get()) != shape)
      throw InputError(where + ": the dataset changed since the file was checked (written into "
                               "while being read?)");
    st = stored_type(d.get(), where);
  }
  AnyTensor out = visit_dtype(st.dtype, [&](auto zero) -> AnyTensor {
    using T = decltype(zero);
    Tensor<T> t(shape);
    if (raw >= 0) {
      read_raw(where, raw, t.data.data(), t.size() * sizeof(T));
    } else {
      Handle mtype = h5::memory_type(st.dtype, st.re.c_str(), st.im.c_str());
      h5::check_storage(d.get(), t.size() * sizeof(T), where);
      if (!read_deflated(d.get(), mtype.get(), t.data.data(), where) &&
          H5Dread(d.get(), mtype.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, t.data.data()) < 0)
        throw InputError(where + ": reading the dataset failed");
    }
    std::size_t bad = 0;
    if (!all_finite(t, bad))
      throw InputError(where + ": non-finite value (NaN or Inf) at index " +
                       index_string(bad, shape));
    return t;
  });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::string dt(dtype_name(st.dtype));
  log.add({.what = std::string(info.kind == TrainKind::kMps ? "mps site" : "mpo site"),
           .site = static_cast<std::int64_t>(site),
           .mechanism = mechanism::kFileRead,
           .source = "file:" + where,
           .target = "host",
           .dtype_from = dt,
           .dtype_to = dt,
           .bytes = static_cast<std::int64_t>(shape_size(shape) * dtype_size(st.dtype)),
           .seconds = seconds});
  return out;
}

namespace {

// A train's description in bytes, for the read check's pipe: little more than numbers.
class Bytes {
 public:
  void u64(std::uint64_t v) { out_.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void str(const std::string& v) {
    u64(v.size());
    out_ += v;
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

class Unbytes {
 public:
  explicit Unbytes(std::string_view in) : in_(in) {}
  std::uint64_t u64() {
    std::uint64_t v = 0;
    if (in_.size() < sizeof v) throw std::runtime_error("truncated train description");
    std::memcpy(&v, in_.data(), sizeof v);
    in_.remove_prefix(sizeof v);
    return v;
  }
  std::string str() {
    const std::uint64_t n = u64();
    if (in_.size() < n) throw std::runtime_error("truncated train description");
    std::string v(in_.substr(0, n));
    in_.remove_prefix(n);
    return v;
  }

 private:
  std::string_view in_;
};

std::string to_bytes(const TrainInfo& t) {
  Bytes b;
  b.str(t.file);
  b.str(t.group);
  b.u64(static_cast<std::uint64_t>(t.kind));
  b.str(t.layout);
  b.u64(t.length());
  for (std::size_t j = 0; j < t.length(); ++j) {
    b.str(t.dataset_letters[j]);
    b.u64(t.dataset_shapes[j].size());
    for (auto d : t.dataset_shapes[j]) b.u64(d);
    b.u64(static_cast<std::uint64_t>(t.dtypes[j]));
    b.u64(static_cast<std::uint64_t>(j < t.raw_offsets.size() ? t.raw_offsets[j] : -1));
    for (auto d : t.dims[j]) b.u64(d);
  }
  return b.take();
}

TrainInfo from_bytes(std::string_view bytes) {
  Unbytes b(bytes);
  TrainInfo t;
  t.file = b.str();
  t.group = b.str();
  t.kind = static_cast<TrainKind>(b.u64());
  t.layout = b.str();
  const std::uint64_t n = b.u64();
  for (std::uint64_t j = 0; j < n; ++j) {
    t.dataset_letters.push_back(b.str());
    std::vector<std::size_t> shape(b.u64());
    for (auto& d : shape) d = b.u64();
    t.dataset_shapes.push_back(std::move(shape));
    t.dtypes.push_back(static_cast<DType>(b.u64()));
    t.raw_offsets.push_back(static_cast<std::int64_t>(b.u64()));
    SiteDims dims{};
    for (auto& d : dims) d = b.u64();
    t.dims.push_back(dims);
  }
  return t;
}

}  // namespace

namespace {

// One attempt of open_trains with the files pinned in `pins` (one per distinct file, in order).
std::vector<TrainReader> open_pinned_trains(const std::vector<TrainRef>& refs,
                                            const std::vector<std::string>& files,
                                            const std::vector<std::shared_ptr<const PinnedFile>>& pins) {
  auto index_of = [&](const std::string& file) {
    return static_cast<std::size_t>(std::find(files.begin(), files.end(), file) - files.begin());
  };
  // The child describes every train of a file (all the metadata the run will read); the
  // descriptions of a file's trains come back concatenated, each with its length. The site
  // data is not read there: its datatypes were already examined, and reading it twice would
  // cost more than the whole check. The library is set up once, here, so that the children
  // inherit it instead of each setting it up again (about 1 ms each).
  H5open();
  const auto described = probe_files(files, [&](const std::string& file) {
    Bytes b;
    for (const auto& ref : refs) {
      if (ref.file != file) continue;
      b.str(to_bytes(TrainReader(ref, pins[index_of(file)]).info()));
    }
    return b.take();
  });
  std::vector<TrainReader> out;
  std::vector<std::size_t> used(files.size(), 0);  // descriptions taken per file
  std::vector<std::vector<std::string>> infos(files.size());
  for (std::size_t f = 0; f < files.size(); ++f) {
    Unbytes b(described[f]);
    for (const auto& ref : refs)
      if (ref.file == files[f]) infos[f].push_back(b.str());
  }
  for (const auto& ref : refs) {
    const std::size_t f = index_of(ref.file);
    out.emplace_back(ref, from_bytes(infos[f][used[f]++]), pins[f]);
  }
  return out;
}

}  // namespace

std::vector<TrainReader> open_trains(const std::vector<TrainRef>& refs) {
  std::vector<std::string> files;
  for (const auto& r : refs)
    if (std::find(files.begin(), files.end(), r.file) == files.end()) files.push_back(r.file);
  // A file replaced between its pinning and an HDF5 open (by name) fails the open; then all is
  // done again on the new version, a few times before giving up.
  constexpr int kAttempts = 5;
  for (int attempt = 1;; ++attempt) {
    std::vector<std::shared_ptr<const PinnedFile>> pins;
    for (const auto& f : files) pins.push_back(std::make_shared<const PinnedFile>(f));
    try {
      return open_pinned_trains(refs, files, pins);
    } catch (const InputError&) {
      const bool moved = std::any_of(pins.begin(), pins.end(),
                                     [](const auto& p) { return !p->still_named(); });
      if (!moved || attempt == kAttempts) throw;
    }
  }
}

}  // namespace srcc
