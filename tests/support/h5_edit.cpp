#include "h5_edit.hpp"

#include <hdf5.h>

#include <stdexcept>
#include <vector>

namespace srcc::test {

namespace {

hid_t open_rw(const std::filesystem::path& file) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  if (f < 0) throw std::runtime_error(file.string() + ": cannot open for writing");
  return f;
}

// A scalar attribute of `object` deleted and made anew: HDF5 1.10 cannot always rewrite one in place.
void scalar_attr(const std::filesystem::path& file, const std::string& object, const char* name, hid_t file_type,
                 hid_t memory_type, const void* value) {
  const hid_t f = open_rw(file);
  if (H5Aexists_by_name(f, object.c_str(), name, H5P_DEFAULT) > 0) H5Adelete_by_name(f, object.c_str(), name, H5P_DEFAULT);
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t a = H5Acreate_by_name(f, object.c_str(), name, file_type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  const herr_t ok = H5Awrite(a, memory_type, value);
  H5Aclose(a);
  H5Sclose(space);
  H5Fclose(f);
  if (ok < 0) throw std::runtime_error(file.string() + ":" + object + "@" + name + ": cannot write");
}

}  // namespace

void set_int_attr(const std::filesystem::path& file, const std::string& object, const char* name, long long value) {
  scalar_attr(file, object, name, H5T_STD_I64LE, H5T_NATIVE_LLONG, &value);
}

void set_double_attr(const std::filesystem::path& file, const std::string& object, const char* name, double value) {
  scalar_attr(file, object, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value);
}

void scale_dataset(const std::filesystem::path& file, const std::string& dataset, double factor) {
  const hid_t f = open_rw(file);
  const hid_t d = H5Dopen2(f, dataset.c_str(), H5P_DEFAULT);
  const hid_t space = H5Dget_space(d);
  std::vector<double> v(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
  H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
  for (auto& x : v) x *= factor;
  const herr_t ok = H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
  H5Sclose(space);
  H5Dclose(d);
  H5Fclose(f);
  if (ok < 0) throw std::runtime_error(file.string() + ":" + dataset + ": cannot rewrite");
}

void unlink_object(const std::filesystem::path& file, const std::string& path) {
  const hid_t f = open_rw(file);
  const herr_t ok = H5Ldelete(f, path.c_str(), H5P_DEFAULT);
  H5Fclose(f);
  if (ok < 0) throw std::runtime_error(file.string() + ":" + path + ": cannot unlink");
}

void remove_row(const std::filesystem::path& file, const std::string& dataset, std::size_t row) {
  const hid_t f = open_rw(file);
  const hid_t d = H5Dopen2(f, dataset.c_str(), H5P_DEFAULT);
  const hid_t t = H5Dget_type(d);
  const hid_t space = H5Dget_space(d);
  const auto n = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space));
  const std::size_t size = H5Tget_size(t);
  std::vector<unsigned char> rows(n * size);
  H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows.data());
  rows.erase(rows.begin() + static_cast<std::ptrdiff_t>(row * size), rows.begin() + static_cast<std::ptrdiff_t>((row + 1) * size));
  H5Sclose(space);
  H5Dclose(d);
  H5Ldelete(f, dataset.c_str(), H5P_DEFAULT);
  const hsize_t m = n - 1;
  const hid_t s2 = H5Screate_simple(1, &m, nullptr);
  const hid_t d2 = H5Dcreate2(f, dataset.c_str(), t, s2, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  const herr_t ok = H5Dwrite(d2, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows.data());
  H5Dclose(d2);
  H5Sclose(s2);
  H5Tclose(t);
  H5Fclose(f);
  if (ok < 0) throw std::runtime_error(file.string() + ":" + dataset + ": cannot rewrite");
}

}  // namespace srcc::test
