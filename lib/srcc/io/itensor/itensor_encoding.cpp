#include "srcc/io/itensor/itensor_encoding.hpp"

#include <algorithm>

#include "srcc/core/error.hpp"

namespace srcc::julia_h5 {

namespace {

// A Julia String: fixed length of exactly its bytes (at least one), NULLTERM, UTF-8.
Handle julia_string_type(const std::string& s) {
  Handle t(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(t.get(), std::max<std::size_t>(s.size(), 1));
  H5Tset_cset(t.get(), H5T_CSET_UTF8);
  H5Tset_strpad(t.get(), H5T_STR_NULLTERM);
  return t;
}

template <class V> void scalar(hid_t g, const char* name, hid_t file_type, hid_t mem_type, V v) {
  Handle s(H5Screate(H5S_SCALAR), H5Sclose);
  Handle d(H5Dcreate2(g, name, file_type, s.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose);
  if (!d.valid() || H5Dwrite(d.get(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, &v) < 0)
    throw OutputError(std::string("dataset ") + name);
}

}  // namespace

void string_attr(hid_t obj, const char* name, const std::string& v) {
  Handle t = julia_string_type(v);
  Handle s(H5Screate(H5S_SCALAR), H5Sclose);
  Handle a(H5Acreate2(obj, name, t.get(), s.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  std::string buf = v.empty() ? std::string(1, '\0') : v;
  if (!a.valid() || H5Awrite(a.get(), t.get(), buf.data()) < 0) throw OutputError(std::string("attribute ") + name);
}

void string_dataset(hid_t g, const char* name, const std::string& v) {
  Handle t = julia_string_type(v);
  Handle s(H5Screate(H5S_SCALAR), H5Sclose);
  Handle d(H5Dcreate2(g, name, t.get(), s.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose);
  std::string buf = v.empty() ? std::string(1, '\0') : v;
  if (!d.valid() || H5Dwrite(d.get(), t.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buf.data()) < 0)
    throw OutputError(std::string("dataset ") + name);
}

void int_attr(hid_t obj, const char* name, long long v) {
  Handle s(H5Screate(H5S_SCALAR), H5Sclose);
  Handle a(H5Acreate2(obj, name, H5T_STD_I64LE, s.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  if (!a.valid() || H5Awrite(a.get(), H5T_NATIVE_LLONG, &v) < 0) throw OutputError(std::string("attribute ") + name);
}

void int_dataset(hid_t g, const char* name, long long v) { scalar(g, name, H5T_STD_I64LE, H5T_NATIVE_LLONG, v); }
void uint_dataset(hid_t g, const char* name, unsigned long long v) { scalar(g, name, H5T_STD_U64LE, H5T_NATIVE_ULLONG, v); }

void int_vector(hid_t g, const char* name, const std::vector<long long>& v) {
  const hsize_t n = v.size();
  Handle s(H5Screate_simple(1, &n, nullptr), H5Sclose);
  Handle d(H5Dcreate2(g, name, H5T_STD_I64LE, s.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose);
  if (!d.valid() || (n > 0 && H5Dwrite(d.get(), H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) < 0))
    throw OutputError(std::string("dataset ") + name);
}

// A Julia Vector{String}: variable-length UTF-8 strings.
void string_vector(hid_t g, const char* name, const std::vector<std::string>& v) {
  const hsize_t n = v.size();
  Handle t = h5::vlen_string_type(H5T_CSET_UTF8);
  Handle s(H5Screate_simple(1, &n, nullptr), H5Sclose);
  Handle d(H5Dcreate2(g, name, t.get(), s.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose);
  std::vector<const char*> p;
  for (const auto& x : v) p.push_back(x.c_str());
  if (!d.valid() || H5Dwrite(d.get(), t.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, p.data()) < 0)
    throw OutputError(std::string("dataset ") + name);
}

Handle typed_group(hid_t parent, const std::string& name, const std::string& type) {
  Handle g(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
  if (!g.valid()) throw OutputError("group " + name);
  string_attr(g.get(), "type", type);
  int_attr(g.get(), "version", 1);
  return g;
}

}  // namespace srcc::julia_h5
