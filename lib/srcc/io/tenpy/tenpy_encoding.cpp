#include "srcc/io/tenpy/tenpy_encoding.hpp"

#include <cstring>

#include "srcc/core/error.hpp"

namespace srcc::tenpy_h5 {


void fail(const std::string& label, const std::string& what) {
  throw OutputError(label + ": writing the TeNPy " + what + " failed");
}

void str_attr(hid_t obj, const char* name, const std::string& value) {
  Handle t = h5::vlen_string_type();
  Handle s(H5Screate(H5S_SCALAR), H5Sclose);
  if (H5Aexists(obj, name) > 0) H5Adelete(obj, name);
  Handle a(H5Acreate2(obj, name, t.get(), s.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  const char* p = value.c_str();
  if (!a.valid() || H5Awrite(a.get(), t.get(), &p) < 0) throw OutputError(std::string("attribute ") + name);
}

void int_attr(hid_t obj, const char* name, long long v) {
  Handle s(H5Screate(H5S_SCALAR), H5Sclose);
  if (H5Aexists(obj, name) > 0) H5Adelete(obj, name);
  Handle a(H5Acreate2(obj, name, H5T_STD_I64LE, s.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  if (!a.valid() || H5Awrite(a.get(), H5T_NATIVE_LLONG, &v) < 0) throw OutputError(std::string("attribute ") + name);
}

void double_attr(hid_t obj, const char* name, double v) {
  Handle s(H5Screate(H5S_SCALAR), H5Sclose);
  if (H5Aexists(obj, name) > 0) H5Adelete(obj, name);
  Handle a(H5Acreate2(obj, name, H5T_IEEE_F64LE, s.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  if (!a.valid() || H5Awrite(a.get(), H5T_NATIVE_DOUBLE, &v) < 0) throw OutputError(std::string("attribute ") + name);
}

// h5py's boolean: an enum FALSE/TRUE over int8.
void bool_attr(hid_t obj, const char* name, bool v) {
  Handle t(H5Tenum_create(H5T_NATIVE_INT8), H5Tclose);
  const signed char f = 0, tr = 1;
  H5Tenum_insert(t.get(), "FALSE", &f);
  H5Tenum_insert(t.get(), "TRUE", &tr);
  Handle s(H5Screate(H5S_SCALAR), H5Sclose);
  if (H5Aexists(obj, name) > 0) H5Adelete(obj, name);
  Handle a(H5Acreate2(obj, name, t.get(), s.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  const signed char value = v ? 1 : 0;
  if (!a.valid() || H5Awrite(a.get(), t.get(), &value) < 0) throw OutputError(std::string("attribute ") + name);
}

void int_array_attr(hid_t obj, const char* name, const std::vector<long long>& v) {
  const hsize_t n = v.size();
  Handle s(H5Screate_simple(1, &n, nullptr), H5Sclose);
  if (H5Aexists(obj, name) > 0) H5Adelete(obj, name);
  Handle a(H5Acreate2(obj, name, H5T_STD_I64LE, s.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  if (!a.valid() || (n > 0 && H5Awrite(a.get(), H5T_NATIVE_LLONG, v.data()) < 0))
    throw OutputError(std::string("attribute ") + name);
}

Handle group(hid_t parent, const std::string& name, const char* type) {
  Handle g(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
  if (!g.valid()) throw OutputError("group " + name);
  str_attr(g.get(), "type", type);
  return g;
}

Handle list_group(hid_t parent, const std::string& name, std::size_t len, const char* type) {
  Handle g = group(parent, name, type);
  int_attr(g.get(), "len", static_cast<long long>(len));
  return g;
}

Handle instance(hid_t parent, const std::string& name, const char* cls, const char* module) {
  Handle g = group(parent, name, "instance");
  str_attr(g.get(), "class", cls);
  str_attr(g.get(), "module", module);
  return g;
}

void typed_dataset(hid_t d, const char* type) { str_attr(d, "type", type); }

void int_array(hid_t parent, const std::string& name, const std::vector<long long>& v,
               const std::vector<hsize_t>& dims) {
  Handle s(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose);
  Handle d(H5Dcreate2(parent, name.c_str(), H5T_STD_I64LE, s.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose);
  if (!d.valid() || (!v.empty() && H5Dwrite(d.get(), H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) < 0))
    throw OutputError("dataset " + name);
  typed_dataset(d.get(), "array");
}

void real_array(hid_t parent, const std::string& name, const std::vector<double>& v) {
  const hsize_t n = v.size();
  Handle s(H5Screate_simple(1, &n, nullptr), H5Sclose);
  Handle d(H5Dcreate2(parent, name.c_str(), H5T_IEEE_F64LE, s.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose);
  if (!d.valid() || H5Dwrite(d.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) < 0)
    throw OutputError("dataset " + name);
  typed_dataset(d.get(), "array");
}


void str_dataset(hid_t parent, const std::string& name, const std::string& value, const char* type) {
  Handle t = h5::vlen_string_type();
  Handle s(H5Screate(H5S_SCALAR), H5Sclose);
  Handle d(H5Dcreate2(parent, name.c_str(), t.get(), s.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose);
  const char* p = value.c_str();
  // A small conversion buffer: HDF5 would otherwise allocate and zero its default megabyte for
  // every one of the thousands of short strings a train's description holds.
  Handle transfer(H5Pcreate(H5P_DATASET_XFER), H5Pclose);
  H5Pset_buffer(transfer.get(), 4096, nullptr, nullptr);
  if (!d.valid() || H5Dwrite(d.get(), t.get(), H5S_ALL, H5S_ALL, transfer.get(), &p) < 0) throw OutputError("dataset " + name);
  typed_dataset(d.get(), type);
}

void int_dataset(hid_t parent, const std::string& name, long long v) {
  Handle s(H5Screate(H5S_SCALAR), H5Sclose);
  Handle d(H5Dcreate2(parent, name.c_str(), H5T_STD_I64LE, s.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose);
  if (!d.valid() || H5Dwrite(d.get(), H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, &v) < 0) throw OutputError("dataset " + name);
  typed_dataset(d.get(), "int");
}

void float_dataset(hid_t parent, const std::string& name, double v) {
  Handle s(H5Screate(H5S_SCALAR), H5Sclose);
  Handle d(H5Dcreate2(parent, name.c_str(), H5T_IEEE_F64LE, s.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose);
  if (!d.valid() || H5Dwrite(d.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &v) < 0) throw OutputError("dataset " + name);
  typed_dataset(d.get(), "float");
}

void none(hid_t parent, const std::string& name) { str_dataset(parent, name, "None", "None"); }

void hard_link(hid_t from_loc, const std::string& from, hid_t to_loc, const std::string& to) {
  if (H5Lcreate_hard(from_loc, from.c_str(), to_loc, to.c_str(), H5P_DEFAULT, H5P_DEFAULT) < 0)
    throw OutputError("link " + to + " → " + from);
}

}  // namespace srcc::tenpy_h5
