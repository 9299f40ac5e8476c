#include "cli_runner.hpp"

#include <hdf5.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "srcc/train/generate.hpp"

namespace srcc::test {

std::string binary() {
  const char* b = std::getenv("SRCC_BINARY");
  return b ? b : SRCC_BINARY;
}
std::string source_dir() {
  const char* s = std::getenv("SRCC_SOURCE_DIR");
  return s ? s : SRCC_SOURCE_DIR;
}

std::string test_data(const std::string& name) { return source_dir() + "/tests/data/" + name; }

std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

Result run_cli(const TempDir& dir, const std::string& args, int timeout_seconds) {
  const auto out = dir / "stdout.txt", err = dir / "stderr.txt";
  const std::string limit = timeout_seconds > 0 ? "timeout -k 5 " + std::to_string(timeout_seconds) + " " : "";
  const std::string cmd = "cd '" + dir.path().string() + "' && " + limit + "'" + binary() + "' " + args +
                          " >'" + out.string() + "' 2>'" + err.string() + "'";
  const int status = std::system(cmd.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
}

int temp_files(const TempDir& dir) {
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path()))
    if (e.path().filename().string().find(".tmp-") != std::string::npos) ++n;
  return n;
}

double json_number(const std::string& json, const std::string& key) {
  const auto at = json.find("\"" + key + "\": ");
  return at == std::string::npos ? std::nan("") : std::atof(json.c_str() + at + key.size() + 4);
}

double relative_distance(const TempDir& dir, const std::string& a, const std::string& b) {
  const auto r = run_cli(dir, "distance " + a + " " + b + " --json");
  EXPECT_EQ(r.code, 0) << r.err;
  return json_number(r.out, "relative_distance");
}

void expect_resident_below(long rss, double limit, const std::string& what) {
#ifndef SRCC_SANITIZED
  EXPECT_LT(static_cast<double>(rss), limit) << what << ": peak resident " << rss << " bytes";
#else
  (void)rss, (void)limit, (void)what;
#endif
}

void expect_clean_failure(const Result& r, int code, const std::string& message,
                          const TempDir& dir) {
  EXPECT_EQ(r.code, code) << r.err;
  EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "out.h5"));
  EXPECT_EQ(temp_files(dir), 0);
}

void make_large_inputs(const TempDir& dir) {
  ASSERT_EQ(run_cli(dir, "generate random-mps -o big_psi.h5 --sites 400 --bond 96 --seed 1 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "generate random-mpo -o big_h.h5 --sites 400 --bond 8 --seed 2 -q").code, 0);
}

void make_inputs(const TempDir& dir, std::size_t n) {
  const auto h = random_train<cdouble>(TrainKind::kMpo, n, 3, 2, 1);
  const auto p = random_train<cdouble>(TrainKind::kMps, n, 4, 2, 2);
  write_raw_train(dir / "h.h5", stored_train(h, false, "lrud", true, "/H"));
  write_raw_train(dir / "psi.h5", stored_train(p, true, "lpr", true, "/psi"));
}
std::vector<Row> read_transfers(const std::filesystem::path& file) {
  hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t d = H5Dopen2(f, "/log/transfers", H5P_DEFAULT);
  hid_t space = H5Dget_space(d);
  const auto n = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space));
  struct Raw {
    char* what;
    char* mechanism;
    char* source;
    char* target;
    long long site, bytes;
    double seconds;
  };
  hid_t str = H5Tcopy(H5T_C_S1);
  H5Tset_size(str, H5T_VARIABLE);
  H5Tset_cset(str, H5T_CSET_UTF8);
  hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(Raw));
  H5Tinsert(t, "what", offsetof(Raw, what), str);
  H5Tinsert(t, "mechanism", offsetof(Raw, mechanism), str);
  H5Tinsert(t, "site", offsetof(Raw, site), H5T_NATIVE_LLONG);
  H5Tinsert(t, "bytes", offsetof(Raw, bytes), H5T_NATIVE_LLONG);
  H5Tinsert(t, "source", offsetof(Raw, source), str);
  H5Tinsert(t, "target", offsetof(Raw, target), str);
  H5Tinsert(t, "seconds", offsetof(Raw, seconds), H5T_NATIVE_DOUBLE);
  std::vector<Raw> raw(n);
  H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, raw.data());
  std::vector<Row> rows;
  for (auto& r : raw) rows.push_back({r.what, r.mechanism, r.source, r.target, r.site, r.bytes, r.seconds});
  H5Dvlen_reclaim(t, space, H5P_DEFAULT, raw.data());
  H5Tclose(t);
  H5Tclose(str);
  H5Sclose(space);
  H5Dclose(d);
  H5Fclose(f);
  return rows;
}

std::pair<int, long> run_measured(const TempDir& dir, std::vector<std::string> args) {
  const pid_t pid = fork();
  if (pid == 0) {
    if (chdir(dir.path().c_str()) != 0) _exit(99);
    freopen("/dev/null", "w", stdout);
    freopen("/dev/null", "w", stderr);
    std::vector<char*> argv;
    const std::string bin = binary();
    argv.push_back(const_cast<char*>(bin.c_str()));
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(bin.c_str(), argv.data());
    _exit(98);
  }
  int status = 0;
  rusage ru{};
  wait4(pid, &status, 0, &ru);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, ru.ru_maxrss * 1024L};
}
}  // namespace srcc::test
