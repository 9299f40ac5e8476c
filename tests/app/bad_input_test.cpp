// Every class of bad input found by hostile testing, as a table: a crafted file, flag or
// environment, the exact exit code, a message naming the file, dataset, attribute or flag, and
// nothing left behind (no output under its final name, no temporary file).
#include <gtest/gtest.h>
#include <hdf5.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "../support/cli_runner.hpp"
#include "srcc/core/text.hpp"
#include "srcc/train/generate.hpp"

namespace srcc::test {
namespace {

namespace fs = std::filesystem;

// --- crafting damaged files with the HDF5 C API --------------------------------------------

// Replaces attribute `name` of `object` by an array of `count` values of `type` (zeros, or the
// strings "x").
void array_attr(const fs::path& file, const char* object, const char* name, hid_t type, hsize_t count) {
  hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(f, 0) << file;
  hid_t o = H5Oopen(f, object, H5P_DEFAULT);
  if (H5Aexists(o, name) > 0) H5Adelete(o, name);
  hid_t space = H5Screate_simple(1, &count, nullptr);
  hid_t a = H5Acreate2(o, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  if (H5Tget_class(type) == H5T_STRING && H5Tis_variable_str(type) > 0) {
    std::vector<const char*> v(count, "MPS");
    H5Awrite(a, type, v.data());
  } else {
    std::vector<char> zeros(count * H5Tget_size(type), 'M');
    if (H5Tget_class(type) != H5T_STRING) std::fill(zeros.begin(), zeros.end(), 0);
    H5Awrite(a, type, zeros.data());
  }
  H5Aclose(a);
  H5Sclose(space);
  H5Oclose(o);
  H5Fclose(f);
}

void int_attr(const fs::path& file, const char* object, const char* name, long long value) {
  hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  hid_t o = H5Oopen(f, object, H5P_DEFAULT);
  if (H5Aexists(o, name) > 0) H5Adelete(o, name);
  hid_t space = H5Screate(H5S_SCALAR);
  hid_t a = H5Acreate2(o, name, H5T_NATIVE_LLONG, space, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(a, H5T_NATIVE_LLONG, &value);
  H5Aclose(a);
  H5Sclose(space);
  H5Oclose(o);
  H5Fclose(f);
}

// Replaces (or adds) dataset `path` by a float64 dataset of the given shape.
void dataset(const fs::path& file, const std::string& path, const std::vector<hsize_t>& dims) {
  hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  H5Ldelete(f, path.c_str(), H5P_DEFAULT);  // fails harmlessly when absent
  hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
  hid_t d = H5Dcreate2(f, path.c_str(), H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  hsize_t n = 1;
  for (auto x : dims) n *= x;
  std::vector<double> zeros(n, 0.0);
  H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, zeros.data());
  H5Dclose(d);
  H5Sclose(space);
  H5Fclose(f);
}

hid_t vlen_string() {
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, H5T_VARIABLE);
  return t;
}

hid_t fixed_string(std::size_t n) {
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, n);
  return t;
}

// A small tmpfs at `dir` (root only): `size` bytes, or read-only. Unmounted when destroyed.
class Mount {
 public:
  Mount(const fs::path& dir, const std::string& options) : dir_(dir) {
    fs::create_directories(dir);
    ok_ = ::mount("tmpfs", dir.c_str(), "tmpfs", options.find("ro") == 0 ? MS_RDONLY : 0,
                  options.c_str()) == 0;
  }
  ~Mount() {
    if (ok_) ::umount2(dir_.c_str(), MNT_DETACH);
  }
  bool ok() const { return ok_; }

 private:
  fs::path dir_;
  bool ok_ = false;
};

struct Case {
  std::string name;
  std::function<void(const TempDir&)> craft;  // damages the inputs of this case
  std::string args;
  int code;
  std::string message;
};

class BadInput : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(run_cli(base_, "generate random-mps -o psi.h5 --sites 6 --bond 4 --seed 1 -q").code, 0);
    ASSERT_EQ(run_cli(base_, "generate random-mpo -o h.h5 --sites 6 --bond 3 --seed 2 -q").code, 0);
    ASSERT_EQ(run_cli(base_, "apply h.h5 psi.h5 -o res.h5 --chi 4 --seed 3 -q").code, 0);
  }
  // Runs each case in a fresh copy of the inputs.
  void run_cases(const std::vector<Case>& cases) {
    for (const auto& c : cases) {
      SCOPED_TRACE(c.name + ": src-compress " + c.args);
      TempDir dir;
      for (const char* f : {"psi.h5", "h.h5", "res.h5"}) fs::copy_file(base_ / f, dir / f);
      if (c.craft) c.craft(dir);
      const auto before = count_files(dir);
      // A reader that blocks (a FIFO given as input) must not hang the suite.
      expect_clean_failure(run_cli(dir, c.args, 20), c.code, c.message, dir);
      EXPECT_EQ(count_files(dir), before) << "a file was left behind";
    }
  }
  static std::size_t count_files(const TempDir& dir) {
    std::size_t n = 0;
    for (const auto& e : fs::recursive_directory_iterator(dir.path()))
      n += e.path().filename() != "stdout.txt" && e.path().filename() != "stderr.txt";
    return n;
  }
  TempDir base_;
};

TEST_F(BadInput, CraftedFilesAreInputErrors) {
  run_cases({
      {"length as an array of 64", [](const TempDir& d) { array_attr(d / "psi.h5", "/psi", "length", H5T_NATIVE_INT64, 64); },
       "apply h.h5 psi.h5 -o out.h5 --chi 4", 3, "psi.h5:/psi: attribute 'length' holds 64 values"},
      {"type as an array of fixed strings", [](const TempDir& d) { array_attr(d / "psi.h5", "/psi", "type", fixed_string(3), 2); },
       "apply h.h5 psi.h5 -o out.h5 --chi 4", 3, "attribute 'type' holds 2 values"},
      {"type as an array of variable strings", [](const TempDir& d) { array_attr(d / "h.h5", "/A", "type", vlen_string(), 3); },
       "apply h.h5 psi.h5 -o out.h5 --chi 4", 3, "h.h5:/A: attribute 'type' holds 3 values"},
      {"complete as an array (collect)", [](const TempDir& d) { array_attr(d / "res.h5", "/log", "complete", H5T_NATIVE_INT64, 4); },
       "collect res.h5 -o out.h5", 3, "res.h5:/log: attribute 'complete' holds 4 values"},
      {"a result site of rank 8", [](const TempDir& d) { dataset(d / "res.h5", "/result/2", {1, 1, 1, 1, 1, 1, 1, 2}); },
       "collect res.h5 -o out.h5", 3, "res.h5:/result/2: rank 8"},
      {"a result site of rank 32", [](const TempDir& d) { dataset(d / "res.h5", "/result/2", std::vector<hsize_t>(32, 1)); },
       "collect res.h5 -o out.h5", 3, "res.h5:/result/2: rank 32"},
      {"result length 1e12", [](const TempDir& d) { int_attr(d / "res.h5", "/result", "length", 1000000000000LL); },
       "collect res.h5 -o out.h5", 3, "attribute 'length' is 1000000000000"},
      {"result length -1", [](const TempDir& d) { int_attr(d / "res.h5", "/result", "length", -1); },
       "collect res.h5 -o out.h5", 3, "attribute 'length' is -1"},
      {"a site named with 30 nines", [](const TempDir& d) { dataset(d / "psi.h5", "/psi/" + std::string(30, '9'), {4, 2}); },
       "apply h.h5 psi.h5 -o out.h5 --chi 4", 3, "dataset \"6\" is missing (found \"999999"},
      {"a FIFO as input", [](const TempDir& d) { ASSERT_EQ(::mkfifo((d / "fifo.h5").c_str(), 0600), 0); },
       "apply h.h5 fifo.h5 -o out.h5 --chi 4", 3, "fifo.h5: not a regular file (a FIFO)"},
      {"a directory as input", [](const TempDir& d) { fs::create_directory(d / "dir.h5"); },
       "apply h.h5 dir.h5 -o out.h5 --chi 4", 3, "dir.h5: not a regular file (a directory)"},
      {"a path too long", nullptr, "apply h.h5 " + std::string(5000, 'x') + ".h5 -o out.h5 --chi 4", 3, "path too long"},
      {"not an HDF5 file", [](const TempDir& d) { std::ofstream(d / "text.h5") << "hello"; },
       "apply h.h5 text.h5 -o out.h5 --chi 4", 3, "text.h5: not an HDF5 file"},
  });
}

// A file found by fuzzing on which libhdf5 1.10 itself segfaults (a variable-length string
// read from a corrupted global heap): the read check contains it.
TEST_F(BadInput, AFileThatCrashesHdf5IsAnInputError) {
  TempDir dir;
  fs::copy_file(fs::path(source_dir()) / "tests/data/crashes-hdf5-global-heap.h5", dir / "bad.h5");
  expect_clean_failure(run_cli(dir, "collect bad.h5 -o out.csv", 60), 3,
                       "bad.h5: reading it crashed the HDF5 library", dir);
  EXPECT_FALSE(fs::exists(dir / "out.csv"));
}

TEST_F(BadInput, DamagedOutputIsReplacedUnderSkipExisting) {
  TempDir dir;
  for (const char* f : {"psi.h5", "h.h5", "res.h5"}) fs::copy_file(base_ / f, dir / f);
  array_attr(dir / "res.h5", "/log", "complete", H5T_NATIVE_INT64, 4);
  const auto r = run_cli(dir, "apply h.h5 psi.h5 -o res.h5 --chi 4 --skip-existing");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("incomplete output is replaced"), std::string::npos) << r.err;
  EXPECT_EQ(run_cli(dir, "collect res.h5").code, 0);  // whole again
}

TEST_F(BadInput, BadFlagsAreUsageErrorsNamingTheFlag) {
  std::ofstream(base_ / "bad.conf") << "chi = 4\nbogus_key = 3\n";
  run_cases({
      {"negative chi", nullptr, "apply h.h5 psi.h5 -o out.h5 --chi -3", 2, "--chi: expected a whole number in [1, "},
      {"chi 2^64-1", nullptr, "apply h.h5 psi.h5 -o out.h5 --chi 18446744073709551615", 2, "--chi: expected a whole number"},
      {"fractional chi", nullptr, "apply h.h5 psi.h5 -o out.h5 --chi 2.5", 2, "--chi: expected a whole number"},
      {"negative block step", nullptr, "apply h.h5 psi.h5 -o out.h5 --tol 1e-3 --block-step -1", 2, "--block-step: expected"},
      {"negative seed", nullptr, "apply h.h5 psi.h5 -o out.h5 --chi 4 --seed -1", 2, "--seed: expected a whole number"},
      {"tol nan", nullptr, "apply h.h5 psi.h5 -o out.h5 --tol nan", 2, "--tol: must be in (0, 1)"},
      {"negative tol", nullptr, "apply h.h5 psi.h5 -o out.h5 --tol -0.1", 2, "--tol: must be in (0, 1)"},
      {"oversample below 1", nullptr, "apply h.h5 psi.h5 -o out.h5 --chi 4 --oversample=0.5", 2, "--oversample: the factor must be"},
      {"negative threads", nullptr, "apply h.h5 psi.h5 -o out.h5 --chi 4 --threads -2", 2, "--threads: expected"},
      {"cutoff 1.5", nullptr, "apply h.h5 psi.h5 -o out.h5 --chi 4 --cutoff 1.5", 2, "--cutoff: must be in [0, 1)"},
      {"unknown config key", [this](const TempDir& d) { fs::copy_file(base_ / "bad.conf", d / "bad.conf"); },
       "--config bad.conf apply h.h5 psi.h5 -o out.h5", 2, "bad.conf:2: unknown key 'bogus_key'"},
      {"a binary config file",
       [](const TempDir& d) {
         std::ifstream in(binary(), std::ios::binary);
         std::string head(300, '\0');
         in.read(head.data(), 300);
         std::ofstream(d / "bin.conf", std::ios::binary) << head;
       },
       "--config bin.conf apply h.h5 psi.h5 -o out.h5", 2, "--config bin.conf: not a text file (byte "},
      {"generate --J nan", nullptr, "generate ising -o out.h5 --sites 4 --J nan", 2, "--J nan: give a finite number"},
      {"generate --h inf", nullptr, "generate ising -o out.h5 --sites 4 --h inf", 2, "--h inf: give a finite number"},
      {"ising-step --dt nan", nullptr, "generate ising-step -o out.h5 --sites 4 --dt nan", 2, "--dt nan: give a finite number"},
      {"ising-step --dt -inf", nullptr, "generate ising-step -o out.h5 --sites 4 --dt -inf", 2, "--dt -inf: give a finite number"},
      {"ising-step overflowing", nullptr, "generate ising-step -o out.h5 --sites 4 --dt 1e300 --imaginary-time", 2,
       "site 0 has entries beyond float64 with --J 1, --h 1, --dt 1e+300: give smaller values"},
      {"a file larger than the disk", nullptr, "generate identity -o out.h5 --sites 1024 --phys 4096", 5,
       "out.h5: disk full: generate identity (1024 sites of bond 1) needs 128.00 GiB"},
  });
}

// A config file that an editor began with a UTF-8 byte-order mark reads as without it.
TEST_F(BadInput, AConfigFileWithAByteOrderMarkIsRead) {
  { std::ofstream(base_ / "bom.conf") << "\xef\xbb\xbf" << "chi = 3\nseed = 5\n"; }
  auto r = run_cli(base_, "--config bom.conf apply h.h5 psi.h5 -o bom.h5 -q");
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_EQ(run_cli(base_, "apply h.h5 psi.h5 -o plain.h5 --chi 3 --seed 5 -q").code, 0);
  EXPECT_LT(relative_distance(base_, "bom.h5", "plain.h5"), 1e-14);
}

// --json stays valid JSON (UTF-8) for file and group names that are not (each such byte is
// written as U+FFFD), in results and in errors alike.
TEST_F(BadInput, JsonOutputIsUtf8ForAnyFileName) {
  const std::string odd = "n\xff\xfe.h5";
  fs::copy_file(base_ / "psi.h5", base_ / odd);
  const std::vector<std::string> commands = {
      "compress '" + odd + "' -o 'c\xff.h5' --chi 2 --seed 1 --json", "inspect 'c\xff.h5' --json",
      "collect 'c\xff.h5' --json", "distance '" + odd + "' psi.h5 --json", "expect '" + odd + "' h.h5 --json",
      "apply h.h5 '" + odd + "' -o 'a\xff.h5' --chi 2 --dry-run --json", "generate product -o 'g\xff.h5:/p\xfe' --sites 3 --json",
      "inspect 'g\xff.h5' --json", "apply h.h5 'missing\xff.h5' -o x.h5 --chi 2 --json", "compress '" + odd + "' -o y.h5 --json"};
  for (const auto& c : commands) {
    SCOPED_TRACE(c);
    const auto r = run_cli(base_, c);
    ASSERT_FALSE(r.out.empty()) << r.err;
    EXPECT_TRUE(r.out.front() == '{' || r.out.front() == '[') << r.out;
    for (std::size_t at = 0; at < r.out.size();) {
      const std::size_t n = utf8_sequence(std::string_view(r.out).substr(at));
      ASSERT_GT(n, 0u) << "byte " << at << " of " << r.out;
      at += n;
    }
  }
}

// A sum of many small terms: each term's share of the host budget keeps the process's own
// overhead whole, so 1000 terms of a product state fit and give the weighted sum.
TEST_F(BadInput, ASumOfAThousandSmallTermsFits) {
  ASSERT_EQ(run_cli(base_, "generate product -o up.h5 --sites 8 -q").code, 0);
  std::string args = "apply";
  for (int i = 0; i < 1000; ++i) args += " --term 0.001 up.h5";
  const auto r = run_cli(base_, args + " -o sum.h5 --chi 2 -q");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_LT(relative_distance(base_, "sum.h5", "up.h5"), 1e-12);
}

TEST_F(BadInput, OutputsAreNeverClobberedOrWrittenInPlace) {
  run_cases({
      {"-o names a directory", [](const TempDir& d) { fs::create_directory(d / "dir.h5"); },
       "apply h.h5 psi.h5 -o dir.h5 --chi 4", 4, "dir.h5: is a directory"},
      {"collect -o over an existing file", [](const TempDir& d) { std::ofstream(d / "keep.csv") << "keep me"; },
       "collect res.h5 -o keep.csv", 4, "keep.csv: file exists (use --force"},
  });
}

// The usual slips in naming trains and outputs get a message that says what was meant.
TEST_F(BadInput, MistypedNamesAreExplained) {
  run_cases({
      {"a group in another case", nullptr, "apply h.h5 psi.h5:/Psi -o out.h5 --chi 4", 3,
       "psi.h5:/Psi: no such group (did you mean psi.h5:/psi?); the file's trains: /psi (srcc)"},
      {"a group without its slash", nullptr, "apply h.h5 psi.h5:psi -o out.h5 --chi 4", 3,
       "psi.h5:psi: no such file; a group starts with '/': psi.h5:/psi"},
      {"-o with a group", nullptr, "apply h.h5 psi.h5 -o res.h5:/g --chi 4", 2, "-o res.h5:/g: -o takes a file"},
      {"an MPO stored as (l, u, d, r) without a layout attribute",
       [](const TempDir& d) {
         auto t = stored_train(random_train<cdouble>(TrainKind::kMpo, 6, 3, 2, 5), false, "ludr", false, "/W");
         t.layout.reset();
         write_raw_train(d / "w.h5", t);
       },
       "apply w.h5 psi.h5 -o out.h5 --chi 4", 3,
       "the group has no layout attribute, so its sites were read as \"lrud\": if they are stored in another leg "
       "order, give it one (e.g. layout = \"ludr\")"},
  });
}

TEST_F(BadInput, ChiAboveTheLargestBondIsCapped) {
  const auto r = run_cli(base_, "apply h.h5 psi.h5 -o capped.h5 --chi 100000 --seed 1");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("--chi 100000 is above the largest bond this product can have"), std::string::npos) << r.err;
}

TEST_F(BadInput, ReadOnlyOrFullFileSystems) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to mount a small tmpfs";
  TempDir dir;
  for (const char* f : {"psi.h5", "h.h5", "res.h5"}) fs::copy_file(base_ / f, dir / f);
  ASSERT_EQ(run_cli(dir, "generate random-mps -o big.h5 --sites 40 --bond 32 --seed 4 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "generate random-mpo -o bigh.h5 --sites 40 --bond 32 --seed 5 -q").code, 0);
  {
    Mount ro(dir / "ro", "ro,size=1m");
    if (!ro.ok()) GTEST_SKIP() << "mount not permitted here";
    const auto r = run_cli(dir, "apply h.h5 psi.h5 -o ro/out.h5 --chi 4");
    EXPECT_EQ(r.code, 4) << r.err;
    EXPECT_NE(r.err.find("ro/out.h5: cannot write in directory"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("sweep"), std::string::npos) << "the check comes before any work: " << r.err;
  }
  const std::vector<std::pair<std::string, std::string>> full = {
      {"apply bigh.h5 big.h5 -o full/out.h5 --chi 32 --seed 1", "full/out.h5: disk full"},
      {"generate random-mps -o full/out.h5 --sites 200 --bond 32", "full/out.h5: disk full"},
      {"collect res.h5 res.h5 res.h5 -o full/out.csv", "full/out.csv"},
  };
  for (const auto& [args, message] : full) {
    SCOPED_TRACE(args);
    Mount small(dir / "full", "size=64k");
    ASSERT_TRUE(small.ok());
    {
      std::ofstream ballast(dir / "full" / "ballast");  // fill it: not one more block fits
      const std::string block(4096, 'x');
      while (ballast.write(block.data(), static_cast<std::streamsize>(block.size())) && ballast.flush()) {
      }
    }
    const auto r = run_cli(dir, args);
    EXPECT_EQ(r.code, 5) << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    std::size_t left = 0;
    for (const auto& e : fs::directory_iterator(dir / "full")) left += e.path().filename() != "ballast";
    EXPECT_EQ(left, 0u) << "a partial output or temporary file was left";
  }
}

}  // namespace
}  // namespace srcc::test
