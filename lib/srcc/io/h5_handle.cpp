#include "srcc/io/h5_handle.hpp"

#include "srcc/core/error.hpp"
#include "srcc/io/h5_names.hpp"

namespace srcc::h5 {

void quiet_errors() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

namespace {

Handle compound_of(hid_t member, std::size_t member_size, const char* re, const char* im) {
  Handle t(H5Tcreate(H5T_COMPOUND, 2 * member_size), H5Tclose);
  H5Tinsert(t.get(), re, 0, member);
  H5Tinsert(t.get(), im, member_size, member);
  return t;
}

}  // namespace

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

bool has_attr(hid_t obj, const char* name) { return H5Aexists(obj, name) > 0; }

std::string read_string_attr(hid_t obj, const char* name, const std::string& where) {
  Handle a(H5Aopen(obj, name, H5P_DEFAULT), H5Aclose);
  if (!a.valid()) throw InputError(where + ": cannot open attribute '" + name + "'");
  Handle ftype(H5Aget_type(a.get()), H5Tclose);
  if (H5Tget_class(ftype.get()) != H5T_STRING)
    throw InputError(where + ": attribute '" + std::string(name) + "' is not a string");
  if (H5Tis_variable_str(ftype.get()) > 0) {
    Handle mtype(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(mtype.get(), H5T_VARIABLE);
    H5Tset_cset(mtype.get(), H5Tget_cset(ftype.get()));
    char* s = nullptr;
    if (H5Aread(a.get(), mtype.get(), &s) < 0 || s == nullptr)
      throw InputError(where + ": cannot read attribute '" + name + "'");
    std::string out(s);
    H5free_memory(s);
    return out;
  }
  const std::size_t size = H5Tget_size(ftype.get());
  std::string out(size, '\0');
  Handle mtype(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(mtype.get(), size);
  if (H5Aread(a.get(), mtype.get(), out.data()) < 0)
    throw InputError(where + ": cannot read attribute '" + name + "'");
  out.resize(out.find('\0') == std::string::npos ? size : out.find('\0'));
  return out;
}

long long read_int_attr(hid_t obj, const char* name, const std::string& where) {
  Handle a(H5Aopen(obj, name, H5P_DEFAULT), H5Aclose);
  Handle ftype(H5Aget_type(a.get()), H5Tclose);
  if (H5Tget_class(ftype.get()) != H5T_INTEGER)
    throw InputError(where + ": attribute '" + std::string(name) + "' is not an integer");
  long long v = 0;
  if (H5Aread(a.get(), H5T_NATIVE_LLONG, &v) < 0)
    throw InputError(where + ": cannot read attribute '" + name + "'");
  return v;
}

double read_double_attr(hid_t obj, const char* name, const std::string& where) {
  Handle a(H5Aopen(obj, name, H5P_DEFAULT), H5Aclose);
  double v = 0;
  if (!a.valid() || H5Aread(a.get(), H5T_NATIVE_DOUBLE, &v) < 0)
    throw InputError(where + ": cannot read attribute '" + name + "'");
  return v;
}

}  // namespace srcc::h5
