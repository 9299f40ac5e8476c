#include "srcc/io/h5/h5_handle.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "srcc/core/error.hpp"
#include "srcc/io/h5/h5_names.hpp"

namespace srcc::h5 {

namespace {

// HDF5 closes what is still open from an exit handler. After a failed write (a full disk) the
// file's state is broken and that handler crashed the process (H5F__close_cb) after we had
// reported the error. Every file we write is closed explicitly and only then counted as done,
// and read-only files need no flushing, so the handler is not installed. It must be turned
// off before HDF5 initialises, hence a static initialiser.
const bool g_no_hdf5_atexit = [] {
  H5dont_atexit();
  return true;
}();

}  // namespace

void quiet_errors() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

Handle open_for_reading(const std::string& path) { return open_pinned(PinnedFile(path)); }

Handle open_pinned(const PinnedFile& pin, bool lock) {
  quiet_errors();
  const std::string& path = pin.path();
  if (H5Fis_hdf5(path.c_str()) <= 0) throw InputError(path + ": not an HDF5 file");
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  if (!lock) H5Pset_file_locking(fapl.get(), false, true);
  Handle f(H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl.get()), H5Fclose);
  if (!f.valid()) {
    const std::string holder = lock ? pin.writer_lock_holder() : "";
    if (!holder.empty())
      throw InputError(path + ": locked by " + holder +
                       ", which has it open for writing; try again once it has closed the file");
    throw InputError(path + ": HDF5 cannot open it (damaged or truncated file?)");
  }
  void* handle = nullptr;
  if (H5Fget_vfd_handle(f.get(), H5P_DEFAULT, &handle) >= 0 && handle != nullptr &&
      !pin.same_file(*static_cast<int*>(handle)))
    throw InputError(path + ": " + std::string(kReplacedWhileOpened));
  return f;
}

namespace {

Handle compound_of(hid_t member, std::size_t member_size, const char* re, const char* im) {
  Handle t(H5Tcreate(H5T_COMPOUND, 2 * member_size), H5Tclose);
  H5Tinsert(t.get(), re, 0, member);
  H5Tinsert(t.get(), im, member_size, member);
  return t;
}

}  // namespace

Handle vlen_string_type(H5T_cset_t cset) {
  Handle t(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(t.get(), H5T_VARIABLE);
  H5Tset_cset(t.get(), cset);
  return t;
}

Handle memory_type(DType t, const char* re, const char* im) {
  switch (t) {
    case DType::kFloat32: return Handle(H5Tcopy(H5T_NATIVE_FLOAT), H5Tclose);
    case DType::kFloat64: return Handle(H5Tcopy(H5T_NATIVE_DOUBLE), H5Tclose);
    case DType::kComplex64: return compound_of(H5T_NATIVE_FLOAT, 4, re, im);
    case DType::kComplex128: break;
  }
  return compound_of(H5T_NATIVE_DOUBLE, 8, re, im);
}

Handle file_type(DType t) {
  switch (t) {
    case DType::kFloat32: return Handle(H5Tcopy(H5T_IEEE_F32LE), H5Tclose);
    case DType::kFloat64: return Handle(H5Tcopy(H5T_IEEE_F64LE), H5Tclose);
    case DType::kComplex64: return compound_of(H5T_IEEE_F32LE, 4, h5names::kReal, h5names::kImag);
    case DType::kComplex128: break;
  }
  return compound_of(H5T_IEEE_F64LE, 8, h5names::kReal, h5names::kImag);
}

namespace {

const char* filter_name(H5Z_filter_t id) {
  switch (id) {
    case H5Z_FILTER_DEFLATE: return "deflate";
    case H5Z_FILTER_SHUFFLE: return "shuffle";
    case H5Z_FILTER_FLETCHER32: return "fletcher32";
    case H5Z_FILTER_SZIP: return "szip";
    case H5Z_FILTER_NBIT: return "nbit";
    case H5Z_FILTER_SCALEOFFSET: return "scaleoffset";
  }
  return "a third-party filter";
}

}  // namespace

std::size_t check_storage(hid_t dset, std::size_t dataset_bytes, const std::string& where) {
  Handle dcpl(H5Dget_create_plist(dset), H5Pclose);
  if (!dcpl.valid() || H5Pget_layout(dcpl.get()) != H5D_CHUNKED) return 0;
  Handle type(H5Dget_type(dset), H5Tclose);
  const int rank = H5Pget_chunk(dcpl.get(), 0, nullptr);
  if (rank <= 0 || rank > 32) throw InputError(where + ": damaged chunk description");
  hsize_t dims[32];
  H5Pget_chunk(dcpl.get(), rank, dims);
  // In double: a crafted product must not wrap around.
  double bytes = static_cast<double>(H5Tget_size(type.get()));
  for (int i = 0; i < rank; ++i) bytes *= static_cast<double>(dims[i]);
  const double most = 4.0 * static_cast<double>(dataset_bytes) + static_cast<double>(1 << 20);
  if (bytes > most)
    throw InputError(where + ": declares chunks of " + std::to_string(static_cast<long long>(bytes)) +
                     " bytes for a dataset of " + std::to_string(dataset_bytes) +
                     ": damaged or crafted file");
  const int filters = H5Pget_nfilters(dcpl.get());
  for (int i = 0; i < filters; ++i) {
    unsigned flags = 0, cd[8];
    std::size_t ncd = 8;
    const H5Z_filter_t id = H5Pget_filter2(dcpl.get(), static_cast<unsigned>(i), &flags, &ncd, cd, 0,
                                           nullptr, nullptr);
    if (id == H5Z_FILTER_DEFLATE || id == H5Z_FILTER_SHUFFLE || id == H5Z_FILTER_FLETCHER32 ||
        id == H5Z_FILTER_NBIT || id == H5Z_FILTER_SCALEOFFSET)
      continue;
    throw InputError(where + ": stored with the filter " + filter_name(id) + " (id " +
                     std::to_string(id) +
                     "), which src-compress does not read (its output size is not bounded); "
                     "store it uncompressed or with gzip (h5repack -f GZIP=4)");
  }
  return static_cast<std::size_t>(bytes);
}

bool has_attr(hid_t obj, const char* name) { return H5Aexists(obj, name) > 0; }

namespace {

// Strings longer than this in an attribute or a scalar dataset are taken for a damaged file.
constexpr std::size_t kMaxStringBytes = std::size_t{16} << 20;

// One value of an attribute or of a scalar dataset: the two HDF5 kinds read alike.
class Value {
 public:
  // The attribute `name` of `obj`, or (dataset) the dataset `name` in the group `obj`.
  Value(hid_t obj, const char* name, bool dataset, const std::string& where)
      : dataset_(dataset),
        what_(where + (dataset ? ": dataset '" : ": attribute '") + name + "'") {
    id_ = dataset ? Handle(H5Dopen2(obj, name, H5P_DEFAULT), H5Dclose)
                  : Handle(H5Aopen(obj, name, H5P_DEFAULT), H5Aclose);
    if (!id_.valid()) throw InputError(what_ + " cannot be opened");
    space_ = Handle(dataset ? H5Dget_space(id_.get()) : H5Aget_space(id_.get()), H5Sclose);
    type_ = Handle(dataset ? H5Dget_type(id_.get()) : H5Aget_type(id_.get()), H5Tclose);
  }
  const std::string& what() const { return what_; }
  hid_t type() const { return type_.get(); }

  // Throws unless it holds exactly one value of class `want` (a crafted file may store an array
  // where we read one value: reading it whole would overrun the one-value buffer).
  void expect_single(H5T_class_t want, const char* kind) const {
    const H5S_class_t shape = space_.valid() ? H5Sget_simple_extent_type(space_.get()) : H5S_NO_CLASS;
    const hssize_t points = space_.valid() ? H5Sget_simple_extent_npoints(space_.get()) : -1;
    if (shape != H5S_SCALAR && !(shape == H5S_SIMPLE && points == 1))
      throw InputError(what_ + " holds " + (points >= 0 ? std::to_string(points) : "no") +
                       " values; expected a single " + kind);
    const H5T_class_t cls = type_.valid() ? H5Tget_class(type_.get()) : H5T_NO_CLASS;
    const bool ok = cls == want || (want == H5T_FLOAT && cls == H5T_INTEGER) ||
                    (want == H5T_INTEGER && cls == H5T_ENUM);
    if (!ok) throw InputError(what_ + " is not " + kind);
  }
  bool read(hid_t mem_type, void* out) const {
    return (dataset_ ? H5Dread(id_.get(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, out)
                     : H5Aread(id_.get(), mem_type, out)) >= 0;
  }

 private:
  bool dataset_;
  std::string what_;
  Handle id_, space_, type_;
};

std::string read_string(const Value& v) {
  v.expect_single(H5T_STRING, "a string");
  if (H5Tis_variable_str(v.type()) > 0) {
    Handle mtype = vlen_string_type(H5Tget_cset(v.type()));
    char* s = nullptr;
    if (!v.read(mtype.get(), &s) || s == nullptr) throw InputError(v.what() + " cannot be read");
    const std::size_t len = strnlen(s, kMaxStringBytes + 1);
    std::string out(s, std::min(len, kMaxStringBytes));
    H5free_memory(s);
    if (len > kMaxStringBytes) throw InputError(v.what() + " is longer than 16 MiB");
    return out;
  }
  // Fixed length: read as stored (its own size, character set and padding), so that nothing is
  // converted: HDF5 refuses UTF-8 to ASCII, and a NULL-terminated string of exactly its size
  // (what HDF5.jl writes) would lose its last byte to the terminator.
  const std::size_t size = H5Tget_size(v.type());
  if (size == 0 || size > kMaxStringBytes)
    throw InputError(v.what() + " has an invalid string size (" + std::to_string(size) + " bytes)");
  Handle mtype(H5Tcopy(v.type()), H5Tclose);
  std::string out(size, '\0');
  if (!v.read(mtype.get(), out.data())) throw InputError(v.what() + " cannot be read");
  const std::size_t nul = out.find('\0');
  if (nul != std::string::npos) out.resize(nul);  // NULLTERM and NULLPAD end at the first NUL
  if (H5Tget_strpad(v.type()) == H5T_STR_SPACEPAD) out.erase(out.find_last_not_of(' ') + 1);
  return out;
}

long long read_int(const Value& v) {
  v.expect_single(H5T_INTEGER, "an integer");
  long long out = 0;
  if (H5Tget_class(v.type()) == H5T_ENUM) {
    // A boolean as h5py writes it (an enum FALSE/TRUE over int8): the stored integer.
    Handle base(H5Tget_super(v.type()), H5Tclose);
    if (!base.valid() || H5Tget_class(base.get()) != H5T_INTEGER || H5Tget_size(base.get()) > sizeof out)
      throw InputError(v.what() + " is not an integer");
    Handle mtype(H5Tcopy(v.type()), H5Tclose);
    std::vector<unsigned char> raw(sizeof out, 0);
    if (!v.read(mtype.get(), raw.data()) ||
        H5Tconvert(base.get(), H5T_NATIVE_LLONG, 1, raw.data(), nullptr, H5P_DEFAULT) < 0)
      throw InputError(v.what() + " cannot be read as an integer");
    std::memcpy(&out, raw.data(), sizeof out);
    return out;
  }
  if (!v.read(H5T_NATIVE_LLONG, &out)) throw InputError(v.what() + " cannot be read as a 64-bit integer");
  return out;
}

unsigned long long read_unsigned(const Value& v) {
  v.expect_single(H5T_INTEGER, "an integer");
  unsigned long long out = 0;
  if (!v.read(H5T_NATIVE_ULLONG, &out)) throw InputError(v.what() + " cannot be read as a 64-bit integer");
  return out;
}

double read_double(const Value& v) {
  v.expect_single(H5T_FLOAT, "a number");
  double out = 0;
  if (!v.read(H5T_NATIVE_DOUBLE, &out)) throw InputError(v.what() + " cannot be read");
  return out;
}

}  // namespace

std::string read_string_attr(hid_t obj, const char* name, const std::string& where) {
  return read_string(Value(obj, name, false, where));
}
long long read_int_attr(hid_t obj, const char* name, const std::string& where) {
  return read_int(Value(obj, name, false, where));
}
double read_double_attr(hid_t obj, const char* name, const std::string& where) {
  return read_double(Value(obj, name, false, where));
}
std::string read_string_dataset(hid_t group, const char* name, const std::string& where) {
  return read_string(Value(group, name, true, where));
}
long long read_int_dataset(hid_t group, const char* name, const std::string& where) {
  return read_int(Value(group, name, true, where));
}
unsigned long long read_uint_dataset(hid_t group, const char* name, const std::string& where) {
  return read_unsigned(Value(group, name, true, where));
}
double read_double_dataset(hid_t group, const char* name, const std::string& where) {
  return read_double(Value(group, name, true, where));
}

}  // namespace srcc::h5
