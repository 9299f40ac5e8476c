// The command line on files of TeNPy and ITensor: products and compressions of their trains with
// the files' own numbers as reference, and damaged files of both formats refused naming the file,
// group and site.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "../support/cli_runner.hpp"
#include "../support/h5_edit.hpp"
#include "../support/h5_read.hpp"

namespace srcc::test {
namespace {

namespace fs = std::filesystem;

fs::path data(const std::string& name) { return fs::path(source_dir()) / "tests/data" / name; }

// ⟨ψ|H|ψ⟩ from `apply` (exact: χ̄ above the product's bond) and `distance`.
double energy(const TempDir& dir, const std::string& h, const std::string& psi) {
  fs::remove(dir / "hpsi.h5");
  const auto a = run_cli(dir, "apply " + h + " " + psi + " -o hpsi.h5 --chi 400 --seed 1 -q --output-format srcc");
  EXPECT_EQ(a.code, 0) << a.err;
  const auto d = run_cli(dir, "distance hpsi.h5:/result " + psi + " --json");
  EXPECT_EQ(d.code, 0) << d.err;
  return json_number(d.out, "cosine_re") * json_number(d.out, "norm_a") * json_number(d.out, "norm_b");
}

TEST(CliInterop, ApplyAndDistanceOnTenpyAndItensorFilesGiveTheirEnergies) {
  TempDir dir;
  const std::string t = data("tenpy_tfi_L16_psi_and_H.h5").string();
  const double e0 = read_scalar(data("tenpy_tfi_L16_mps.h5"), "/E0");
  EXPECT_NEAR(energy(dir, t + ":/H_MPO", t + ":/psi"), e0, 1e-10);
  const std::string p = data("tenpy_tfi_L16_parity.h5").string();
  EXPECT_NEAR(energy(dir, p + ":/H_MPO", p + ":/psi"), e0, 1e-10);
  const std::string i = data("itensor_tfi_L16_dense.h5").string();
  EXPECT_NEAR(energy(dir, i + ":/H", i + ":/psi"), e0, 1e-10);
  const std::string x = data("tenpy_xxz_L12_sz.h5").string();
  EXPECT_NEAR(energy(dir, x + ":/H_MPO", x + ":/psi"), read_scalar(data("tenpy_xxz_L12_sz.h5"), "/E0"), 1e-10);
}

// compress of a TeNPy state to χ̄ = 8 against the SVD truncation of the same state (truncate:
// exact here, since the input is the state itself): within plain SRC's documented factor.
TEST(CliInterop, CompressOfATenpyStateIsNearItsSvdTruncation) {
  TempDir dir;
  const std::string psi = data("tenpy_tfi_L16_mps.h5").string() + ":/psi";
  ASSERT_EQ(run_cli(dir, "compress " + psi + " -o c.h5 --chi 8 --seed 2 -q --output-format srcc").code, 0);
  ASSERT_EQ(run_cli(dir, "compress " + psi + " -o o.h5 --chi 8 --seed 2 --oversample -q --output-format srcc").code, 0);
  ASSERT_EQ(run_cli(dir, "truncate " + psi + " -o t.h5 --chi 8 -q --output-format srcc").code, 0);
  auto err = [&](const std::string& f) {
    const auto r = run_cli(dir, "distance " + f + ":/result " + psi + " --json");
    EXPECT_EQ(r.code, 0) << r.err;
    return json_number(r.out, "relative_distance");
  };
  const double best = err("t.h5"), plain = err("c.h5"), over = err("o.h5");
  EXPECT_GT(best, 1e-8);  // χ̄ = 8 < the state's bond 20: a real truncation
  EXPECT_LE(plain, 4 * best) << "plain SRC " << plain << ", SVD " << best;
  EXPECT_LE(over, 1.2 * best) << "oversampled " << over << ", SVD " << best;
}

// Damaged files of both formats: exit 3 naming file, group and site, nothing left behind.
class DamagedForeignFile : public ::testing::Test {
 protected:
  void expect_refused(const std::string& file, const std::string& group, const std::string& message) {
    const auto r = run_cli(dir_, "compress " + file + ":" + group + " -o out.h5 --chi 4");
    expect_clean_failure(r, 3, message, dir_);
  }
  hid_t open(const std::string& name) {
    fs::copy_file(data(name), dir_ / name, fs::copy_options::overwrite_existing);
    return H5Fopen((dir_ / name).c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  }
  TempDir dir_;
};

TEST_F(DamagedForeignFile, ATenpyArrayWithABlockMissing) {
  hid_t f = open("tenpy_xxz_L12_sz.h5");
  H5Ldelete(f, "/psi/tensors/5/blocks/1", H5P_DEFAULT);
  H5Fclose(f);
  expect_refused("tenpy_xxz_L12_sz.h5", "/psi", "tenpy_xxz_L12_sz.h5:/psi/tensors/5/blocks: entry 1 of");
}

TEST_F(DamagedForeignFile, ATenpyBlockOfTheWrongShape) {
  hid_t f = open("tenpy_tfi_L16_mps.h5");
  H5Ldelete(f, "/psi/tensors/3/blocks/0", H5P_DEFAULT);
  const hsize_t dims[3] = {2, 2, 2};
  hid_t s = H5Screate_simple(3, dims, nullptr);
  hid_t d = H5Dcreate2(f, "/psi/tensors/3/blocks/0", H5T_IEEE_F64LE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  const double zeros[8] = {0};
  H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, zeros);
  H5Dclose(d);
  H5Sclose(s);
  H5Fclose(f);
  expect_refused("tenpy_tfi_L16_mps.h5", "/psi", "tenpy_tfi_L16_mps.h5:/psi/tensors/3/blocks/0: shape (2, 2, 2)");
}

TEST_F(DamagedForeignFile, ATenpyBlockThatViolatesTheChargeRule) {
  hid_t f = open("tenpy_xxz_L12_sz.h5");
  // The right bond of site 4 (shared with site 5's left bond) with its first charge shifted: the
  // blocks that use it break the rule.
  hid_t d = H5Dopen2(f, "/psi/tensors/4/legs/2/charges", H5P_DEFAULT);
  hid_t s = H5Dget_space(d);
  std::vector<long long> q(static_cast<std::size_t>(H5Sget_simple_extent_npoints(s)));
  H5Dread(d, H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, q.data());
  q[0] += 2;
  H5Dwrite(d, H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, q.data());
  H5Sclose(s);
  H5Dclose(d);
  H5Fclose(f);
  expect_refused("tenpy_xxz_L12_sz.h5", "/psi", "tenpy_xxz_L12_sz.h5:/psi/tensors/4: block 0 violates the charge rule");
}

TEST_F(DamagedForeignFile, ItensorLinksWhoseIdsDoNotMatch) {
  hid_t f = open("itensor_tfi_L16_dense.h5");
  // Tensor 7's indices: find its link to tensor 8 by its tag and give it another id.
  for (int k = 1; k <= 3; ++k) {
    const std::string base = "/psi/MPS[7]/inds/index_" + std::to_string(k);
    hid_t t = H5Dopen2(f, (base + "/tags/tags").c_str(), H5P_DEFAULT);
    hid_t type = H5Dget_type(t);
    std::string tags(H5Tget_size(type), '\0');
    H5Dread(t, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, tags.data());
    H5Tclose(type);
    H5Dclose(t);
    if (tags.find("l=7") == std::string::npos) continue;
    hid_t d = H5Dopen2(f, (base + "/id").c_str(), H5P_DEFAULT);
    const unsigned long long id = 12345;
    H5Dwrite(d, H5T_NATIVE_ULLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, &id);
    H5Dclose(d);
  }
  H5Fclose(f);
  expect_refused("itensor_tfi_L16_dense.h5", "/psi",
                 "itensor_tfi_L16_dense.h5:/psi/MPS[7]: no index is shared with the right neighbour");
}

TEST_F(DamagedForeignFile, ItensorBlockSparseOffsetPastTheData) {
  hid_t f = open("itensor_xxz_L12_qn.h5");
  hid_t d = H5Dopen2(f, "/psi/MPS[5]/storage/offsets", H5P_DEFAULT);
  hid_t s = H5Dget_space(d);
  std::vector<long long> off(static_cast<std::size_t>(H5Sget_simple_extent_npoints(s)));
  H5Dread(d, H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, off.data());
  off.back() = 1 << 20;
  H5Dwrite(d, H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, off.data());
  H5Sclose(s);
  H5Dclose(d);
  H5Fclose(f);
  expect_refused("itensor_xxz_L12_qn.h5", "/psi", "itensor_xxz_L12_qn.h5:/psi/MPS[5]/storage/offsets: block");
}

TEST_F(DamagedForeignFile, UnsupportedTenpyStatesSayWhatIsRead) {
  fs::copy_file(data("tenpy_tfi_infinite_L2.h5"), dir_ / "inf.h5");
  expect_refused("inf.h5", "/psi", "inf.h5:/psi: boundary condition 'infinite' (an infinite state's unit "
                                   "cell): src-compress reads finite TeNPy MPS and MPO only");
  // A TeNPy object that is no train, named as one.
  fs::copy_file(data("tenpy_tfi_L16_mps.h5"), dir_ / "mps.h5");
  expect_refused("mps.h5", "/model_params", "mps.h5:/model_params: a TeNPy");
}

// A TeNPy train whose one site lost its record (the order of its charge-sorted physical basis)
// is refused by every command that reads it — not read in another order than its neighbours.
TEST(CliInterop, ATenpySiteWithoutItsRecordIsRefusedEverywhere) {
  TempDir dir;
  fs::copy_file(data("tenpy_xxz_L12_sz.h5"), dir / "x.h5");
  unlink_object(dir / "x.h5", "/psi/sites/5");
  const std::string message = "x.h5:/psi/sites/5: missing while 11 of 12 sites have theirs";
  for (const std::string& args : {std::string("expect x.h5:/psi x.h5:/H_MPO"), std::string("apply x.h5:/H_MPO x.h5:/psi -o out.h5 --chi 8"),
                                  std::string("distance x.h5:/psi x.h5:/psi"), std::string("compress x.h5:/psi -o out.h5 --chi 4")}) {
    SCOPED_TRACE(args);
    expect_clean_failure(run_cli(dir, args), 3, message, dir);
  }
}

}  // namespace
}  // namespace srcc::test
