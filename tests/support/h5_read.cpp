#include "h5_read.hpp"

#include <algorithm>
#include <cmath>
#include <hdf5.h>

#include "srcc/io/h5/h5_handle.hpp"
#include "srcc/io/train_reader.hpp"
#include "srcc/train/site_loader.hpp"

namespace srcc::test {

std::vector<Tensor<cdouble>> read_cores(const std::filesystem::path& file, const std::string& group,
                                        TrainFormat format) {
  TrainReader r(TrainRef{file.string(), group, format});
  TransferLog log;
  std::vector<Tensor<cdouble>> out;
  for (std::size_t j = 0; j < r.info().length(); ++j)
    out.push_back(to_internal<cdouble>(r.read_site(j, log), r.info(), j, log));
  return out;
}

double read_scalar(const std::filesystem::path& file, const char* dataset) {
  hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t d = H5Dopen2(f, dataset, H5P_DEFAULT);
  double v = 0;
  H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &v);
  H5Dclose(d);
  H5Fclose(f);
  return v;
}

std::vector<cdouble> read_numbers(const std::filesystem::path& file, const std::string& dataset) {
  hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t d = H5Dopen2(f, dataset.c_str(), H5P_DEFAULT);
  hid_t space = H5Dget_space(d), type = H5Dget_type(d);
  std::vector<cdouble> out(static_cast<std::size_t>(std::max<hssize_t>(H5Sget_simple_extent_npoints(space), 0)));
  if (H5Tget_class(type) == H5T_COMPOUND) {
    hid_t mem = H5Tcreate(H5T_COMPOUND, sizeof(cdouble));
    H5Tinsert(mem, "r", 0, H5T_NATIVE_DOUBLE);
    H5Tinsert(mem, "i", sizeof(double), H5T_NATIVE_DOUBLE);
    H5Dread(d, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data());
    H5Tclose(mem);
  } else {
    std::vector<double> re(out.size());
    H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, re.data());
    for (std::size_t i = 0; i < re.size(); ++i) out[i] = re[i];
  }
  H5Tclose(type);
  H5Sclose(space);
  H5Dclose(d);
  H5Fclose(f);
  return out;
}

namespace {

// A scalar attribute read as `memory_type`; `missing` when it cannot be read.
template <class V>
V read_scalar_attr(const std::filesystem::path& file, const std::string& object, const char* name, hid_t memory_type,
                   V missing) {
  hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t a = H5Aopen_by_name(f, object.c_str(), name, H5P_DEFAULT, H5P_DEFAULT);
  V v = missing;
  H5Aread(a, memory_type, &v);
  H5Aclose(a);
  H5Fclose(f);
  return v;
}

}  // namespace

long long read_int_attr(const std::filesystem::path& file, const std::string& object, const char* name) {
  return read_scalar_attr<long long>(file, object, name, H5T_NATIVE_LLONG, -1);
}

double read_double_attr(const std::filesystem::path& file, const std::string& object, const char* name) {
  return read_scalar_attr<double>(file, object, name, H5T_NATIVE_DOUBLE, std::nan(""));
}

bool has_attr(const std::filesystem::path& file, const std::string& object, const char* name) {
  hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const bool yes = H5Aexists_by_name(f, object.c_str(), name, H5P_DEFAULT) > 0;
  H5Fclose(f);
  return yes;
}

std::string read_string_attr(const std::filesystem::path& file, const std::string& object, const char* name) {
  hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t o = H5Oopen(f, object.c_str(), H5P_DEFAULT);
  std::string v = h5::read_string_attr(o, name, file.string());
  H5Oclose(o);
  H5Fclose(f);
  return v;
}

std::map<std::string, std::vector<double>> read_columns(const std::filesystem::path& file, const char* dataset) {
  std::map<std::string, std::vector<double>> out;
  hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t d = H5Dopen2(f, dataset, H5P_DEFAULT);
  hid_t t = H5Dget_type(d), s = H5Dget_space(d);
  const auto rows = static_cast<std::size_t>(H5Sget_simple_extent_npoints(s));
  for (int m = 0; m < H5Tget_nmembers(t); ++m) {
    const H5T_class_t kind = H5Tget_member_class(t, static_cast<unsigned>(m));
    char* name = H5Tget_member_name(t, static_cast<unsigned>(m));
    if (kind == H5T_INTEGER || kind == H5T_FLOAT) {
      hid_t one = H5Tcreate(H5T_COMPOUND, sizeof(double));
      H5Tinsert(one, name, 0, H5T_NATIVE_DOUBLE);
      std::vector<double> v(rows);
      H5Dread(d, one, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
      out[name] = v;
      H5Tclose(one);
    }
    H5free_memory(name);
  }
  H5Sclose(s);
  H5Tclose(t);
  H5Dclose(d);
  H5Fclose(f);
  return out;
}

}  // namespace srcc::test
