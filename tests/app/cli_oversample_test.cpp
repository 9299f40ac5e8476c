// --oversample is a real factor: the sketch really has s = max(⌈F·χ̄⌉, χ̄ + 10) columns (read
// back from /log/sites), and factors below 1 or that are not numbers are refused.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "../support/cli_runner.hpp"

namespace srcc::test {
namespace {

// The largest sketch_columns of /log/sites (bulk cuts reach the full sketch).
long long widest_sketch(const std::filesystem::path& file) {
  hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t d = H5Dopen2(f, "/log/sites", H5P_DEFAULT);
  hid_t space = H5Dget_space(d);
  const auto n = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space));
  hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(long long));
  H5Tinsert(t, "sketch_columns", 0, H5T_NATIVE_LLONG);
  std::vector<long long> cols(n, 0);
  H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, cols.data());
  H5Tclose(t);
  H5Sclose(space);
  H5Dclose(d);
  H5Fclose(f);
  return cols.empty() ? 0 : *std::max_element(cols.begin(), cols.end());
}

TEST(CliOversample, TheSketchHasTheDocumentedNumberOfColumns) {
  TempDir dir;
  // Bonds and length large enough that --chi 40 is not capped (largest bond 256).
  ASSERT_EQ(run_cli(dir, "generate random-mpo -o h.h5 --sites 20 --bond 16 --seed 1 -q").code, 0);
  ASSERT_EQ(run_cli(dir, "generate random-mps -o p.h5 --sites 20 --bond 16 --seed 2 -q").code, 0);
  const int chi = 40;
  for (const auto& [flag, factor] : std::vector<std::pair<std::string, double>>{
           {"--oversample", 1.5}, {"--oversample=3.7", 3.7}, {"--oversample=1", 1.0}}) {
    const auto r = run_cli(dir, "apply h.h5 p.h5 -o out.h5 --force --seed 3 --chi " + std::to_string(chi) + " " + flag);
    ASSERT_EQ(r.code, 0) << flag << ": " << r.err;
    const long long want = std::max<long long>(static_cast<long long>(std::ceil(factor * chi)), chi + 10);
    EXPECT_EQ(widest_sketch(dir / "out.h5"), want) << flag;
  }
  for (const char* bad : {"--oversample=0.5", "--oversample=abc", "--oversample=1e9"}) {
    const auto r = run_cli(dir, std::string("apply h.h5 p.h5 -o bad.h5 --chi 40 ") + bad);
    EXPECT_EQ(r.code, 2) << bad;
    EXPECT_NE(r.err.find("--oversample"), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace srcc::test
