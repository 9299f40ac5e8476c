// Reading files other libraries wrote (lib/srcc/io/tenpy_train.cpp, itensor_train.cpp,
// train_discovery.cpp): TeNPy's own files (fixtures made by TeNPy, tests/data/) and ITensor's
// (one file ITensors.jl wrote itself, others in its layout), checked against numbers the files
// carry (TeNPy's energies), dense vectors contracted here, and each other.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <cmath>
#include <filesystem>

#include "../support/cli_runner.hpp"
#include "../support/dense.hpp"
#include "../support/h5_read.hpp"
#include "srcc/core/error.hpp"
#include "srcc/io/h5/h5_handle.hpp"
#include "srcc/io/itensor/itensor_objects.hpp"
#include "srcc/io/train_reader.hpp"
#include "srcc/train/site_loader.hpp"

namespace srcc::test {
namespace {

namespace fs = std::filesystem;

std::string data(const std::string& name) { return source_dir() + "/tests/data/" + name; }


// H·ψ as a train, site by site with plain loops: bonds (l_H l_ψ, r_H r_ψ), no compression.
std::vector<Tensor<cdouble>> exact_product(const std::vector<Tensor<cdouble>>& h,
                                           const std::vector<Tensor<cdouble>>& psi) {
  std::vector<Tensor<cdouble>> out;
  for (std::size_t j = 0; j < h.size(); ++j) {
    const auto &w = h[j].shape, &p = psi[j].shape;
    Tensor<cdouble> t({w[0] * p[0], w[1] * p[1], w[2], 1});
    std::fill(t.data.begin(), t.data.end(), cdouble(0));
    for (std::size_t a = 0; a < w[0]; ++a)
      for (std::size_t b = 0; b < w[1]; ++b)
        for (std::size_t u = 0; u < w[2]; ++u)
          for (std::size_t d = 0; d < w[3]; ++d)
            for (std::size_t x = 0; x < p[0]; ++x)
              for (std::size_t y = 0; y < p[1]; ++y)
                t.data[(((a * p[0] + x) * w[1] * p[1]) + b * p[1] + y) * w[2] + u] +=
                    h[j].data[((a * w[1] + b) * w[2] + u) * w[3] + d] * psi[j].data[(x * p[1] + y) * p[2] + d];
    out.push_back(std::move(t));
  }
  return out;
}

// ⟨ψ|H|ψ⟩ by dense contraction (L ≤ 16: 65536 amplitudes).
cd energy(const std::vector<Tensor<cdouble>>& h, const std::vector<Tensor<cdouble>>& psi) {
  return inner(dense_train(psi).v, dense_train(exact_product(h, psi)).v);
}

TEST(ForeignFiles, DiscoveryFindsTrainsOfEveryFormatAndIgnoresOtherGroups) {
  const auto tenpy = list_trains(data("tenpy_tfi_L16_psi_and_H.h5"));
  ASSERT_EQ(tenpy.size(), 2u);  // 300-odd TeNPy objects (sites, charges, ops) are no trains
  EXPECT_EQ(tenpy[0].group, "/H_MPO");
  EXPECT_EQ(tenpy[1].group, "/psi");
  for (const auto& t : tenpy) EXPECT_EQ(t.format, TrainFormat::kTenpy);
  const auto it = list_trains(data("itensor_tfi_L16_dense.h5"));
  ASSERT_EQ(it.size(), 2u);
  for (const auto& t : it) EXPECT_EQ(t.format, TrainFormat::kItensor);
  // The file ITensors.jl wrote holds one ITensor, no MPS.
  EXPECT_TRUE(list_trains(data("itensor_real_testfile_v0.1.41.h5")).empty());
  // An infinite state is a train we name but do not read.
  const auto inf = list_trains(data("tenpy_tfi_infinite_L2.h5"));
  ASSERT_EQ(inf.size(), 2u);
  EXPECT_FALSE(inf[1].info.has_value());
  EXPECT_NE(inf[1].refused.find("boundary condition 'infinite'"), std::string::npos) << inf[1].refused;
}

// DMRG leaves the forms A A B … B: read with its singular values and norm, the state is the
// ground state (norm 1, the file's energy); the stored tensors taken as they are would give a
// norm of 2 and the wrong energy.
TEST(ForeignFiles, TenpyStateWithItsFormsResolvedHasTheFilesEnergy) {
  const auto psi = read_cores(data("tenpy_tfi_L16_mps.h5"), "/psi");
  const auto h = read_cores(data("tenpy_tfi_L16_mpo.h5"), "/H_MPO");
  const double e0 = read_scalar(data("tenpy_tfi_L16_mps.h5"), "/E0");
  EXPECT_NEAR(norm(dense_train(psi).v), 1.0, 1e-12);
  const cd e = energy(h, psi);
  EXPECT_NEAR(e.real(), e0, 1e-10);
  EXPECT_NEAR(e.imag(), 0.0, 1e-12);
}

// With parity conserved, TeNPy stores each site's basis sorted by charge; read back in the
// site's own order, it is the same state as the one computed without conservation.
TEST(ForeignFiles, AChargeSortedBasisIsPutBackInTheSitesOrder) {
  const auto plain = read_cores(data("tenpy_tfi_L16_mps.h5"), "/psi");
  const auto parity = read_cores(data("tenpy_tfi_L16_parity.h5"), "/psi");
  const auto h_plain = read_cores(data("tenpy_tfi_L16_mpo.h5"), "/H_MPO");
  const auto h_parity = read_cores(data("tenpy_tfi_L16_parity.h5"), "/H_MPO");
  const auto a = dense_train(plain).v, b = dense_train(parity).v;
  EXPECT_NEAR(std::abs(inner(a, b)), 1.0, 1e-10);  // the ground state, up to its sign
  // And each operator on the other's state.
  EXPECT_NEAR(energy(h_plain, parity).real(), read_scalar(data("tenpy_tfi_L16_parity.h5"), "/E0"), 1e-10);
  EXPECT_NEAR(energy(h_parity, plain).real(), read_scalar(data("tenpy_tfi_L16_mps.h5"), "/E0"), 1e-10);
  TrainReader r(TrainRef{data("tenpy_tfi_L16_parity.h5"), "/psi"});
  EXPECT_EQ(r.info().basis[0], (std::vector<std::string>{"up", "down"}));
}

// U(1) charges (2·Sz), blocks of many sectors; the same Hamiltonian stored with
// explicit_plus_hc (H = W + W†); a complex state after a quench.
TEST(ForeignFiles, TenpyChargesPlusHcAndComplexStatesGiveTeNPysEnergies) {
  const auto psi = read_cores(data("tenpy_xxz_L12_sz.h5"), "/psi");
  const double e0 = read_scalar(data("tenpy_xxz_L12_sz.h5"), "/E0");
  EXPECT_NEAR(energy(read_cores(data("tenpy_xxz_L12_sz.h5"), "/H_MPO"), psi).real(), e0, 1e-10);
  TrainReader w(TrainRef{data("tenpy_xxz_L12_sz_plus_hc.h5"), "/H_MPO"});
  EXPECT_EQ(w.info().dims[5][kLegL], 8u);  // W's bond 4, doubled by W + W†
  EXPECT_NEAR(energy(read_cores(data("tenpy_xxz_L12_sz_plus_hc.h5"), "/H_MPO"), psi).real(),
              read_scalar(data("tenpy_xxz_L12_sz_plus_hc.h5"), "/E0"), 1e-10);
  const auto q = read_cores(data("tenpy_tfi_L10_quench.h5"), "/psi");
  EXPECT_EQ(TrainReader(TrainRef{data("tenpy_tfi_L10_quench.h5"), "/psi"}).info().dtype(), DType::kComplex128);
  const cd eq = energy(read_cores(data("tenpy_tfi_L10_quench.h5"), "/H_MPO"), q);
  EXPECT_NEAR(eq.real(), read_scalar(data("tenpy_tfi_L10_quench.h5"), "/E"), 1e-10);
  EXPECT_NEAR(eq.imag(), 0.0, 1e-10);
}

// The file ITensors.jl v0.1.41 wrote (its own test file): the indices by id, dims and tags, and
// the data column-major, exactly as stored.
TEST(ForeignFiles, TheFileITensorsJlWroteIsReadExactly) {
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

TEST(ForeignFiles, ItensorDenseBlockSparseDiagAndEmptyStorage) {
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

// Files of different libraries agree where their bases do (TeNPy's SpinHalfSite and ITensor's
// S=1/2 are both (up, down)); where they do not (TeNPy's SpinSite stores (down, up)) the product
// is refused.
TEST(ForeignFiles, ProductsAcrossLibrariesAreCheckedBySiteBasis) {
  Stack ok;
  ok.layers = {TrainReader(TrainRef{data("itensor_tfi_L16_dense.h5"), "/H"}).info(),
               TrainReader(TrainRef{data("tenpy_tfi_L16_parity.h5"), "/psi"}).info()};
  EXPECT_TRUE(check_bases(ok).empty());
  Stack bad;
  bad.layers = {TrainReader(TrainRef{data("itensor_xxz_L12_qn.h5"), "/H"}).info(),
                TrainReader(TrainRef{data("tenpy_xxz_L12_sz.h5"), "/psi"}).info()};
  try {
    check_bases(bad);
    FAIL() << "the mismatch was not found";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("acts on the physical basis (up, down) but"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("is stored in the basis (down, up)"), std::string::npos);
  }
}

TEST(ForeignFiles, HdfJlStringsOfEveryKindAreReadExactly) {
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
