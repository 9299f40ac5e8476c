// Sites stored with only their non-zero chunks (lib/srcc/io/h5/sparse_chunks.cpp): which chunks
// are live, against the non-zeros placed by hand; a charged train (zero outside its blocks)
// written through the result writer is stored chunked in a fraction of its dense size and reads
// back element for element equal — through our reader and through HDF5's own H5Dread — while a
// dense train stays contiguous, read directly from the file; an MPO in single precision too.
#include "srcc/io/h5/sparse_chunks.hpp"

#include <gtest/gtest.h>
#include <hdf5.h>

#include <algorithm>
#include <variant>

#include "../support/h5_fixture.hpp"
#include "../support/h5_read.hpp"
#include "../symmetric/charged_support.hpp"
#include "srcc/io/result_writer.hpp"
#include "srcc/io/train_reader.hpp"
#include "srcc/train/generate.hpp"

namespace srcc::test {
namespace {

TEST(SparseChunks, LiveChunksAreThoseHoldingANonZero) {
  // (l, r, p) = 40 × 33 × 2: chunks of 16 × 16 × 1, three by three by two of them.
  const std::vector<hsize_t> dims{40, 33, 2};
  std::vector<double> a(40 * 33 * 2, 0.0);
  auto at = [&](std::size_t l, std::size_t r, std::size_t p) -> double& { return a[(l * 33 + r) * 2 + p]; };
  at(0, 0, 0) = 1;     // chunk (0, 0, 0)
  at(17, 32, 1) = -2;  // chunk (1, 2, 1), at the edge of r
  at(39, 20, 0) = 3;   // chunk (2, 1, 0), at the edge of l
  const h5::ChunkGrid g = h5::chunk_grid(a.data(), dims, {true, true, false});
  EXPECT_EQ(g.chunk, (std::vector<hsize_t>{16, 16, 1}));
  EXPECT_EQ(g.counts, (std::vector<hsize_t>{3, 3, 2}));
  ASSERT_EQ(g.chunks(), 18u);
  EXPECT_EQ(g.live_chunks, 3u);
  auto live = [&](std::size_t i, std::size_t k, std::size_t p) { return g.live[(i * 3 + k) * 2 + p] != 0; };
  EXPECT_TRUE(live(0, 0, 0));
  EXPECT_TRUE(live(1, 2, 1));
  EXPECT_TRUE(live(2, 1, 0));
  EXPECT_FALSE(live(0, 0, 1));
  EXPECT_TRUE(h5::sparse_pays(g));
  EXPECT_TRUE(g.complete);
  // Dense: the scan stops once more than three quarters of the chunks are live.
  std::fill(a.begin(), a.end(), 0.5);
  const h5::ChunkGrid d = h5::chunk_grid(a.data(), dims, {true, true, false});
  EXPECT_FALSE(d.complete);
  EXPECT_EQ(d.live_chunks, 14u);
  EXPECT_FALSE(h5::sparse_pays(d));
}

// The layout and stored bytes of dataset `path`.
std::pair<H5D_layout_t, hsize_t> storage(const std::filesystem::path& file, const std::string& path) {
  hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t d = H5Dopen2(f, path.c_str(), H5P_DEFAULT);
  hid_t dcpl = H5Dget_create_plist(d);
  const auto out = std::pair{H5Pget_layout(dcpl), H5Dget_storage_size(d)};
  H5Pclose(dcpl);
  H5Dclose(d);
  H5Fclose(f);
  return out;
}

template <class T> class SparseSites : public ::testing::Test {};
using Scalars = ::testing::Types<double, cdouble>;
TYPED_TEST_SUITE(SparseSites, Scalars);

TYPED_TEST(SparseSites, AChargedTrainIsStoredInAboutItsBlocksAndReadsBackExactly) {
  using T = TypeParam;
  TempDir dir;
  const auto file = dir / "out.h5";
  const std::size_t n = 20;
  // Bonds up to 150 in the middle (not a multiple of the chunk edge), sites zero outside their blocks.
  const std::vector<Tensor<T>> charged = charged::random_charged<T>(n, 150, 0, 11);
  const std::vector<Tensor<T>> dense = random_train<T>(TrainKind::kMps, n, 150, 2, 12);
  {
    ResultWriter out(file.string(), false);
    TransferLog log;
    out.write_train("/charged", TrainKind::kMps, charged, log, "site");
    out.write_train("/dense", TrainKind::kMps, dense, log, "site");
    out.commit();
  }
  std::size_t sparse_sites = 0;
  for (std::size_t j = 0; j < n; ++j) {
    SCOPED_TRACE(j);
    const std::string path = "/charged/" + std::to_string(j);
    const auto [layout, stored] = storage(file, path);
    const std::size_t bytes = charged[j].bytes();
    if (charged[j].size() >= h5::kSparseMinElements) {
      EXPECT_EQ(layout, H5D_CHUNKED);
      EXPECT_LT(stored, bytes * 6 / 10) << "the live chunks only";
      ++sparse_sites;
    }
    // HDF5's own reading (the chunks never written are zeros) equals the site, element for element.
    const std::vector<cdouble> h5 = read_numbers(file, path);
    ASSERT_EQ(h5.size(), charged[j].size());
    for (std::size_t i = 0; i < h5.size(); ++i) ASSERT_EQ(h5[i], cdouble(charged[j].data[i])) << i;
    EXPECT_EQ(storage(file, "/dense/" + std::to_string(j)).first, H5D_CONTIGUOUS) << "a dense site stays contiguous";
  }
  ASSERT_GE(sparse_sites, 2u) << "the test must store some sites sparse";
  // Our reader: the same values.
  TrainReader reader({file.string(), "/charged"});
  TransferLog log;
  for (std::size_t j = 0; j < n; ++j) {
    const auto got = std::get<Tensor<T>>(reader.read_site(j, log));
    ASSERT_EQ(got.data.size(), charged[j].data.size());
    EXPECT_EQ(got.data, charged[j].data) << j;
  }
}

// An MPO (four axes: chunks of 16 × 16 × 1 × 1) in single precision, zero outside a pattern of
// 20 × 20 blocks: stored sparse and read back exactly both ways.
TEST(SparseSites, AnMpoInSinglePrecisionReadsBackExactly) {
  using T = std::complex<float>;
  TempDir dir;
  const auto file = dir / "mpo.h5";
  std::vector<Tensor<T>> w = random_train<T>(TrainKind::kMpo, 3, 100, 2, 21);
  for (auto& site : w) {
    const auto& sh = site.shape;
    std::size_t e = 0;
    for (std::size_t l = 0; l < sh[0]; ++l)
      for (std::size_t r = 0; r < sh[1]; ++r)
        for (std::size_t u = 0; u < sh[2]; ++u)
          for (std::size_t d = 0; d < sh[3]; ++d, ++e)
            if ((l / 20 + r / 20 + u + d) % 3 != 0) site.data[e] = T(0);
  }
  ASSERT_GE(w[1].size(), h5::kSparseMinElements);
  {
    ResultWriter out(file.string(), false);
    TransferLog log;
    out.write_train("/w", TrainKind::kMpo, w, log, "site");
    out.commit();
  }
  const auto [layout, stored] = storage(file, "/w/1");
  EXPECT_EQ(layout, H5D_CHUNKED);
  EXPECT_LT(stored, w[1].bytes() * 8 / 10);
  const std::vector<cdouble> h5 = read_numbers(file, "/w/1");
  ASSERT_EQ(h5.size(), w[1].size());
  for (std::size_t i = 0; i < h5.size(); ++i) ASSERT_EQ(h5[i], cdouble(w[1].data[i])) << i;
  TrainReader reader({file.string(), "/w"});
  TransferLog log;
  for (std::size_t j = 0; j < w.size(); ++j) EXPECT_EQ(std::get<Tensor<T>>(reader.read_site(j, log)).data, w[j].data) << j;
}

}  // namespace
}  // namespace srcc::test
