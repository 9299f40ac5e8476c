#include "srcc/io/h5_handle.hpp"

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

}  // namespace srcc::h5
