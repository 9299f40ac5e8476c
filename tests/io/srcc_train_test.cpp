// Our own trains' reader (lib/srcc/io/srcc/srcc_train.cpp): plainly stored sites read with one
// pread at the offset HDF5 reported, equal to what HDF5 reads where it must (big-endian,
// chunked), with a user block before the data; a file cut short after it was described named,
// never read as garbage.
#include "srcc/io/srcc/srcc_train.hpp"

#include <gtest/gtest.h>
#include <hdf5.h>

#include <algorithm>
#include <filesystem>
#include <variant>

#include "../support/h5_fixture.hpp"
#include "srcc/core/error.hpp"
#include "srcc/io/train_reader.hpp"
#include "srcc/train/generate.hpp"

namespace srcc::test {
namespace {

std::vector<Tensor<cdouble>> cores(TrainKind kind, std::size_t n, std::size_t bond, std::size_t phys,
                                   std::uint64_t seed) {
  return random_train<cdouble>(kind, n, bond, phys, seed);
}

// A real MPS (l, r, p) = site-dependent shapes written with the HDF5 API directly: `file_type`
// the stored element type, `chunked` chunked storage, `userblock` bytes before the HDF5 data.
void write_real_mps(const std::filesystem::path& file, const std::vector<Tensor<cdouble>>& sites,
                    hid_t file_type, bool chunked, hsize_t userblock) {
  hid_t fcpl = H5Pcreate(H5P_FILE_CREATE);
  if (userblock > 0) H5Pset_userblock(fcpl, userblock);
  hid_t f = H5Fcreate(file.c_str(), H5F_ACC_TRUNC, fcpl, H5P_DEFAULT);
  hid_t g = mps_group(f);
  for (std::size_t j = 0; j < sites.size(); ++j) {
    std::vector<hsize_t> dims(sites[j].shape.begin(), sites[j].shape.end());
    hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    // Chunks of half each axis (rounded up): several a site, those at the far edges partial.
    std::vector<hsize_t> chunk;
    for (hsize_t d : dims) chunk.push_back(std::max<hsize_t>(1, (d + 1) / 2));
    if (chunked) H5Pset_chunk(dcpl, static_cast<int>(dims.size()), chunk.data());
    hid_t d = H5Dcreate2(g, std::to_string(j).c_str(), file_type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    std::vector<double> values;
    for (const auto& v : sites[j].data) values.push_back(v.real());
    H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
    H5Dclose(d);
    H5Pclose(dcpl);
    H5Sclose(space);
  }
  H5Gclose(g);
  H5Fclose(f);
  H5Pclose(fcpl);
}

TEST(SrccTrain, DirectReadsAndHdf5ReadsAgree) {
  TempDir dir;
  auto sites = cores(TrainKind::kMps, 4, 3, 2, 8);
  for (auto& s : sites) {
    for (auto& v : s.data) v = cdouble(v.real(), 0.0);
    s.shape = {s.shape[kLegL], s.shape[kLegR], s.shape[kLegU]};  // stored as (l, r, p)
  }
  struct Case {
    const char* name;
    hid_t type;
    bool chunked;
    hsize_t userblock;
    bool direct;
  };
  for (const Case& c : {Case{"plain", H5T_IEEE_F64LE, false, 0, true},
                        Case{"big-endian", H5T_IEEE_F64BE, false, 0, false},
                        Case{"chunked", H5T_IEEE_F64LE, true, 0, false},
                        Case{"user block", H5T_IEEE_F64LE, false, 512, true},
                        // Chunked: read in runs of chunks with pread where the file allows,
                        // through HDF5 a chunk at a time behind a user block.
                        Case{"chunked, user block", H5T_IEEE_F64LE, true, 512, false}}) {
    SCOPED_TRACE(c.name);
    const auto file = dir / (std::string(c.name) + ".h5");
    write_real_mps(file, sites, c.type, c.chunked, c.userblock);
    const auto info = open_trains({{file.string(), "/psi"}}).front().info();
    ASSERT_EQ(info.raw_offsets.size(), sites.size());
    for (auto at : info.raw_offsets) EXPECT_EQ(at >= 0, c.direct);
    TrainReader reader({file.string(), "/psi"});
    TransferLog log;
    for (std::size_t j = 0; j < sites.size(); ++j) {
      const auto got = std::get<Tensor<double>>(reader.read_site(j, log));
      ASSERT_EQ(got.shape, sites[j].shape);
      for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got.data[i], sites[j].data[i].real());
    }
  }
}

// A file cut short after it was described: the direct read names the dataset, it does not
// return garbage.
TEST(SrccTrain, AFileCutShortUnderADirectRead) {
  TempDir dir;
  const auto file = dir / "cut.h5";
  write_raw_train(file, stored_train(cores(TrainKind::kMps, 3, 4, 2, 5), true, "lrp", true, "/psi"));
  TrainReader reader({file.string(), "/psi"});
  ASSERT_GE(reader.info().raw_offsets.back(), 0);
  std::filesystem::resize_file(file, static_cast<std::uintmax_t>(reader.info().raw_offsets.back()) + 8);
  TransferLog log;
  try {
    (void)reader.read_site(2, log);
    ADD_FAILURE() << "read past the end";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(file.string() + ":/psi/2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("the file ends inside its data"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace srcc::test
