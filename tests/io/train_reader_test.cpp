// Tests of reading trains through the facade (lib/srcc/io/train_reader.cpp) and of site layouts
// (lib/srcc/train/site_loader.cpp); our format's direct reads are in srcc_train_test.
#include "srcc/io/train_reader.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <variant>

#include <hdf5.h>

#include "../support/h5_fixture.hpp"
#include "srcc/core/error.hpp"
#include "srcc/train/generate.hpp"
#include "srcc/train/site_loader.hpp"

namespace srcc::test {
namespace {

std::vector<Tensor<cdouble>> cores(TrainKind kind, std::size_t n, std::size_t bond, std::size_t phys,
                                   std::uint64_t seed) {
  return random_train<cdouble>(kind, n, bond, phys, seed);
}

template <class T = cdouble>
std::vector<Tensor<T>> read_all(const TrainRef& ref, TransferLog& log) {
  TrainReader reader(ref);
  std::vector<Tensor<T>> out;
  for (std::size_t j = 0; j < reader.info().length(); ++j)
    out.push_back(to_internal<T>(reader.read_site(j, log), reader.info(), j, log));
  return out;
}

void expect_same(const std::vector<Tensor<cdouble>>& a, const std::vector<Tensor<cdouble>>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t j = 0; j < a.size(); ++j) {
    EXPECT_EQ(a[j].shape, b[j].shape) << "site " << j;
    EXPECT_EQ(a[j].data, b[j].data) << "site " << j;
  }
}

// Expects `f` to throw E with every fragment in its message.
template <class E, class F> void expect_error(F&& f, const std::vector<std::string>& fragments) {
  try {
    f();
    ADD_FAILURE() << "no exception";
  } catch (const E& e) {
    for (const auto& frag : fragments)
      EXPECT_NE(std::string(e.what()).find(frag), std::string::npos)
          << "message '" << e.what() << "' lacks '" << frag << "'";
  }
}

TEST(TrainReader, EveryMpsLayoutPermutationReadsTheSameTrain) {
  TempDir dir;
  const auto want = cores(TrainKind::kMps, 5, 3, 2, 1);
  std::string layout = "lpr";
  std::sort(layout.begin(), layout.end());
  int count = 0;
  do {
    for (bool drop : {true, false}) {
      const auto file = dir / (layout + (drop ? "_drop" : "_keep") + ".h5");
      write_raw_train(file, stored_train(want, true, layout, drop, "/psi"));
      TransferLog log;
      SCOPED_TRACE(layout + (drop ? " dropped" : " kept"));
      expect_same(read_all({file.string(), "/psi"}, log), want);
      ++count;
    }
  } while (std::next_permutation(layout.begin(), layout.end()));
  EXPECT_EQ(count, 12);
}

TEST(TrainReader, EveryMpoLayoutPermutationReadsTheSameTrain) {
  TempDir dir;
  const auto want = cores(TrainKind::kMpo, 4, 2, 3, 2);
  std::string layout = "dlru";
  int count = 0;
  do {
    const bool drop = count % 2 == 0;
    const auto file = dir / (layout + ".h5");
    write_raw_train(file, stored_train(want, false, layout, drop, "/H"));
    TransferLog log;
    SCOPED_TRACE(layout);
    expect_same(read_all({file.string(), ""}, log), want);  // the only train: no group needed
    ++count;
  } while (std::next_permutation(layout.begin(), layout.end()));
  EXPECT_EQ(count, 24);
}

TEST(TrainReader, BothComplexEncodingsAndSinglePrecision) {
  TempDir dir;
  const auto want = cores(TrainKind::kMps, 4, 2, 2, 3);
  for (auto [dt, re, im] : std::vector<std::tuple<DType, std::string, std::string>>{
           {DType::kComplex128, "r", "i"},
           {DType::kComplex128, "real", "imag"},
           {DType::kComplex64, "r", "i"},
           {DType::kComplex64, "real", "imag"}}) {
    auto raw = stored_train(want, true, "lrp", true, "/psi");
    raw.dtype = dt;
    raw.re = re;
    raw.im = im;
    const auto file = dir / (std::string(dtype_name(dt)) + re + ".h5");
    write_raw_train(file, raw);
    TrainReader reader({file.string(), "/psi"});
    EXPECT_EQ(reader.info().dtype(), dt);
    TransferLog log;
    const auto got = read_all({file.string(), "/psi"}, log);
    for (std::size_t j = 0; j < want.size(); ++j)
      for (std::size_t i = 0; i < want[j].size(); ++i)
        EXPECT_NEAR(std::abs(got[j].data[i] - want[j].data[i]), 0.0,
                    dt == DType::kComplex64 ? 1e-7 : 0.0);
  }
}

TEST(TrainReader, TransferLogRecordsReadThenStaysInPlaceOrConversion) {
  TempDir dir;
  const auto want = cores(TrainKind::kMps, 3, 2, 2, 4);
  write_raw_train(dir / "a.h5", stored_train(want, true, "lrp", true, "/psi"));  // complex128
  TransferLog log;
  read_all({(dir / "a.h5").string(), "/psi"}, log);
  auto rows = log.records();
  ASSERT_EQ(rows.size(), 6u);
  for (std::size_t j = 0; j < 3; ++j) {
    EXPECT_EQ(rows[2 * j].mechanism, "file read");
    EXPECT_EQ(rows[2 * j].site, static_cast<std::int64_t>(j));
    EXPECT_EQ(rows[2 * j].bytes, static_cast<std::int64_t>(want[j].bytes()));
    EXPECT_EQ(rows[2 * j].source, (dir / "a.h5").string().insert(0, "file:") + ":/psi/" + std::to_string(j));
    EXPECT_EQ(rows[2 * j + 1].mechanism, "stays in place");
    EXPECT_EQ(rows[2 * j + 1].bytes, 0);
  }
  // Physics order: a permutation per site (except where only size-1 legs move).
  write_raw_train(dir / "b.h5", stored_train(want, true, "lpr", true, "/psi"));
  TransferLog log2;
  read_all({(dir / "b.h5").string(), "/psi"}, log2);
  rows = log2.records();
  ASSERT_EQ(rows.size(), 6u);
  EXPECT_EQ(rows[1].mechanism, "host copy");  // site 0 stored (p, r): a real transposition
  EXPECT_EQ(rows[3].mechanism, "host copy");
  EXPECT_NE(rows[3].declined.find("layout 'lpr'"), std::string::npos);
  EXPECT_EQ(rows[3].bytes, static_cast<std::int64_t>(want[1].bytes()));
  EXPECT_EQ(rows[5].mechanism, "stays in place");  // site 2 stored (l, p) → (l, 1, p, 1): reshape
  // A cast to another working type is a host copy that says why it could not stay in place.
  TransferLog log3;
  auto raw = stored_train(want, true, "lrp", true, "/psi");
  raw.dtype = DType::kFloat64;
  write_raw_train(dir / "c.h5", raw);
  read_all<cdouble>({(dir / "c.h5").string(), "/psi"}, log3);
  rows = log3.records();
  EXPECT_EQ(rows[1].mechanism, "host copy");
  EXPECT_EQ(rows[1].declined, "stays in place: dtype float64 != complex128");
  EXPECT_EQ(rows[1].dtype_from, "float64");
  EXPECT_EQ(rows[1].dtype_to, "complex128");
}

TEST(TrainReader, DescribesWithoutReadingData) {
  // Bond 5e7: the site datasets would hold 2e8 elements (3.2 GB) but are never written; the
  // description must come from metadata only, and one small site can still be read.
  TempDir dir;
  const auto file = dir / "lazy.h5";
  {
    hid_t f = H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t g = mps_group(f);
    const hsize_t big = 50'000'000;
    const hsize_t shapes[3][3] = {{big, 2, 0}, {big, 1, 2}, {1, 2, 0}};  // (r,p) (l,r,p) (l,p)
    const int ranks[3] = {2, 3, 2};
    for (int j = 0; j < 3; ++j) {
      hid_t space = H5Screate_simple(ranks[j], shapes[j], nullptr);
      hid_t plist = H5Pcreate(H5P_DATASET_CREATE);
      hsize_t chunk[3] = {1, 1, 1};
      H5Pset_chunk(plist, ranks[j], chunk);
      hid_t d = H5Dcreate2(g, std::to_string(j).c_str(), H5T_IEEE_F64LE, space, H5P_DEFAULT, plist,
                           H5P_DEFAULT);
      H5Dclose(d);
      H5Pclose(plist);
      H5Sclose(space);
    }
    H5Gclose(g);
    H5Fclose(f);
  }
  EXPECT_LT(std::filesystem::file_size(file), 1u << 20);
  TrainReader reader({file.string(), "/psi"});
  EXPECT_EQ(reader.info().dims[0][kLegR], 50'000'000u);
  EXPECT_EQ(reader.info().max_bond(), 50'000'000u);
  TransferLog log;
  // The last site is (l = 1, p = 2) here: readable alone, the rest never touched.
  const auto site = reader.read_site(2, log);
  EXPECT_EQ(any_shape(site), (Shape{1, 2}));
  EXPECT_EQ(log.records().size(), 1u);
}

// Sites whose stored bytes are the working type's are read with one pread at the offset HDF5
// gave (behind a user block too: the offset counts it); every other storage goes through HDF5
// and reads the same values.
// ---------------------------------------------------------------- user-visible errors ----

TEST(TrainReaderErrors, MissingFile) {
  expect_error<InputError>([] { TrainReader r({"/nonexistent/x.h5", ""}); },
                           {"/nonexistent/x.h5", "no such file"});
}

TEST(TrainReaderErrors, NotHdf5) {
  TempDir dir;
  const auto file = dir / "text.h5";
  std::FILE* f = std::fopen(file.c_str(), "w");
  std::fputs("hello", f);
  std::fclose(f);
  expect_error<InputError>([&] { TrainReader r({file.string(), ""}); }, {"not an HDF5 file"});
}

TEST(TrainReaderErrors, MissingGroup) {
  TempDir dir;
  write_raw_train(dir / "a.h5", stored_train(cores(TrainKind::kMps, 3, 2, 2, 1), true, "lrp", true, "/psi"));
  expect_error<InputError>([&] { TrainReader r({(dir / "a.h5").string(), "/phi"}); },
                           {"a.h5:/phi", "no such group"});
}

TEST(TrainReaderErrors, SeveralTrainsNeedAGroup) {
  TempDir dir;
  const auto c = cores(TrainKind::kMps, 3, 2, 2, 1);
  write_raw_train(dir / "a.h5", stored_train(c, true, "lrp", true, "/psi"));
  write_raw_train(dir / "a.h5", stored_train(c, true, "lrp", true, "/phi"));
  expect_error<InputError>([&] { TrainReader r({(dir / "a.h5").string(), ""}); },
                           {"holds 2 trains", "/phi", "/psi"});
  EXPECT_EQ(list_trains((dir / "a.h5").string()).size(), 2u);
}

TEST(TrainReaderErrors, MissingTypeAndBadType) {
  TempDir dir;
  auto raw = stored_train(cores(TrainKind::kMps, 3, 2, 2, 1), true, "lrp", true, "/psi");
  raw.type.reset();
  write_raw_train(dir / "a.h5", raw);
  expect_error<InputError>([&] { TrainReader r({(dir / "a.h5").string(), "/psi"}); },
                           {"a.h5:/psi", "missing attribute 'type'"});
  raw.type = "PEPS";
  write_raw_train(dir / "b.h5", raw);
  expect_error<InputError>([&] { TrainReader r({(dir / "b.h5").string(), "/psi"}); },
                           {"'PEPS'", "expected MPS or MPO"});
}

TEST(TrainReaderErrors, UnknownLayoutLetter) {
  TempDir dir;
  auto raw = stored_train(cores(TrainKind::kMps, 3, 2, 2, 1), true, "lrp", true, "/psi");
  raw.layout = "lrx";
  write_raw_train(dir / "a.h5", raw);
  expect_error<InputError>([&] { TrainReader r({(dir / "a.h5").string(), "/psi"}); },
                           {"a.h5:/psi", "layout 'lrx'", "permutation of 'lrp'"});
}

TEST(TrainReaderErrors, WrongRank) {
  TempDir dir;
  auto raw = stored_train(cores(TrainKind::kMps, 3, 2, 2, 1), true, "lrp", true, "/psi");
  raw.sites[1].shape = {2, 2, 2, 1};  // rank 4 for an MPS
  write_raw_train(dir / "a.h5", raw);
  expect_error<InputError>([&] { TrainReader r({(dir / "a.h5").string(), "/psi"}); },
                           {"a.h5:/psi/1", "rank 4", "expected 3"});
}

TEST(TrainReaderErrors, MissingDatasetAndLengthMismatch) {
  TempDir dir;
  auto raw = stored_train(cores(TrainKind::kMps, 3, 2, 2, 1), true, "lrp", true, "/psi");
  raw.names = {"0", "2", "3"};
  write_raw_train(dir / "a.h5", raw);
  expect_error<InputError>([&] { TrainReader r({(dir / "a.h5").string(), "/psi"}); },
                           {"a.h5:/psi", "dataset \"1\" is missing"});
  auto raw2 = stored_train(cores(TrainKind::kMps, 3, 2, 2, 1), true, "lrp", true, "/psi");
  raw2.length = 4;
  write_raw_train(dir / "b.h5", raw2);
  expect_error<InputError>([&] { TrainReader r({(dir / "b.h5").string(), "/psi"}); },
                           {"'length' is 4", "3 site datasets", "missing dataset \"3\""});
}

TEST(TrainReaderErrors, BondMismatchBetweenNeighbours) {
  TempDir dir;
  auto c = cores(TrainKind::kMps, 3, 2, 2, 1);
  c[2] = Tensor<cdouble>({3, 1, 2, 1});  // left bond 3 after a right bond 2
  write_raw_train(dir / "a.h5", stored_train(c, true, "lrp", true, "/psi"));
  TrainReader r({(dir / "a.h5").string(), "/psi"});
  Stack s{{r.info()}};
  expect_error<InputError>([&] { validate_stack(s); },
                           {"a.h5:/psi/2", "left bond 3", "right bond 2 of site 1"});
}

TEST(TrainReaderErrors, NonFiniteValueNamesTheIndex) {
  TempDir dir;
  auto c = cores(TrainKind::kMps, 3, 2, 2, 1);
  c[1].data[3] = cdouble(std::numeric_limits<double>::quiet_NaN(), 0);
  write_raw_train(dir / "a.h5", stored_train(c, true, "lrp", true, "/psi"));
  TrainReader r({(dir / "a.h5").string(), "/psi"});
  TransferLog log;
  expect_error<InputError>([&] { r.read_site(1, log); },
                           {"a.h5:/psi/1", "non-finite", "(0, 1, 1)"});
}

TEST(TrainReaderErrors, StackedTrainsMustAgreeOnPhysicalLegs) {
  TempDir dir;
  write_raw_train(dir / "h.h5", stored_train(cores(TrainKind::kMpo, 3, 2, 3, 1), false, "lrud", true, "/H"));
  write_raw_train(dir / "p.h5", stored_train(cores(TrainKind::kMps, 3, 2, 2, 1), true, "lrp", true, "/psi"));
  TrainReader h({(dir / "h.h5").string(), "/H"}), p({(dir / "p.h5").string(), "/psi"});
  expect_error<InputError>([&] { validate_stack(Stack{{h.info(), p.info()}}); },
                           {"h.h5:/H/0", "down (input) leg has size 3", "p.h5:/psi/0", "physical leg of size 2"});
  expect_error<InputError>([&] { validate_stack(Stack{{p.info(), h.info()}}); },
                           {"an MPS can only be the last"});
  write_raw_train(dir / "short.h5", stored_train(cores(TrainKind::kMps, 4, 2, 3, 1), true, "lrp", true, "/psi"));
  TrainReader s4({(dir / "short.h5").string(), "/psi"});
  expect_error<InputError>([&] { validate_stack(Stack{{h.info(), s4.info()}}); },
                           {"has 4 sites", "has 3"});
}

TEST(TrainReaderErrors, ComplexDataIsNotSilentlyMadeReal) {
  TempDir dir;
  write_raw_train(dir / "a.h5", stored_train(cores(TrainKind::kMps, 3, 2, 2, 1), true, "lrp", true, "/psi"));
  TransferLog log;
  expect_error<UsageError>([&] { read_all<double>({(dir / "a.h5").string(), "/psi"}, log); },
                           {"a.h5:/psi/0", "imaginary part would be lost"});
}

}  // namespace
}  // namespace srcc::test
