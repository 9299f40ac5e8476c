// Sites read from files on demand (lib/srcc/io/file_site_source.cpp): each site of every train of
// a stack in the working type, the same whether read in order, again, or out of order (the
// read-ahead is a guess, never a constraint), with its reads in the transfer log.
#include "srcc/io/file_site_source.hpp"

#include <gtest/gtest.h>

#include "../support/h5_fixture.hpp"
#include "../support/h5_read.hpp"
#include "srcc/session/write_example.hpp"

namespace srcc::test {
namespace {

// A random MPO (bond 2) and MPS (bond 3) of six sites in files of their own, their cores as
// written, and the two opened as one stack.
struct TwoTrains {
  explicit TwoTrains(std::uint64_t seed) {
    auto write = [&](Example kind, std::size_t bond, std::uint64_t s, const char* name) {
      return write_example({.example = {.example = kind, .sites = 6, .bond = bond, .seed = s},
                            .output = {(dir / name).string(), ""}});
    };
    const TrainRef h = write(Example::kRandomMpo, 2, seed, "h.h5"), psi = write(Example::kRandomMps, 3, seed + 1, "psi.h5");
    want_h = read_cores(h.file, h.group);
    want_psi = read_cores(psi.file, psi.group);
    readers = open_trains({h, psi});
  }
  TempDir dir;
  std::vector<Tensor<cdouble>> want_h, want_psi;
  std::vector<TrainReader> readers;
};

TEST(FileSiteSource, EverySiteInTheWorkingTypeInAnyOrder) {
  TwoTrains t(1);
  TransferLog log;
  FileSiteSource<cdouble> source(t.readers, log);  // float64 files, complex working type
  for (std::size_t j : {0u, 1u, 2u, 2u, 5u, 3u, 0u}) {
    const auto sites = source.site(j);
    ASSERT_EQ(sites.size(), 2u);
    EXPECT_EQ(sites[0].data, t.want_h[j].data) << j;
    EXPECT_EQ(sites[1].data, t.want_psi[j].data) << j;
  }
  EXPECT_GT(log.size(), 0u) << "the reads and conversions are logged";
}

// The sites as the files store them (what a charged run's stack reads, with the next one read
// ahead): the same in order, again, out of order and between dense reads.
TEST(FileSiteSource, StoredSitesAreTheSitesInAnyOrder) {
  TwoTrains t(3);
  TransferLog log;
  FileSiteSource<cdouble> source(t.readers, log);
  for (std::size_t j : {0u, 1u, 2u, 3u, 3u, 5u, 1u, 4u, 5u}) {
    const auto stored = source.stored_site(j);
    ASSERT_EQ(stored.size(), 2u);
    ASSERT_TRUE(std::holds_alternative<Tensor<cdouble>>(stored[0])) << "a dense file's site is a tensor";
    EXPECT_EQ(std::get<Tensor<cdouble>>(stored[0]).data, t.want_h[j].data) << j;
    EXPECT_EQ(std::get<Tensor<cdouble>>(stored[1]).data, t.want_psi[j].data) << j;
    if (j == 3) EXPECT_EQ(source.site(2)[1].data, t.want_psi[2].data) << "a dense read between stored ones";
  }
}

}  // namespace
}  // namespace srcc::test
