// ITensor's trains (lib/srcc/io/itensor/itensor_train.cpp, itensor_objects.cpp): the file
// ITensors.jl wrote itself read exactly, dense, block-sparse, diagonal and empty storages, and
// HDF5.jl's strings of every kind.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <cmath>

#include "../support/cli_runner.hpp"
#include "../support/dense.hpp"
#include "../support/h5_read.hpp"
#include "../support/stored_blocks.hpp"
#include "srcc/io/h5/h5_handle.hpp"
#include "srcc/io/itensor/itensor_objects.hpp"

namespace srcc::test {
namespace {

std::string data(const std::string& name) { return test_data(name); }

TEST(ItensorTrain, TheFileITensorsJlWroteIsReadExactly) {
  hid_t f = H5Fopen(data("itensor_real_testfile_v0.1.41.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const auto t = itensor::read_tensor_info(f, "/ITensorv0.1.41", "test");
  std::vector<double> values(t.elements());
  itensor::read_tensor_values(f, t, values.data(), "test");
  // The raw data, for comparison: read without our reader.
  std::vector<double> raw(24);
  hid_t d = H5Dopen2(f, "/ITensorv0.1.41/store/data", H5P_DEFAULT);
  H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, raw.data());
  H5Dclose(d);
  H5Fclose(f);
  ASSERT_EQ(t.inds.size(), 3u);
  EXPECT_EQ(t.storage, itensor::Storage::kDense);
  EXPECT_EQ(t.dtype, DType::kFloat64);
  const std::vector<std::string> tags = {"i", "j", "k"};
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(t.inds[k].dim, static_cast<long long>(k + 2));
    EXPECT_EQ(t.inds[k].tags, tags[k]);
    EXPECT_EQ(t.inds[k].plev, 0);
  }
  EXPECT_EQ(t.inds[1].id, 16048238716278223740ULL);  // all 64 bits of an id
  EXPECT_EQ(values, raw);
}

TEST(ItensorTrain, ItensorDenseBlockSparseDiagAndEmptyStorage) {
  // The TFI model as ITensor dense MPS and MPO: the same energy as TeNPy's.
  const auto psi = read_cores(data("itensor_tfi_L16_dense.h5"), "/psi");
  const auto h = read_cores(data("itensor_tfi_L16_dense.h5"), "/H");
  EXPECT_NEAR(energy(h, psi).real(), read_scalar(data("tenpy_tfi_L16_mps.h5"), "/E0"), 1e-10);
  // QN blocks (BlockSparse, one Dense tensor, one under the old name 'store', indices in any
  // order): TeNPy's XXZ ground state and energy.
  const auto qpsi = read_cores(data("itensor_xxz_L12_qn.h5"), "/psi");
  EXPECT_NEAR(energy(read_cores(data("itensor_xxz_L12_qn.h5"), "/H"), qpsi).real(),
              read_scalar(data("itensor_xxz_L12_qn.h5"), "/E0"), 1e-10);
  // GHZ from Diag tensors (full and uniform): (|0…0⟩ + |1…1⟩)/√2.
  const auto ghz = dense_train(read_cores(data("itensor_ghz_L5_diag.h5"), "/psi")).v;
  ASSERT_EQ(ghz.size(), 32u);
  for (std::size_t i = 0; i < 32; ++i)
    EXPECT_NEAR(std::abs(ghz[i]), i == 0 || i == 31 ? 1 / std::sqrt(2.0) : 0.0, 1e-15) << i;
  // One tensor EmptyStorage: the zero state.
  EXPECT_EQ(norm(dense_train(read_cores(data("itensor_zero_L4_empty.h5"), "/psi")).v), 0.0);
}

// A charged run reads the QN blocks as stored (support/stored_blocks.hpp); the file's one Dense
// tensor is read dense and split by its charges beside them.
TEST(ItensorTrain, ChargedRunsReadTheStoredBlocksWithoutDenseSites) {
  stored_blocks_match_dense<double>("itensor_xxz_L12_qn.h5", "/psi", false);
  stored_blocks_match_dense<cdouble>("itensor_xxz_L12_qn.h5", "/psi", false);
}

// Files of different libraries agree where their bases do (TeNPy's SpinHalfSite and ITensor's
// S=1/2 are both (up, down)); where they do not (TeNPy's SpinSite stores (down, up)) the product
// is refused.
TEST(ItensorTrain, HdfJlStringsOfEveryKindAreReadExactly) {
  TempDir dir;
  const auto file = dir / "s.h5";
  hid_t f = H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  auto put = [&](const char* name, const char* value, std::size_t size, H5T_cset_t cset, H5T_str_t pad) {
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, size);
    H5Tset_cset(t, cset);
    H5Tset_strpad(t, pad);
    hid_t s = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(f, name, t, s, H5P_DEFAULT, H5P_DEFAULT);
    std::string buf(value);
    buf.resize(size, pad == H5T_STR_SPACEPAD ? ' ' : '\0');
    H5Awrite(a, t, buf.data());
    H5Aclose(a);
    H5Sclose(s);
    H5Tclose(t);
  };
  put("julia", "MPS", 3, H5T_CSET_UTF8, H5T_STR_NULLTERM);     // HDF5.jl: exactly its bytes
  put("numpy", "MPS", 3, H5T_CSET_ASCII, H5T_STR_NULLPAD);     // h5py's np.bytes_("MPS")
  put("fortran", "MPO", 8, H5T_CSET_ASCII, H5T_STR_SPACEPAD);
  put("padded", "MPS", 6, H5T_CSET_UTF8, H5T_STR_NULLPAD);
  put("utf8", "\xce\xb1\xce\xb2", 4, H5T_CSET_UTF8, H5T_STR_NULLTERM);  // "αβ"
  H5Fclose(f);
  f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  EXPECT_EQ(h5::read_string_attr(f, "julia", "s.h5"), "MPS");
  EXPECT_EQ(h5::read_string_attr(f, "numpy", "s.h5"), "MPS");
  EXPECT_EQ(h5::read_string_attr(f, "fortran", "s.h5"), "MPO");
  EXPECT_EQ(h5::read_string_attr(f, "padded", "s.h5"), "MPS");
  EXPECT_EQ(h5::read_string_attr(f, "utf8", "s.h5"), "\xce\xb1\xce\xb2");
  H5Fclose(f);
}

}  // namespace
}  // namespace srcc::test
