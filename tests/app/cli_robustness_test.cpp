// What a busy cluster and an attacker do to a run, each class with its recipe: inputs replaced
// or held by other programs while a run reads them, outputs that name an input, scratch and
// output directories shared by several nodes, concurrent updates of one file, files that
// inflate or claim far more memory than they hold, outputs that are no regular file, products
// whose norm leaves the range of a double, long names, config files that never end. Each test
// asserts the exit code, the message and what is on disk afterwards.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "../support/cli_runner.hpp"
#include "srcc/core/error.hpp"
#include "srcc/core/process_tag.hpp"
#include "srcc/io/pinned_file.hpp"
#include "srcc/train/generate.hpp"

namespace srcc::test {
namespace {

namespace fs = std::filesystem;

std::string bytes_of(const fs::path& p) { return slurp(p); }

// A child process that has `file` open for writing through HDF5 (as h5py does) and writes
// `datasets` small datasets into it, holding it for `seconds`. Returns its pid.
pid_t hold_for_writing(const fs::path& file, int datasets, double seconds) {
  const pid_t pid = fork();
  if (pid == 0) {
    hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    if (f < 0) _exit(2);
    for (int i = 0; i < datasets; ++i) {
      const hsize_t n = 4;
      hid_t space = H5Screate_simple(1, &n, nullptr);
      const std::string name = "/held" + std::to_string(i);
      hid_t d = H5Dcreate2(f, name.c_str(), H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
      const double v[4] = {1, 2, 3, double(i)};
      H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
      H5Dclose(d);
      H5Sclose(space);
    }
    H5Fflush(f, H5F_SCOPE_GLOBAL);
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    H5Fclose(f);
    _exit(0);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(400));  // it has the file open by now
  return pid;
}

int wait_for(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int count_datasets(const fs::path& file, const std::string& prefix) {
  hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) return -1;
  H5G_info_t info;
  H5Gget_info(f, &info);
  int n = 0;
  for (hsize_t i = 0; i < info.nlinks; ++i) {
    char name[256] = {0};
    H5Lget_name_by_idx(f, ".", H5_INDEX_NAME, H5_ITER_INC, i, name, sizeof name, H5P_DEFAULT);
    n += std::string(name).rfind(prefix, 0) == 0;
  }
  H5Fclose(f);
  return n;
}

// --- inputs that change under a run ---------------------------------------------------------

// A second process gives the input's name to one version after another (as `mv new.h5 in.h5`,
// `generate --force` or any rename-based writer does) while runs read it: each run reads one
// version whole — its result is that version's result — or fails with exit 3 saying why.
TEST(Robustness, AnInputReplacedWhileARunReadsItIsReadAsOneVersion) {
  TempDir dir;
  ASSERT_EQ(run_cli(dir, "generate random-mpo -o h.h5 --sites 60 --bond 4 --seed 1 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "generate random-mps -o a.h5 --sites 60 --bond 24 --seed 2 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "generate random-mps -o b.h5 --sites 60 --bond 24 --seed 3 -q").code, 0);
  for (const char* v : {"a", "b"})
    ASSERT_EQ(run_cli(dir, std::string("apply h.h5 ") + v + ".h5 -o ref_" + v + ".h5 --chi 40 --seed 5 -q").code, 0);
  fs::copy_file(dir / "a.h5", dir / "psi.h5");
  const std::string swap = "cd '" + dir.path().string() +
                           "' && while [ ! -e stop ]; do cp a.h5 .s.h5 && mv .s.h5 psi.h5; sleep 0.02; "
                           "cp b.h5 .t.h5 && mv .t.h5 psi.h5; sleep 0.02; done";
  const pid_t swapper = fork();
  if (swapper == 0) {
    execl("/bin/sh", "sh", "-c", swap.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int matched = 0;
  for (int k = 0; k < 8; ++k) {
    const std::string out = "out" + std::to_string(k) + ".h5";
    const auto r = run_cli(dir, "apply h.h5 psi.h5 -o " + out + " --chi 40 --seed 5 -q");
    if (r.code == 3) {  // refused: allowed, if it says why
      EXPECT_NE(r.err.find("replaced while it was being opened"), std::string::npos) << r.err;
      continue;
    }
    ASSERT_EQ(r.code, 0) << r.err;
    const double da = relative_distance(dir, out + ":/result", "ref_a.h5:/result");
    const double db = relative_distance(dir, out + ":/result", "ref_b.h5:/result");
    EXPECT_TRUE(da < 1e-12 || db < 1e-12) << out << ": " << da << " from version a, " << db << " from b";
    matched += da < 1e-12 || db < 1e-12;
  }
  std::ofstream(dir / "stop") << "";
  wait_for(swapper);
  EXPECT_GT(matched, 0);
}

// A file written into in place (not replaced) while it is open is noticed, not trusted.
TEST(Robustness, AFileModifiedInPlaceIsNoticed) {
  TempDir dir;
  std::ofstream(dir / "f.bin") << "version one";
  PinnedFile pin((dir / "f.bin").string());
  EXPECT_NO_THROW(pin.check_unchanged());
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::ofstream(dir / "f.bin", std::ios::app) << " and more";
  try {
    pin.check_unchanged();
    FAIL() << "the change was not noticed";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("f.bin: the file was modified while it was being read"),
              std::string::npos) << e.what();
  }
}

// An HDF5 program with the input open for writing: said so, with who it is.
TEST(Robustness, AnInputLockedByAWriterIsNamed) {
  TempDir dir;
  make_inputs(dir);
  const pid_t holder = hold_for_writing(dir / "psi.h5", 1, 2.0);
  const auto r = run_cli(dir, "apply h.h5 psi.h5 -o out.h5 --chi 4 --seed 1");
  wait_for(holder);
  expect_clean_failure(r, 3, "psi.h5: locked by process " + std::to_string(holder), dir);
  EXPECT_EQ(r.err.find("damaged"), std::string::npos) << r.err;
}

// --- outputs that name an input -------------------------------------------------------------

TEST(Robustness, AnOutputThatNamesAnInputIsRefusedUnderEveryFlagAndSpelling) {
  TempDir dir;
  make_inputs(dir);
  fs::create_symlink("psi.h5", dir / "link.h5");
  fs::create_hard_link(dir / "psi.h5", dir / "hard.h5");
  const std::string up = "../" + dir.path().filename().string() + "/psi.h5";
  const std::string psi = bytes_of(dir / "psi.h5"), h = bytes_of(dir / "h.h5");
  const std::vector<std::string> commands = {"apply h.h5 psi.h5", "compress psi.h5", "truncate psi.h5"};
  const std::vector<std::string> flags = {"", "--force", "--skip-existing", "--force --skip-existing", "--dry-run"};
  for (const auto& cmd : commands)
    for (const auto& flag : flags)
      for (const std::string& out : {std::string("psi.h5"), std::string("./psi.h5"), up,
                                     std::string("link.h5"), std::string("hard.h5")}) {
        SCOPED_TRACE(cmd + " -o " + out + " " + flag);
        const auto r = run_cli(dir, cmd + " -o " + out + " --chi 4 --seed 1 " + flag);
        EXPECT_EQ(r.code, 4) << r.err;
        EXPECT_NE(r.err.find("is the input"), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("sweep"), std::string::npos) << "refused before any work";
        EXPECT_EQ(temp_files(dir), 0);
      }
  const auto r = run_cli(dir, "apply h.h5 psi.h5 -o h.h5 --chi 4 --force");
  EXPECT_EQ(r.code, 4);
  EXPECT_NE(r.err.find("-o h.h5: is the input h.h5"), std::string::npos) << r.err;
  const auto c = run_cli(dir, "collect psi.h5 -o psi.h5 --force");
  EXPECT_EQ(c.code, 4) << c.err;
  EXPECT_EQ(bytes_of(dir / "psi.h5"), psi);
  EXPECT_EQ(bytes_of(dir / "h.h5"), h);
}

// --- crafted compound types -----------------------------------------------------------------

// A complex compound {r, i} whose `i` member sits 2^28 bytes into a record of 2^28 + 8 bytes:
// HDF5's conversion would run far outside its buffers. The metadata says so; no read happens.
TEST(Robustness, AComplexCompoundWithAFarMemberOffsetIsAnInputError) {
  TempDir dir;
  {
    hid_t f = H5Fcreate((dir / "c.h5").c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t g = H5Gcreate2(f, "/psi", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hid_t s = H5Screate(H5S_SCALAR), str = H5Tcopy(H5T_C_S1);
    H5Tset_size(str, 3);
    hid_t a = H5Acreate2(g, "type", str, s, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, str, "MPS");
    const std::size_t far = std::size_t{1} << 28;
    hid_t t = H5Tcreate(H5T_COMPOUND, far + 8);
    H5Tinsert(t, "r", 0, H5T_IEEE_F64LE);
    H5Tinsert(t, "i", far, H5T_IEEE_F64LE);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_alloc_time(dcpl, H5D_ALLOC_TIME_LATE);
    for (int j = 0; j < 3; ++j) {
      const hsize_t dims[2] = {2, 2};
      hid_t space = H5Screate_simple(2, dims, nullptr);
      hid_t d = H5Dcreate2(g, std::to_string(j).c_str(), t, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
      H5Dclose(d);
      H5Sclose(space);
    }
    H5Pclose(dcpl);
    H5Tclose(t);
    H5Aclose(a);
    H5Tclose(str);
    H5Sclose(s);
    H5Gclose(g);
    H5Fclose(f);
  }
  for (const std::string args : {"inspect c.h5", "compress c.h5 -o out.h5 --chi 2"}) {
    const auto r = run_cli(dir, args);
    expect_clean_failure(r, 3, "c.h5:/psi/0: complex compound of size 268435464 with members at "
                               "offsets 0 and 268435456", dir);
  }
}

// --- shared scratch and output directories --------------------------------------------------

std::string dead_pid() {
  const pid_t pid = fork();
  if (pid == 0) _exit(0);
  waitpid(pid, nullptr, 0);
  return std::to_string(pid);
}

// What a killed run left beside its output and in the scratch directory is removed by the next
// run of this host; what a run on another node (another tag) has there is never touched.
TEST(Robustness, EntriesOfOtherHostsAreNeverRemoved) {
  TempDir dir;
  make_inputs(dir);
  fs::create_directory(dir / "scratch");
  const std::string gone = dead_pid(), other = "0123456789abcdef";
  const fs::path mine_tmp = dir / (".out.h5.tmp-" + process_tag() + "-" + gone + "-0badc0de");
  const fs::path their_tmp = dir / (".out.h5.tmp-" + other + "-" + gone + "-0badc0de");
  const fs::path mine_dir = dir / "scratch" / ("src-compress-" + process_tag() + "-" + gone + "-AbCdEf");
  const fs::path their_dir = dir / "scratch" / ("src-compress-" + other + "-" + gone + "-AbCdEf");
  std::ofstream(mine_tmp) << "left by a killed run here";
  std::ofstream(their_tmp) << "being written on another node";
  fs::create_directory(mine_dir);
  fs::create_directory(their_dir);
  std::ofstream(their_dir / "env.bin") << "spilled on another node";
  const auto r = run_cli(dir, "apply h.h5 psi.h5 -o out.h5 --chi 4 --seed 1 --scratch-dir scratch");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(fs::exists(mine_tmp));
  EXPECT_FALSE(fs::exists(mine_dir));
  EXPECT_TRUE(fs::exists(their_tmp));
  EXPECT_TRUE(fs::exists(their_dir / "env.bin"));
}

// Two PID namespaces (two containers, or as good as two nodes) sharing a scratch directory and
// an output directory: a run in one starts while a run in the other spills and writes; the
// first run's environments and output survive (it used to lose them: exit 5 or 4).
TEST(Robustness, ARunInAnotherPidNamespaceKeepsItsScratchAndItsOutput) {
  if (std::system("unshare --pid --fork --mount-proc true >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "unshare of a PID namespace is not permitted here";
  TempDir dir;
  ASSERT_EQ(run_cli(dir, "generate random-mpo -o h.h5 --sites 200 --bond 8 --seed 1 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "generate random-mps -o psi.h5 --sites 200 --bond 64 --seed 2 -q").code, 0);
  fs::create_directory(dir / "scratch");
  // Spills: the environments alone need more than 64 MiB.
  const std::string long_run = "cd '" + dir.path().string() + "' && unshare --pid --fork --mount-proc '" +
                               binary() + "' apply h.h5 psi.h5 -o far.h5 --chi 64 --seed 3 "
                               "--host-memory 64MiB --scratch-dir scratch -q >far.out 2>far.err";
  const pid_t far = fork();
  if (far == 0) {
    execl("/bin/sh", "sh", "-c", long_run.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  // Wait until it has made its scratch directory, then run beside it, several times.
  for (int i = 0; i < 500; ++i) {
    bool made = false;
    for (const auto& e : fs::directory_iterator(dir / "scratch")) made = true;
    if (made) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  for (int k = 0; k < 3; ++k) {
    const auto r = run_cli(dir, "apply h.h5 psi.h5 -o near" + std::to_string(k) +
                                    ".h5 --chi 8 --seed 4 --scratch-dir scratch -q");
    EXPECT_EQ(r.code, 0) << r.err;
  }
  EXPECT_EQ(wait_for(far), 0) << slurp(dir / "far.err");
  EXPECT_TRUE(fs::exists(dir / "far.h5"));
  EXPECT_TRUE(fs::is_empty(dir / "scratch"));
}

// --- concurrent updates of one file ---------------------------------------------------------

TEST(Robustness, ConcurrentAddsToOneFileKeepEveryGroup) {
  TempDir dir;
  ASSERT_EQ(run_cli(dir, "generate random-mps -o f.h5:/base --sites 4 --bond 2 --seed 1 -q").code, 0);
  std::string cmd = "cd '" + dir.path().string() + "' && { ";
  for (int k = 0; k < 8; ++k)
    cmd += "'" + binary() + "' generate random-mps -o f.h5:/g" + std::to_string(k) +
           " --sites 40 --bond 16 --seed " + std::to_string(k + 2) + " -q >/dev/null 2>&1 & ";
  cmd += "wait; }";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const auto r = run_cli(dir, "inspect f.h5 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  for (int k = 0; k < 8; ++k)
    EXPECT_NE(r.out.find("\"/g" + std::to_string(k) + "\""), std::string::npos) << r.out;
  EXPECT_EQ(temp_files(dir), 0);
}

// An HDF5 program has the file open for writing: the add is refused naming it, and everything
// that program wrote is still there once it closes the file.
TEST(Robustness, AddingToAFileAnotherProgramWritesIsRefusedNamingIt) {
  TempDir dir;
  ASSERT_EQ(run_cli(dir, "generate random-mps -o f.h5:/base --sites 4 --bond 2 --seed 1 -q").code, 0);
  const pid_t holder = hold_for_writing(dir / "f.h5", 200, 1.5);
  const auto r = run_cli(dir, "generate random-mps -o f.h5:/late --sites 4 --bond 2 --seed 2");
  EXPECT_EQ(r.code, 4) << r.err;
  EXPECT_NE(r.err.find("f.h5: locked by process " + std::to_string(holder)), std::string::npos) << r.err;
  EXPECT_EQ(wait_for(holder), 0);
  EXPECT_EQ(count_datasets(dir / "f.h5", "held"), 200);
  EXPECT_EQ(temp_files(dir), 0);
}

// --- memory bombs ---------------------------------------------------------------------------

// zlib's stream of `bytes` zero bytes, made without holding them.
std::vector<unsigned char> deflated_zeros(std::size_t bytes) {
  z_stream z{};
  deflateInit(&z, 9);
  std::vector<unsigned char> in(1 << 20, 0), out;
  std::vector<unsigned char> buf(1 << 16);
  for (std::size_t done = 0; done < bytes;) {
    const std::size_t n = std::min(in.size(), bytes - done);
    done += n;
    z.next_in = in.data();
    z.avail_in = static_cast<uInt>(n);
    const int flush = done == bytes ? Z_FINISH : Z_NO_FLUSH;
    do {
      z.next_out = buf.data();
      z.avail_out = static_cast<uInt>(buf.size());
      deflate(&z, flush);
      out.insert(out.end(), buf.data(), buf.data() + (buf.size() - z.avail_out));
    } while (z.avail_out == 0);
  }
  deflateEnd(&z);
  return out;
}

// A 4-site MPS (bond 64, float64, gzip-compressed in one chunk a site) whose site 1 chunk is
// replaced by `raw`.
void write_gzip_train(const fs::path& file, const std::vector<unsigned char>* raw) {
  hid_t f = H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  hid_t g = H5Gcreate2(f, "/psi", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  hid_t s = H5Screate(H5S_SCALAR), str = H5Tcopy(H5T_C_S1);
  H5Tset_size(str, 3);
  hid_t a = H5Acreate2(g, "type", str, s, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(a, str, "MPS");
  for (int j = 0; j < 4; ++j) {
    std::vector<hsize_t> dims = j == 0 ? std::vector<hsize_t>{64, 2}
                                : j == 3 ? std::vector<hsize_t>{64, 2} : std::vector<hsize_t>{64, 64, 2};
    hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, static_cast<int>(dims.size()), dims.data());
    H5Pset_deflate(dcpl, 6);
    hid_t d = H5Dcreate2(g, std::to_string(j).c_str(), H5T_IEEE_F64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    std::vector<double> v(H5Sget_simple_extent_npoints(space));
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = std::sin(1.0 + i + 7 * j);
    H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
    if (j == 1 && raw != nullptr) {
      const hsize_t origin[3] = {0, 0, 0};
      EXPECT_GE(H5Dwrite_chunk(d, H5P_DEFAULT, 0, origin, raw->size(), raw->data()), 0);
    }
    H5Dclose(d);
    H5Pclose(dcpl);
    H5Sclose(space);
  }
  H5Aclose(a);
  H5Tclose(str);
  H5Sclose(s);
  H5Gclose(g);
  H5Fclose(f);
}

// A 64 KiB chunk stored as a 250 KB stream that inflates to 256 MiB: refused from its stored
// size, with the resident memory far below what HDF5's own inflater would have taken.
TEST(Robustness, AGzipBombIsAnInputErrorWithinTheBudget) {
  TempDir dir;
  const auto bomb = deflated_zeros(std::size_t{256} << 20);
  write_gzip_train(dir / "bomb.h5", &bomb);
  for (const char* cmd : {"compress", "truncate"}) {
    const auto [code, rss] = run_measured(dir, {cmd, "bomb.h5", "-o", "out.h5", "--chi", "4",
                                                   "--host-memory", "128MiB"});
    EXPECT_EQ(code, 3) << cmd;
    expect_resident_below(rss, 100e6, cmd);
  }
  const auto r = run_cli(dir, "compress bomb.h5 -o out.h5 --chi 4");
  expect_clean_failure(r, 3, "bomb.h5:/psi/1: chunk 0 is stored in", dir);
  // The same train with its real chunk reads as it was written.
  write_gzip_train(dir / "fine.h5", nullptr);
  EXPECT_EQ(run_cli(dir, "truncate fine.h5 -o out.h5 --chi 64").code, 0);
  EXPECT_LT(relative_distance(dir, "out.h5:/result", "fine.h5"), 1e-13);
}

// A 40 KB output whose log declares 2^24 rows (never written: HDF5 gives fill values): collect
// reads it in blocks of rows, so its memory stays small; 2^25 rows is no plausible log.
TEST(Robustness, ALogDeclaringMillionsOfRowsIsReadInBoundedMemory) {
  TempDir dir;
  make_inputs(dir);
  ASSERT_EQ(run_cli(dir, "apply h.h5 psi.h5 -o res.h5 --chi 4 --seed 1 -q").code, 0);
  for (const hsize_t rows : {hsize_t{1} << 24, hsize_t{1} << 25}) {
    fs::copy_file(dir / "res.h5", dir / "big.h5", fs::copy_options::overwrite_existing);
    hid_t f = H5Fopen((dir / "big.h5").c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t old = H5Dopen2(f, "/log/transfers", H5P_DEFAULT);
    hid_t type = H5Dget_type(old);
    H5Dclose(old);
    H5Ldelete(f, "/log/transfers", H5P_DEFAULT);
    hid_t space = H5Screate_simple(1, &rows, nullptr);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_alloc_time(dcpl, H5D_ALLOC_TIME_LATE);
    hid_t d = H5Dcreate2(f, "/log/transfers", type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    H5Dclose(d);
    H5Pclose(dcpl);
    H5Sclose(space);
    H5Tclose(type);
    H5Fclose(f);
    const auto [code, rss] = run_measured(dir, {"collect", "big.h5"});
    if (rows == (hsize_t{1} << 24)) {
      EXPECT_EQ(code, 0);
      expect_resident_below(rss, 100e6, "collect");
    } else {
      const auto r = run_cli(dir, "collect big.h5");
      EXPECT_EQ(r.code, 3);
      EXPECT_NE(r.err.find("big.h5:/log/transfers: 33554432 rows is not a plausible log"),
                std::string::npos) << r.err;
    }
  }
}

// distance holds two sites of each train and generate one site: both check that against the
// budget before they start, and stay far below a whole train.
TEST(Robustness, DistanceAndGenerateKeepToTheHostBudget) {
  TempDir dir;
  auto r = run_cli(dir, "generate random-mps -o huge.h5 --sites 3 --bond 8192 --host-memory 64MiB");
  EXPECT_EQ(r.code, 5) << r.err;
  EXPECT_NE(r.err.find("generate random-mps: one site of bond 8192 needs"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "huge.h5"));
  EXPECT_EQ(temp_files(dir), 0);
  ASSERT_EQ(run_cli(dir, "generate random-mps -o a.h5 --sites 200 --bond 128 --seed 1 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "generate random-mps -o b.h5 --sites 200 --bond 128 --seed 2 -q").code, 0);
  r = run_cli(dir, "distance a.h5 b.h5 --host-memory 2MiB");
  EXPECT_EQ(r.code, 5) << r.err;
  EXPECT_NE(r.err.find("distance, site 1: needs"), std::string::npos) << r.err;
  // The trains are 52 MB each; a step holds about 4 MB.
  const auto [code, rss] = run_measured(dir, {"distance", "a.h5", "b.h5"});
  EXPECT_EQ(code, 0);
  expect_resident_below(rss, 40e6, "distance");
  const auto [gcode, grss] =
      run_measured(dir, {"generate", "random-mps", "-o", "g.h5", "--sites", "400", "--bond", "128", "-q"});
  EXPECT_EQ(gcode, 0);
  expect_resident_below(grss, 40e6, "generate of a 105 MB train");
}

// --- outputs that are no regular file --------------------------------------------------------

TEST(Robustness, DevicesFifosAndDanglingLinksAreNeverReplaced) {
  TempDir dir;
  make_inputs(dir);
  ASSERT_EQ(::mkfifo((dir / "out.fifo").c_str(), 0600), 0);
  fs::create_symlink("nowhere/out.h5", dir / "dangling.h5");
  auto r = run_cli(dir, "apply h.h5 psi.h5 -o out.fifo --chi 4 --force", 20);
  EXPECT_EQ(r.code, 4) << r.err;
  EXPECT_NE(r.err.find("out.fifo: is a FIFO, not a regular file"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::is_fifo(dir / "out.fifo"));
  r = run_cli(dir, "apply h.h5 psi.h5 -o dangling.h5 --chi 4 --force");
  EXPECT_EQ(r.code, 4) << r.err;
  EXPECT_NE(r.err.find("dangling.h5: is a symbolic link to a file that does not exist"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("sweep"), std::string::npos) << "refused before any work";
  if (::geteuid() == 0 && ::mknod((dir / "null").c_str(), S_IFCHR | 0600, makedev(1, 3)) == 0) {
    r = run_cli(dir, "compress psi.h5 -o null --chi 4 --force");
    EXPECT_EQ(r.code, 4) << r.err;
    EXPECT_NE(r.err.find("null: is a character device"), std::string::npos) << r.err;
    struct stat st {};
    ASSERT_EQ(::lstat((dir / "null").c_str(), &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode));
  }
  EXPECT_EQ(temp_files(dir), 0);
}

// --- products outside a double's range --------------------------------------------------------

// psi with site 2 scaled by `factor`.
void scaled_state(const TempDir& dir, const std::string& name, double factor) {
  auto p = random_train<cdouble>(TrainKind::kMps, 6, 3, 2, 7);
  for (auto& v : p[2].data) v *= factor;
  write_raw_train(dir / name, stored_train(p, true, "lrp", true, "/psi"));
}

TEST(Robustness, ProductsWhoseNormUnderflowsAreNumericalErrorsOnEveryPath) {
  TempDir dir;
  ASSERT_EQ(run_cli(dir, "generate random-mpo -o h.h5 --sites 6 --bond 2 --seed 1 -q").code, 0);
  scaled_state(dir, "tiny.h5", 1e-310);
  for (const std::string args : {"apply h.h5 tiny.h5 --chi 3", "apply h.h5 tiny.h5 --chi 3 --oversample",
                                 "apply h.h5 tiny.h5 --tol 1e-4", "compress tiny.h5 --chi 2",
                                 "compress tiny.h5 --chi 2 --oversample", "truncate tiny.h5 --chi 2"}) {
    SCOPED_TRACE(args);
    const auto r = run_cli(dir, args + " -o out.h5 --seed 2");
    expect_clean_failure(r, 7, "", dir);
    EXPECT_EQ(r.err.find("64-bit --dtype"), std::string::npos) << "the run is float64: " << r.err;
  }
  // 1e-300 is a double: the result is right, and its norm is printed as the number it is.
  scaled_state(dir, "small.h5", 1e-300);
  scaled_state(dir, "large.h5", 1e300);
  for (const char* f : {"small.h5", "large.h5"}) {
    const auto r = run_cli(dir, std::string("truncate ") + f + " -o t.h5 --chi 9 --force");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out.find("norm inf"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("norm 0,"), std::string::npos) << r.out;
    EXPECT_LT(relative_distance(dir, "t.h5:/result", f), 1e-12) << f;
  }
}

// --- names and config files -------------------------------------------------------------------

TEST(Robustness, LongOutputNamesFitOrAreRefusedBeforeAnyWork) {
  TempDir dir;
  make_inputs(dir);
  const std::string fits = std::string(247, 'n') + ".h5";  // 250 bytes
  auto r = run_cli(dir, "apply h.h5 psi.h5 -o " + fits + " --chi 4 --seed 1");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir / fits));
  const std::string too_long = std::string(253, 'n') + ".h5";  // 256 bytes
  r = run_cli(dir, "apply h.h5 psi.h5 -o " + too_long + " --chi 4 --seed 1");
  EXPECT_EQ(r.code, 4) << r.err;
  EXPECT_NE(r.err.find("the file name is 256 bytes, longer than its file system allows (255)"),
            std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("sweep"), std::string::npos);
  EXPECT_EQ(temp_files(dir), 0);
}

TEST(Robustness, ConfigFilesMustBeSmallRegularFiles) {
  TempDir dir;
  make_inputs(dir);
  ASSERT_EQ(::mkfifo((dir / "c.fifo").c_str(), 0600), 0);
  std::ofstream(dir / "big.cfg") << std::string(2 << 20, '#');
  std::ofstream(dir / "raw.cfg") << "chi = 4\n\x1b[31mevil\x01 = 2\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"c.fifo", "--config c.fifo: not a regular file (a FIFO)"},
      {"/dev/zero", "--config /dev/zero: not a regular file (a device)"},
      {"big.cfg", "--config big.cfg: 2097152 bytes; a config file is a few lines"},
      {"raw.cfg", "--config raw.cfg: not a text file (byte 8 is 0x1b)"}};
  for (const auto& [file, message] : cases) {
    const auto started = std::chrono::steady_clock::now();
    const auto r = run_cli(dir, "apply h.h5 psi.h5 -o out.h5 --config " + file, 20);
    EXPECT_EQ(r.code, 2) << file << ": " << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << "raw bytes reached the terminal";
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
  }
}

// A file name that is not UTF-8 still gives valid JSON (the byte as U+FFFD).
TEST(Robustness, JsonStaysValidForNamesThatAreNotUtf8) {
  TempDir dir;
  make_inputs(dir);
  const auto r = run_cli(dir, "apply h.h5 psi.h5 -o \"$(printf 'out\\377.h5')\" --chi 4 --seed 1 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"output\": \"out\\ufffd.h5\""), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find('\xff'), std::string::npos);
}

}  // namespace
}  // namespace srcc::test
