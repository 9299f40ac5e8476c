// TeNPy's trains (lib/srcc/io/tenpy/tenpy_train.cpp) from files TeNPy wrote (tests/data/):
// energies equal to the ones TeNPy stored, charge-sorted bases put back in the sites' order,
// charges, H + h.c. and complex states.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "../support/cli_runner.hpp"
#include "../support/dense.hpp"
#include "../support/h5_read.hpp"
#include "../support/stored_blocks.hpp"
#include "srcc/io/h5/h5_handle.hpp"
#include "srcc/io/tenpy/tenpy_objects.hpp"
#include "srcc/io/train_reader.hpp"

namespace srcc::test {
namespace {

namespace fs = std::filesystem;

std::string data(const std::string& name) { return test_data(name); }

// An Array's metadata is read once per file state: a file rewritten under the same name (the
// same inode, another size and time) is read again, not answered from what the first held.
TEST(TenpyTrain, ArrayMetadataOfARewrittenFileIsReadAgain) {
  TempDir dir;
  const fs::path f = dir / "state.h5";
  auto legs_of = [&] {
    h5::Handle h = h5::open_for_reading(f.string());
    h5::Handle g(H5Gopen2(h.get(), "/psi", H5P_DEFAULT), H5Gclose);
    const auto a = tenpy::read_array_info(g.get(), "tensors/3", "test");
    const auto b = tenpy::read_array_info(h.get(), "/psi/tensors/3", "test");  // the same Array
    EXPECT_EQ(a.block_inds, b.block_inds);
    EXPECT_EQ(a.path, "tensors/3");
    EXPECT_EQ(b.path, "/psi/tensors/3");
    return std::make_pair(a.moduli, a.legs.front().ind_len());
  };
  fs::copy_file(data("tenpy_tfi_L16_parity.h5"), f);
  const auto parity = legs_of();
  EXPECT_EQ(parity.first, std::vector<long long>{2});
  fs::copy_file(data("tenpy_xxz_L12_sz.h5"), f, fs::copy_options::overwrite_existing);
  const auto sz = legs_of();
  EXPECT_EQ(sz.first, std::vector<long long>{1}) << "U(1) read again, not parity's Z2 remembered";
}

// TeNPy links an MPO bond's charges and block boundaries from both tensors beside it, while each
// tensor's leg group keeps its own direction; objects read once per file (tenpy_objects.cpp) must
// keep the two apart: the right leg of tensor k and the left leg of k + 1 share their charges and
// point opposite ways, and every Array reads as a fresh process reads it.
TEST(TenpyTrain, ABondsSharedChargesKeepEachSidesDirection) {
  TempDir dir;
  const fs::path f = dir / "linked.h5";
  fs::copy_file(data("tenpy_xxz_L12_sz.h5"), f);
  h5::Handle h = h5::open_for_reading(f.string());
  std::vector<tenpy::ArrayInfo> a;
  for (int k = 0; k < 12; ++k) a.push_back(tenpy::read_array_info(h.get(), "/H_MPO/tensors/" + std::to_string(k), "test"));
  for (std::size_t k = 0; k + 1 < a.size(); ++k) {
    const auto &right = a[k].legs[1], &left = a[k + 1].legs[0];  // TeNPy's wL, wR, p, p*
    EXPECT_EQ(left.charges, right.charges) << "bond " << k;
    EXPECT_EQ(left.slices, right.slices) << "bond " << k;
    EXPECT_EQ(left.qconj, -right.qconj) << "bond " << k;
    EXPECT_EQ(left.qconj, 1) << "bond " << k;
  }
  // Tensor 5 of a copy (another file: nothing of it read before) read alone, every object from
  // the file, against tensor 5 above, whose left leg's charges came from tensor 4's right leg.
  const fs::path copy = dir / "copy.h5";
  fs::copy_file(f, copy);
  h5::Handle hc = h5::open_for_reading(copy.string());
  const auto fresh = tenpy::read_array_info(hc.get(), "/H_MPO/tensors/5", "test");
  ASSERT_EQ(fresh.legs.size(), a[5].legs.size());
  for (std::size_t k = 0; k < fresh.legs.size(); ++k) {
    EXPECT_EQ(fresh.legs[k].qconj, a[5].legs[k].qconj) << "leg " << k;
    EXPECT_EQ(fresh.legs[k].charges, a[5].legs[k].charges) << "leg " << k;
    EXPECT_EQ(fresh.legs[k].slices, a[5].legs[k].slices) << "leg " << k;
  }
  EXPECT_EQ(fresh.labels, a[5].labels);
  EXPECT_EQ(fresh.dtype, a[5].dtype);
  EXPECT_EQ(fresh.moduli, a[5].moduli);
  EXPECT_EQ(fresh.block_inds, a[5].block_inds);
}

// The read check's child sends its parent the Arrays it read (known_arrays), which the parent
// takes as read (learn_arrays): every field survives the trip, and a message cut short is refused.
TEST(TenpyTrain, ArraysTheReadCheckReadComeBackWhole) {
  TempDir dir;
  const fs::path f = dir / "sent.h5";
  fs::copy_file(data("tenpy_xxz_L12_sz.h5"), f);
  h5::Handle h = h5::open_for_reading(f.string());
  const auto read = tenpy::read_array_info(h.get(), "/psi/tensors/5", "test");
  const std::string sent = tenpy::known_arrays();
  int found = 0;
  for (const auto& a : tenpy::arrays_in(sent)) {
    if (a.path != read.path || a.block_inds != read.block_inds) continue;
    ++found;
    EXPECT_EQ(a.labels, read.labels);
    EXPECT_EQ(a.total_charge, read.total_charge);
    EXPECT_EQ(a.moduli, read.moduli);
    EXPECT_EQ(a.nblocks, read.nblocks);
    EXPECT_EQ(a.dtype, read.dtype);
    ASSERT_EQ(a.legs.size(), read.legs.size());
    for (std::size_t k = 0; k < read.legs.size(); ++k) {
      EXPECT_EQ(a.legs[k].slices, read.legs[k].slices);
      EXPECT_EQ(a.legs[k].charges, read.legs[k].charges);
      EXPECT_EQ(a.legs[k].num_charges, read.legs[k].num_charges);
      EXPECT_EQ(a.legs[k].qconj, read.legs[k].qconj);
    }
  }
  EXPECT_GE(found, 1) << "the Array read is among those sent";
  tenpy::learn_arrays(sent);  // all known already: nothing changes
  EXPECT_EQ(tenpy::known_arrays(), sent);
  EXPECT_THROW(tenpy::learn_arrays(sent.substr(0, sent.size() / 2)), std::runtime_error) << "a message cut short";
}

TEST(TenpyTrain, TenpyStateWithItsFormsResolvedHasTheFilesEnergy) {
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
TEST(TenpyTrain, AChargeSortedBasisIsPutBackInTheSitesOrder) {
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
TEST(TenpyTrain, TenpyChargesPlusHcAndComplexStatesGiveTeNPysEnergies) {
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

// A charged run reads TeNPy's blocks as they are stored, never forming a dense site
// (support/stored_blocks.hpp): forms resolved with singular values, an MPO's projected outer
// bonds, W + W†, a charge-sorted basis, Z2, fermions and complex data.
TEST(TenpyTrain, ChargedRunsReadTheStoredBlocksWithoutDenseSites) {
  stored_blocks_match_dense<double>("tenpy_xxz_L12_sz.h5", "/psi");
  stored_blocks_match_dense<double>("tenpy_xxz_L12_sz.h5", "/H_MPO");
  stored_blocks_match_dense<cdouble>("tenpy_xxz_L12_sz.h5", "/psi");  // converted on reading
  stored_blocks_match_dense<double>("tenpy_xxz_L12_sz_plus_hc.h5", "/H_MPO");
  stored_blocks_match_dense<cdouble>("tenpy_xxz_L12_steps.h5", "/U_II_real");
  stored_blocks_match_dense<double>("tenpy_tfi_L16_parity.h5", "/psi");
  stored_blocks_match_dense<double>("tenpy_tfi_L16_parity.h5", "/H_MPO");
  stored_blocks_match_dense<cdouble>("tenpy_xxz_L12_steps.h5", "/U_II_order2_first");  // stored complex
  stored_blocks_match_dense<double>("tenpy_fermions_L10.h5", "/psi");
}

// The file ITensors.jl v0.1.41 wrote (its own test file): the indices by id, dims and tags, and
// the data column-major, exactly as stored.

}  // namespace
}  // namespace srcc::test
