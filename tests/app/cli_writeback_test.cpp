// Results written back in the layout of the state's library (io/tenpy_writer.cpp,
// itensor_writer.cpp, sweep/sector_form.cpp): read again by our own readers they are the result
// (to rounding, or to the reported weight where charges were restored); every block obeys its
// charge or flux rule; the encodings are those the libraries write. (That TeNPy's own loader
// reads them is checked by scripts/tenpy_check.py, which needs a TeNPy source tree.)
#include <gtest/gtest.h>
#include <hdf5.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "../support/cli_runner.hpp"
#include "../support/h5_read.hpp"
#include "srcc/core/text.hpp"
#include "srcc/io/h5/h5_handle.hpp"
#include "srcc/io/itensor/itensor_objects.hpp"
#include "srcc/io/train_reader.hpp"

namespace srcc::test {
namespace {

namespace fs = std::filesystem;

std::string data(const std::string& name) { return (fs::path(source_dir()) / "tests/data" / name).string(); }

TEST(WriteBack, TenpyStateWithoutChargesIsTheResultInBForm) {
  TempDir dir;
  const std::string psi = data("tenpy_tfi_L16_mps.h5") + ":/psi";
  const auto r = run_cli(dir, "compress " + psi + " -o t.h5 --chi 8 --seed 3 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"output_format\": \"tenpy\""), std::string::npos) << r.out;
  EXPECT_EQ(json_number(r.out, "dropped_weight"), 0.0);
  ASSERT_EQ(run_cli(dir, "compress " + psi + " -o s.h5 --chi 8 --seed 3 --output-format srcc -q").code, 0);
  // Read back by our TeNPy reader (forms and norm resolved): the result of the same run.
  EXPECT_LT(relative_distance(dir, "t.h5:/psi", "s.h5:/result"), 1e-12);
  EXPECT_LT(relative_distance(dir, "t.h5:/result", "s.h5:/result"), 1e-12);  // the second name
  EXPECT_EQ(read_string_attr(dir / "t.h5", "/", "type"), "simple_dict");
  EXPECT_EQ(read_string_attr(dir / "t.h5", "/log", "type"), "ignore");
  EXPECT_EQ(read_string_attr(dir / "t.h5", "/psi", "class"), "MPS");
  // B form, as TeNPy reads it: every core right-orthonormal, the Schmidt values normalised.
  TrainReader reader(TrainRef{(dir / "t.h5").string(), "/psi"});
  EXPECT_EQ(reader.info().format, TrainFormat::kTenpy);
  EXPECT_EQ(reader.info().dims[5][kLegR], 8u);
}

// With charges (U(1), 2·Sz): every block written obeys the charge rule (our reader checks it on
// every block), the weight outside the total charge is reported, and it accounts for the
// distance to the unprojected result.
TEST(WriteBack, TenpyStateWithChargesKeepsTheTotalChargeAndSaysWhatItDropped) {
  TempDir dir;
  const std::string f = data("tenpy_xxz_L12_sz.h5");
  // The dense sweep (--symmetry off) mixes sectors in its sketch: the write-back drops that part.
  const auto r = run_cli(dir, "compress " + f + ":/psi -o t.h5 --chi 8 --seed 3 --json --symmetry off");
  ASSERT_EQ(r.code, 0) << r.err;
  const double dropped = json_number(r.out, "dropped_weight"), truncated = json_number(r.out, "truncated_weight");
  EXPECT_GT(dropped, 1e-8);  // the sketch mixes sectors at χ̄ = 8
  EXPECT_LT(dropped, 1e-2);
  ASSERT_EQ(run_cli(dir, "compress " + f + ":/psi -o s.h5 --chi 8 --seed 3 --output-format srcc -q --symmetry off").code, 0);
  const double d = relative_distance(dir, "t.h5:/psi", "s.h5:/result");
  // ‖P ψ − ψ‖ / ‖ψ‖ = √dropped, the per-sector truncation adding at most its own weight.
  EXPECT_GT(d, 0.9 * std::sqrt(dropped));
  EXPECT_LT(d, 1.1 * std::sqrt(dropped + truncated) + 1e-12);
  // H·ψ at a bond that holds it exactly: nothing outside the total charge, TeNPy's energy.
  const auto e = run_cli(dir, "apply " + f + ":/H_MPO " + f + ":/psi -o hpsi.h5 --chi 64 --seed 3 --json");
  ASSERT_EQ(e.code, 0) << e.err;
  EXPECT_LT(json_number(e.out, "dropped_weight"), 1e-20);
  const auto c = run_cli(dir, "distance hpsi.h5:/psi " + f + ":/psi --json");
  const double energy = json_number(c.out, "cosine_re") * json_number(c.out, "norm_a") * json_number(c.out, "norm_b");
  hid_t h = H5Fopen(f.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t ds = H5Dopen2(h, "/E0", H5P_DEFAULT);
  double e0 = 0;
  H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &e0);
  H5Dclose(ds);
  H5Fclose(h);
  EXPECT_NEAR(energy, e0, 1e-10);
}

// The layout's members beside the tensors come from the template, each object once: what the
// template shares by hard links (the charge info in every leg, a site's physical leg in every
// tensor) the output shares; members the writer does not know (a user's own dataset with its
// attribute, a soft link) are kept as they are. (That every tensor's values are the result's is
// the other tests'.)
TEST(WriteBack, TenpyLayoutKeepsTheTemplatesMembersAndWhatItShares) {
  TempDir dir;
  const fs::path in = dir / "in.h5";
  fs::copy_file(data("tenpy_xxz_L12_sz.h5"), in);
  {
    hid_t f = H5Fopen(in.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t s = H5Screate(H5S_SCALAR);
    hid_t d = H5Dcreate2(f, "/psi/note", H5T_STD_I64LE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    const long long v = 42;
    H5Dwrite(d, H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, &v);
    hid_t a = H5Acreate2(d, "unit", H5T_STD_I64LE, s, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, H5T_NATIVE_LLONG, &v);
    H5Aclose(a);
    H5Dclose(d);
    H5Sclose(s);
    H5Lcreate_soft("/psi/chinfo", f, "/psi/alias", H5P_DEFAULT, H5P_DEFAULT);
    H5Fclose(f);
  }
  ASSERT_EQ(run_cli(dir, "apply in.h5:/H_MPO in.h5:/psi -o t.h5 --chi 16 --seed 3 -q").code, 0);
  hid_t t = H5Fopen(in.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t o = H5Fopen((dir / "t.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(o, 0);
  auto address = [](hid_t f, const std::string& path) {
    H5O_info_t info{};
    EXPECT_GE(H5Oget_info_by_name2(f, path.c_str(), &info, H5O_INFO_BASIC, H5P_DEFAULT), 0) << path;
    return info.addr;
  };
  // Every member of the template's train is there (the rewritten ones anew).
  std::vector<std::string> members;
  hid_t train = H5Gopen2(t, "/psi", H5P_DEFAULT);
  H5Literate(train, H5_INDEX_NAME, H5_ITER_NATIVE, nullptr,
             [](hid_t, const char* name, const H5L_info_t*, void* out) -> herr_t {
               static_cast<std::vector<std::string>*>(out)->push_back(name);
               return 0;
             },
             &members);
  H5Gclose(train);
  EXPECT_GE(members.size(), 9u);
  for (const auto& m : members) EXPECT_GT(H5Lexists(o, ("/psi/" + m).c_str(), H5P_DEFAULT), 0) << m;
  const haddr_t chinfo = address(o, "/psi/chinfo"), leg = address(o, "/psi/sites/0/leg");
  for (int j = 0; j < 12; ++j) {
    const std::string tensor = "/psi/tensors/" + std::to_string(j);
    EXPECT_EQ(address(o, tensor + "/chinfo"), chinfo) << j;
    EXPECT_EQ(address(o, tensor + "/legs/0/chinfo"), chinfo) << j;
    EXPECT_EQ(address(o, tensor + "/legs/1"), leg) << j;  // (vL, p, vR): the site's own leg
    EXPECT_EQ(address(o, "/psi/sites/" + std::to_string(j)), address(o, "/psi/sites/0")) << j;
  }
  EXPECT_EQ(address(o, "/psi/sites/0/Sz/legs/0"), leg);
  // What the result's tensors hold alike is written once, as TeNPy shares it: a label's string,
  // the dtype, the B form's tuple, a bond's slices and charges (the tensors on both sides of it);
  // never a list a tensor may change (its labels), nor its own legs.
  for (int j = 1; j < 12; ++j) {
    const std::string tensor = "/psi/tensors/" + std::to_string(j), left = "/psi/tensors/" + std::to_string(j - 1);
    for (const char* k : {"0", "1", "2"})
      EXPECT_EQ(address(o, tensor + "/labels/" + k), address(o, "/psi/tensors/0/labels/" + std::string(k))) << j;
    EXPECT_NE(address(o, tensor + "/labels"), address(o, left + "/labels")) << j;
    EXPECT_EQ(address(o, tensor + "/dtype"), address(o, left + "/dtype")) << j;
    EXPECT_EQ(address(o, "/psi/canonical_form/" + std::to_string(j)), address(o, "/psi/canonical_form/0")) << j;
    EXPECT_NE(address(o, tensor + "/legs/0"), address(o, left + "/legs/2")) << j;
    for (const char* a : {"/slices", "/charges"})
      EXPECT_EQ(address(o, tensor + "/legs/0" + a), address(o, left + "/legs/2" + a)) << j << a;
    EXPECT_NE(address(o, tensor + "/legs/2/slices"), address(o, tensor + "/legs/0/slices")) << j;
  }
  EXPECT_NE(address(o, "/psi/sites/0/Sz"), address(o, "/psi/sites/0/Sp"));
  long long note = 0, unit = 0;
  hid_t d = H5Dopen2(o, "/psi/note", H5P_DEFAULT);
  ASSERT_GE(d, 0);
  H5Dread(d, H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, &note);
  hid_t a = H5Aopen(d, "unit", H5P_DEFAULT);
  H5Aread(a, H5T_NATIVE_LLONG, &unit);
  H5Aclose(a);
  H5Dclose(d);
  EXPECT_EQ(note, 42);
  EXPECT_EQ(unit, 42);
  H5L_info_t link{};
  ASSERT_GE(H5Lget_info(o, "/psi/alias", &link, H5P_DEFAULT), 0);
  EXPECT_EQ(link.type, H5L_TYPE_SOFT);
  EXPECT_EQ(address(o, "/psi/alias"), chinfo);
  // TeNPy's own attributes on the copied groups, its variable-length strings among them.
  EXPECT_EQ(read_string_attr(dir / "t.h5", "/psi/sites/0", "type"), read_string_attr(in, "/psi/sites/0", "type"));
  EXPECT_EQ(read_string_attr(dir / "t.h5", "/psi/chinfo", "class"), "ChargeInfo");
  H5Fclose(o);
  H5Fclose(t);
}

// An MPO result (H·H) written back as a TeNPy MPO: the operator it holds is H².
TEST(WriteBack, TenpyMpoProductIsWrittenAsAnMpo) {
  TempDir dir;
  const std::string h = data("tenpy_tfi_L16_mpo.h5") + ":/H_MPO";
  ASSERT_EQ(run_cli(dir, "apply " + h + " " + h + " -o t.h5 --chi 9 --seed 3 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "apply " + h + " " + h + " -o s.h5 --chi 9 --seed 3 -q --output-format srcc").code, 0);
  EXPECT_EQ(read_string_attr(dir / "t.h5", "/H_MPO", "class"), "MPO");
  EXPECT_LT(relative_distance(dir, "t.h5:/H_MPO", "s.h5:/result"), 1e-12);
}

// The ITensors.jl file's own encodings: fixed-length UTF-8 strings of exactly their bytes, NULL
// terminated; int64 integers; uint64 ids. Ours, index by index.
void expect_encoded_like_itensors_jl(const fs::path& ours, const std::string& index_group) {
  const std::string real = data("itensor_real_testfile_v0.1.41.h5");
  hid_t fr = H5Fopen(real.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t fo = H5Fopen(ours.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  auto same_type = [&](const std::string& a, const std::string& b, bool attribute, const char* name) {
    auto type_of = [&](hid_t f, const std::string& path) {
      hid_t o = attribute ? H5Aopen_by_name(f, path.c_str(), name, H5P_DEFAULT, H5P_DEFAULT)
                          : H5Dopen2(f, (path + "/" + name).c_str(), H5P_DEFAULT);
      hid_t t = attribute ? H5Aget_type(o) : H5Dget_type(o);
      attribute ? H5Aclose(o) : H5Dclose(o);
      return t;
    };
    hid_t tr = type_of(fr, a), to = type_of(fo, b);
    EXPECT_EQ(H5Tget_class(tr), H5Tget_class(to)) << name;
    if (H5Tget_class(tr) == H5T_STRING) {
      EXPECT_EQ(H5Tis_variable_str(tr), H5Tis_variable_str(to)) << name;
      EXPECT_EQ(H5Tget_cset(tr), H5Tget_cset(to)) << name;
      EXPECT_EQ(H5Tget_strpad(tr), H5Tget_strpad(to)) << name;
    } else {
      EXPECT_GT(H5Tequal(tr, to), 0) << name;
    }
    H5Tclose(tr);
    H5Tclose(to);
  };
  const std::string ri = "/ITensorv0.1.41/inds/index_1";
  for (const char* a : {"type", "version", "space_type"}) same_type(ri, index_group, true, a);
  for (const char* d : {"id", "dim", "dir", "plev"}) same_type(ri, index_group, false, d);
  same_type(ri + "/tags", index_group + "/tags", false, "tags");
  same_type("/ITensorv0.1.41", index_group.substr(0, index_group.find("/inds")), true, "type");
  H5Fclose(fr);
  H5Fclose(fo);
}

TEST(WriteBack, ItensorDenseStateOnTheTemplatesSiteIndices) {
  TempDir dir;
  const std::string psi = data("itensor_tfi_L16_dense.h5") + ":/psi";
  ASSERT_EQ(run_cli(dir, "compress " + psi + " -o i.h5 --chi 8 --seed 3 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "compress " + psi + " -o s.h5 --chi 8 --seed 3 -q --output-format srcc").code, 0);
  EXPECT_LT(relative_distance(dir, "i.h5:/psi", "s.h5:/result"), 1e-12);
  hid_t t = H5Fopen(data("itensor_tfi_L16_dense.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t o = H5Fopen((dir / "i.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  for (int n : {1, 7, 16}) {
    const auto a = itensor::read_tensor_info(t, "/psi/MPS[" + std::to_string(n) + "]", "template");
    const auto b = itensor::read_tensor_info(o, "/psi/MPS[" + std::to_string(n) + "]", "ours");
    auto site = [](const itensor::TensorInfo& x) {
      for (const auto& ix : x.inds)
        if (ix.has_tag("Site")) return ix;
      return itensor::Index{};
    };
    EXPECT_EQ(site(a).id, site(b).id) << n;  // the user's own site index
    EXPECT_EQ(site(a).tags, site(b).tags) << n;
    for (const auto& ix : b.inds)
      if (ix.has_tag("Link"))
        for (const auto& jx : a.inds) EXPECT_NE(ix.id, jx.id) << "a fresh link";
  }
  H5Fclose(t);
  H5Fclose(o);
  expect_encoded_like_itensors_jl(dir / "i.h5", "/psi/MPS[3]/inds/index_1");
}

// QN blocks: every block written has the flux its place allows (0, the last tensor the train's
// total), links Out on the tensor to their right and In on the one to their left.
TEST(WriteBack, ItensorQnStateIsBlockSparseWithConsistentFluxes) {
  TempDir dir;
  const std::string psi = data("itensor_xxz_L12_qn.h5") + ":/psi";
  const auto r = run_cli(dir, "compress " + psi + " -o i.h5 --chi 8 --seed 3 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  // Computed on its charges (the default): nothing lies outside the total charge to drop.
  EXPECT_EQ(json_number(r.out, "dropped_weight"), 0.0);
  hid_t f = H5Fopen((dir / "i.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  for (int n = 1; n <= 12; ++n) {
    const std::string path = "/psi/MPS[" + std::to_string(n) + "]";
    const auto t = itensor::read_tensor_info(f, path, path);
    ASSERT_EQ(t.storage, itensor::Storage::kBlockSparse) << path;
    hid_t d = H5Dopen2(f, (path + "/storage/offsets").c_str(), H5P_DEFAULT);
    hid_t s = H5Dget_space(d);
    std::vector<long long> off(static_cast<std::size_t>(H5Sget_simple_extent_npoints(s)));
    H5Dread(d, H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, off.data());
    H5Sclose(s);
    H5Dclose(d);
    const std::size_t rank = t.inds.size();
    ASSERT_GT(off.size(), 0u);
    for (std::size_t b = 0; b < off.size() / (rank + 1); ++b) {
      long long flux = 0;
      for (std::size_t k = 0; k < rank; ++k)
        flux += t.inds[k].dir * t.inds[k].qns[static_cast<std::size_t>(off[b * (rank + 1) + k] - 1)].vals[0];
      EXPECT_EQ(flux, 0) << path << " block " << b;  // this state's total 2·Sz is 0
    }
    for (const auto& ix : t.inds)
      if (ix.tags == "Link,l=" + std::to_string(n)) EXPECT_EQ(ix.dir, -1) << path;
  }
  H5Fclose(f);
  expect_encoded_like_itensors_jl(dir / "i.h5", "/psi/MPS[3]/inds/index_1");
  // The state written is the run's, which our own layout holds too: ITensor's takes the sweep's B
  // form as it is (no Schmidt values to find), plain or after a truncation sweep.
  ASSERT_EQ(run_cli(dir, "compress " + psi + " -o s.h5 --chi 8 --seed 3 --output-format srcc -q").code, 0);
  EXPECT_LT(relative_distance(dir, "i.h5:/psi", "s.h5:/result"), 1e-13);
  ASSERT_EQ(run_cli(dir, "compress " + psi + " -o io.h5 --chi 8 --oversample --seed 3 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "compress " + psi + " -o so.h5 --chi 8 --oversample --seed 3 --output-format srcc -q").code, 0);
  EXPECT_LT(relative_distance(dir, "io.h5:/psi", "so.h5:/result"), 1e-13);
}

TEST(WriteBack, AnotherLibrarysLayoutNeedsAStateOfThatLibrary) {
  TempDir dir;
  make_inputs(dir);
  const auto r = run_cli(dir, "apply h.h5 psi.h5 -o out.h5 --chi 4 --output-format tenpy");
  expect_clean_failure(r, 2, "--output-format tenpy: the state psi.h5:/psi is a srcc train", dir);
}

}  // namespace
}  // namespace srcc::test
