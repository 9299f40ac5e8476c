#include "srcc/io/h5/h5_dataset.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "srcc/core/error.hpp"
#include "srcc/io/h5/chunk_reader.hpp"
#include "srcc/io/h5/h5_handle.hpp"

namespace srcc::h5 {

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

std::vector<std::size_t> dataset_shape(hid_t dset) {
  Handle space(H5Dget_space(dset), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  std::vector<hsize_t> dims(static_cast<std::size_t>(std::max(rank, 0)));
  H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  return {dims.begin(), dims.end()};
}

// Only contiguous storage of the full size qualifies (not chunked, compact or external), with
// the exact little-endian IEEE types, the real member first, on a little-endian host.
// H5Dget_offset counts from the file's first byte, a user block included.
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

void read_values(hid_t dset, const StoredType& st, void* out, std::size_t elements,
                 const std::string& where) {
  // The buffer is sized from a description: a dataset that does not match it (a file written
  // into meanwhile, a crafted one) must not be read into it.
  if (shape_size(dataset_shape(dset)) != elements)
    throw InputError(where + ": the dataset does not hold the " + std::to_string(elements) +
                     " values it was described with (written into while being read?)");
  Handle mtype = memory_type(st.dtype, st.re.c_str(), st.im.c_str());
  check_storage(dset, elements * dtype_size(st.dtype), where);
  if (elements == 0) return;
  if (!read_chunked(dset, mtype.get(), out, where) &&
      H5Dread(dset, mtype.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, out) < 0)
    throw InputError(where + ": reading the dataset failed");
}

namespace {

std::string index_string(std::size_t flat, const std::vector<std::size_t>& shape) {
  std::vector<std::size_t> idx(shape.size());
  for (std::size_t a = shape.size(); a-- > 0;) {
    idx[a] = shape[a] > 0 ? flat % shape[a] : 0;
    flat = shape[a] > 0 ? flat / shape[a] : 0;
  }
  return shape_string(idx);
}

Handle open_dataset(hid_t parent, const std::string& path, const std::string& where) {
  Handle d(H5Dopen2(parent, path.c_str(), H5P_DEFAULT), H5Dclose);
  if (!d.valid()) throw InputError(where + ": not a dataset");
  return d;
}

std::size_t checked_size(const std::vector<std::size_t>& shape, std::size_t max_elements,
                         const std::string& where) {
  double n = 1;  // in double: a crafted shape must not wrap around
  for (auto d : shape) n *= static_cast<double>(d);
  if (n > static_cast<double>(max_elements))
    throw InputError(where + ": " + shape_string(shape) + " is far larger than such metadata can be "
                                                          "(damaged or crafted file)");
  return static_cast<std::size_t>(n);
}

template <class V>
std::vector<V> read_numbers(hid_t parent, const std::string& path, const std::string& where,
                            std::size_t max_elements, std::vector<std::size_t>* shape_out,
                            hid_t mem_type, H5T_class_t want) {
  Handle d = open_dataset(parent, path, where);
  Handle t(H5Dget_type(d.get()), H5Tclose);
  const H5T_class_t cls = H5Tget_class(t.get());
  if (cls != want && !(want == H5T_FLOAT && cls == H5T_INTEGER))
    throw InputError(where + ": expected an array of " + (want == H5T_INTEGER ? "integers" : "numbers"));
  const auto shape = dataset_shape(d.get());
  const std::size_t n = checked_size(shape, max_elements, where);
  check_storage(d.get(), n * sizeof(V), where);
  std::vector<V> out(n);
  if (n > 0 && !read_chunked(d.get(), mem_type, out.data(), where) &&
      H5Dread(d.get(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()) < 0)
    throw InputError(where + ": reading the dataset failed");
  if (shape_out) *shape_out = shape;
  return out;
}

}  // namespace

template <class T> void check_finite(const Tensor<T>& t, const Shape& shape, const std::string& where) {
  for (std::size_t i = 0; i < t.size(); ++i) {
    bool ok;
    if constexpr (is_complex_v<T>) ok = std::isfinite(t.data[i].real()) && std::isfinite(t.data[i].imag());
    else ok = std::isfinite(t.data[i]);
    if (!ok)
      throw InputError(where + ": non-finite value (NaN or Inf) at index " + index_string(i, shape));
  }
}

AnyTensor read_any(hid_t parent, const std::string& path, const std::string& where,
                   std::size_t max_elements) {
  Handle d = open_dataset(parent, path, where);
  const StoredType st = stored_type(d.get(), where);
  const auto shape = dataset_shape(d.get());
  const std::size_t n = checked_size(shape, max_elements, where);
  return visit_dtype(st.dtype, [&](auto zero) -> AnyTensor {
    using T = decltype(zero);
    Tensor<T> t(shape);
    read_values(d.get(), st, t.data.data(), n, where);
    check_finite(t, shape, where);
    return t;
  });
}

std::vector<long long> read_int_array(hid_t parent, const std::string& path, const std::string& where,
                                      std::size_t max_elements, std::vector<std::size_t>* shape) {
  return read_numbers<long long>(parent, path, where, max_elements, shape, H5T_NATIVE_LLONG, H5T_INTEGER);
}

std::vector<double> read_real_array(hid_t parent, const std::string& path, const std::string& where,
                                    std::size_t max_elements, std::vector<std::size_t>* shape) {
  return read_numbers<double>(parent, path, where, max_elements, shape, H5T_NATIVE_DOUBLE, H5T_FLOAT);
}

std::vector<std::string> read_string_array(hid_t parent, const std::string& path, const std::string& where,
                                           std::size_t max_elements) {
  Handle d = open_dataset(parent, path, where);
  Handle t(H5Dget_type(d.get()), H5Tclose);
  if (H5Tget_class(t.get()) != H5T_STRING) throw InputError(where + ": expected strings");
  const std::size_t n = checked_size(dataset_shape(d.get()), max_elements, where);
  std::vector<std::string> out;
  if (n == 0) return out;
  if (H5Tis_variable_str(t.get()) > 0) {
    Handle m = vlen_string_type(H5Tget_cset(t.get()));
    std::vector<char*> p(n, nullptr);
    if (H5Dread(d.get(), m.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, p.data()) < 0)
      throw InputError(where + ": cannot be read");
    for (char* s : p) out.emplace_back(s ? s : "");
    Handle space(H5Dget_space(d.get()), H5Sclose);
    H5Dvlen_reclaim(m.get(), space.get(), H5P_DEFAULT, p.data());
    return out;
  }
  const std::size_t size = H5Tget_size(t.get());
  if (size == 0 || size > 4096) throw InputError(where + ": strings of " + std::to_string(size) + " bytes");
  Handle m(H5Tcopy(t.get()), H5Tclose);
  std::string raw(n * size, '\0');
  if (H5Dread(d.get(), m.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, raw.data()) < 0) throw InputError(where + ": cannot be read");
  for (std::size_t i = 0; i < n; ++i) {
    std::string s = raw.substr(i * size, size);
    s.resize(std::min(s.size(), s.find('\0')));
    out.push_back(s);
  }
  return out;
}

bool exists(hid_t parent, const std::string& path) {
  // Link by link: H5Lexists fails, rather than answering, when a parent is missing.
  std::string prefix;
  std::size_t start = path.rfind('/', 0) == 0 ? 1 : 0;
  while (start <= path.size()) {
    const std::size_t slash = path.find('/', start);
    const std::size_t end = slash == std::string::npos ? path.size() : slash;
    if (end > start) {
      prefix += (prefix.empty() && path.front() != '/' ? "" : "/") + path.substr(start, end - start);
      if (H5Lexists(parent, prefix.c_str(), H5P_DEFAULT) <= 0) return false;
    }
    start = end + 1;
  }
  return !prefix.empty();
}

void log_site_read(TransferLog& log, TrainKind kind, std::size_t site, const std::string& where,
                   DType dtype, std::size_t bytes, double seconds) {
  const std::string dt(dtype_name(dtype));
  log.add({.what = std::string(kind == TrainKind::kMps ? "mps site" : "mpo site"),
           .site = static_cast<std::int64_t>(site),
           .mechanism = mechanism::kFileRead,
           .source = "file:" + where,
           .target = "host",
           .dtype_from = dt,
           .dtype_to = dt,
           .bytes = static_cast<std::int64_t>(bytes),
           .seconds = seconds});
}

#define SRCC_INSTANTIATE(T) \
  template void check_finite(const Tensor<T>&, const Shape&, const std::string&);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc::h5
