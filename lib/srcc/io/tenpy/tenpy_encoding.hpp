#pragma once
// TeNPy's hdf5_io encodings as h5py writes them: typed attributes, groups that stand for lists
// and class instances, datasets of numbers, strings and None, hard links. What the TeNPy writer
// builds its objects from (io/tenpy_writer.cpp).
#include <hdf5.h>

#include <string>
#include <vector>

#include "srcc/core/dtype.hpp"
#include "srcc/core/error.hpp"
#include "srcc/io/h5/h5_dataset.hpp"
#include "srcc/io/h5/h5_handle.hpp"

namespace srcc::tenpy_h5 {

using h5::Handle;

// Throws OutputError: `label`: writing `what` failed.
void fail(const std::string& label, const std::string& what);
// Attributes as h5py stores them (strings variable-length, booleans an enum FALSE/TRUE over int8).
void str_attr(hid_t obj, const char* name, const std::string& value);
void int_attr(hid_t obj, const char* name, long long v);
void double_attr(hid_t obj, const char* name, double v);
void bool_attr(hid_t obj, const char* name, bool v);
void int_array_attr(hid_t obj, const char* name, const std::vector<long long>& v);
// A group with hdf5_io's `type` (a list or tuple with its `len`, a class instance with its
// module and class names).
Handle group(hid_t parent, const std::string& name, const char* type);
Handle list_group(hid_t parent, const std::string& name, std::size_t len, const char* type = "list");
Handle instance(hid_t parent, const std::string& name, const char* cls, const char* module);
// Datasets with their hdf5_io `type`: arrays of numbers, strings, None.
void typed_dataset(hid_t d, const char* type);
void int_array(hid_t parent, const std::string& name, const std::vector<long long>& v,
               const std::vector<hsize_t>& dims);
void real_array(hid_t parent, const std::string& name, const std::vector<double>& v);
void str_dataset(hid_t parent, const std::string& name, const std::string& value, const char* type = "str");
void int_dataset(hid_t parent, const std::string& name, long long v);
void float_dataset(hid_t parent, const std::string& name, double v);
void none(hid_t parent, const std::string& name);
// A second name for an object (TeNPy shares objects, e.g. chinfo, by hard links).
void hard_link(hid_t from_loc, const std::string& from, hid_t to_loc, const std::string& to);

template <class T>
inline void tensor_array(hid_t parent, const std::string& name, const std::vector<T>& v, const std::vector<hsize_t>& dims) {
  Handle s(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose);
  Handle ft = h5::file_type(dtype_of<T>);
  Handle mt = h5::memory_type(dtype_of<T>, "r", "i");
  Handle d(H5Dcreate2(parent, name.c_str(), ft.get(), s.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose);
  if (!d.valid() || H5Dwrite(d.get(), mt.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) < 0)
    throw OutputError("dataset " + name);
  typed_dataset(d.get(), "array");
}

}  // namespace srcc::tenpy_h5
