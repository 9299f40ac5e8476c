#include "h5_fixture.hpp"

#include <hdf5.h>
#include <unistd.h>

#include <stdexcept>

namespace srcc::test {

namespace {

void put_string_attr(hid_t obj, const char* name, const std::string& value) {
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, H5T_VARIABLE);
  hid_t space = H5Screate(H5S_SCALAR);
  hid_t a = H5Acreate2(obj, name, t, space, H5P_DEFAULT, H5P_DEFAULT);
  const char* p = value.c_str();
  H5Awrite(a, t, &p);
  H5Aclose(a);
  H5Sclose(space);
  H5Tclose(t);
}

}  // namespace

void write_raw_train(const std::filesystem::path& path, const RawTrain& t) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  hid_t f = std::filesystem::exists(path) ? H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT)
                                          : H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT,
                                                      H5P_DEFAULT);
  if (f < 0) throw std::runtime_error("fixture: cannot open " + path.string());
  hid_t g = t.group == "/" ? H5Gopen2(f, "/", H5P_DEFAULT)
                           : H5Gcreate2(f, t.group.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (t.type) put_string_attr(g, "type", *t.type);
  if (t.layout) put_string_attr(g, "layout", *t.layout);
  if (t.length) {
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(g, "length", H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT);
    const long long v = *t.length;
    H5Awrite(a, H5T_NATIVE_LLONG, &v);
    H5Aclose(a);
    H5Sclose(space);
  }
  const bool cplx = t.dtype == DType::kComplex64 || t.dtype == DType::kComplex128;
  const bool single = t.dtype == DType::kFloat32 || t.dtype == DType::kComplex64;
  hid_t member = single ? H5T_IEEE_F32LE : H5T_IEEE_F64LE;
  hid_t ftype = member;
  hid_t ctype = -1;
  if (cplx) {
    const std::size_t ms = single ? 4 : 8;
    ctype = H5Tcreate(H5T_COMPOUND, 2 * ms);
    H5Tinsert(ctype, t.re.c_str(), 0, member);
    H5Tinsert(ctype, t.im.c_str(), ms, member);
    ftype = ctype;
  }
  // Memory: always double / {double, double} with the file's member names; HDF5 converts.
  hid_t mtype = H5T_NATIVE_DOUBLE;
  hid_t mctype = -1;
  if (cplx) {
    mctype = H5Tcreate(H5T_COMPOUND, 16);
    H5Tinsert(mctype, t.re.c_str(), 0, H5T_NATIVE_DOUBLE);
    H5Tinsert(mctype, t.im.c_str(), 8, H5T_NATIVE_DOUBLE);
    mtype = mctype;
  }
  for (std::size_t j = 0; j < t.sites.size(); ++j) {
    const auto& s = t.sites[j];
    std::vector<hsize_t> dims(s.shape.begin(), s.shape.end());
    hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
    const std::string name = t.names.empty() ? std::to_string(j) : t.names[j];
    hid_t d = H5Dcreate2(g, name.c_str(), ftype, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (cplx) {
      H5Dwrite(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, s.data.data());
    } else {
      std::vector<double> re;
      for (const auto& v : s.data) re.push_back(v.real());
      H5Dwrite(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, re.data());
    }
    H5Dclose(d);
    H5Sclose(space);
  }
  if (ctype >= 0) H5Tclose(ctype);
  if (mctype >= 0) H5Tclose(mctype);
  H5Gclose(g);
  H5Fclose(f);
}

TempDir::TempDir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "srcc-test-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

}  // namespace srcc::test

namespace srcc::test {

Tensor<cdouble> stored_site(const Tensor<cdouble>& internal, bool mps, const std::string& layout,
                            bool drop_boundary, std::size_t site, std::size_t n) {
  auto axis_of = [&](char c) -> std::size_t {
    switch (c) {
      case 'l': return 0;
      case 'r': return 1;
      case 'u':
      case 'p': return 2;
      default: return 3;
    }
  };
  std::string letters;
  for (char c : layout) {
    if (drop_boundary && ((c == 'l' && site == 0) || (c == 'r' && site + 1 == n))) continue;
    letters += c;
  }
  Shape shape;
  for (char c : letters) shape.push_back(internal.shape[axis_of(c)]);
  Tensor<cdouble> out(shape);
  const auto& is = internal.shape;
  (void)mps;
  for (std::size_t l = 0; l < is[0]; ++l)
    for (std::size_t r = 0; r < is[1]; ++r)
      for (std::size_t u = 0; u < is[2]; ++u)
        for (std::size_t d = 0; d < is[3]; ++d) {
          const std::size_t idx4[4] = {l, r, u, d};
          std::size_t flat = 0;
          for (std::size_t a = 0; a < letters.size(); ++a)
            flat = flat * shape[a] + idx4[axis_of(letters[a])];
          out.data[flat] = internal.data[((l * is[1] + r) * is[2] + u) * is[3] + d];
        }
  return out;
}

RawTrain stored_train(const std::vector<Tensor<cdouble>>& cores, bool mps, const std::string& layout,
                      bool drop_boundary, const std::string& group) {
  RawTrain t;
  t.group = group;
  t.type = mps ? "MPS" : "MPO";
  t.layout = layout;
  t.dtype = DType::kComplex128;
  for (std::size_t j = 0; j < cores.size(); ++j)
    t.sites.push_back(stored_site(cores[j], mps, layout, drop_boundary, j, cores.size()));
  return t;
}

hid_t mps_group(hid_t f) {
  hid_t g = H5Gcreate2(f, "/psi", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, 4);
  hid_t sp = H5Screate(H5S_SCALAR);
  hid_t a = H5Acreate2(g, "type", t, sp, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(a, t, "MPS");
  H5Aclose(a);
  H5Sclose(sp);
  H5Tclose(t);
  return g;
}

}  // namespace srcc::test
