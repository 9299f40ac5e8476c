// The library's xtensor interface: products of arrays equal the dense contraction, trains go to
// a file and back unchanged, views share memory, and arrays that do not fit are refused.
#include "srcc/session/xtensor_trains.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "srcc/core/error.hpp"
#include "srcc/train/generate.hpp"
#include "support/dense.hpp"
#include "support/stacks.hpp"

namespace srcc {
namespace {

using test::DenseTrain;

// Internal (l, r, u, d) cores as arrays, an MPS without its d = 1.
XTrain<double> arrays(TrainKind kind, const std::vector<Tensor<double>>& cores) {
  XTrain<double> out;
  for (const auto& c : cores) {
    xt::xarray<double> a = view_of(c);
    if (kind == TrainKind::kMps) a.reshape({c.shape[0], c.shape[1], c.shape[2]});
    out.push_back(a);
  }
  return out;
}
std::vector<Tensor<double>> cores_of(const XTrain<double>& train) {
  std::vector<Tensor<double>> out;
  for (const auto& a : train) {
    Tensor<double> t = tensor_of<double>(a);
    if (t.rank() == 3) t.shape.push_back(1);
    out.push_back(std::move(t));
  }
  return out;
}

TEST(XtensorTrains, AProductAtFullRankIsTheDenseProduct) {
  const auto h = random_train<double>(TrainKind::kMpo, 6, 3, 2, 11);
  const auto psi = random_train<double>(TrainKind::kMps, 6, 4, 2, 12);
  SweepOptions o;
  o.chi = 12;  // 3·4: every cut's full rank
  o.seed = 5;
  const XTrain<double> out = apply_xtrains<double>({arrays(TrainKind::kMpo, h)}, arrays(TrainKind::kMps, psi), o);
  ASSERT_EQ(out.size(), 6u);
  EXPECT_EQ(out[0].dimension(), 3u);
  const DenseTrain ref = test::dense_product({test::dense_train(h), test::dense_train(psi)});
  EXPECT_LT(test::relative_error(test::dense_train(cores_of(out)).v, ref.v), 1e-12);
}

// Planned as apply plans: under a host budget too small for every environment the sweep spills
// to the scratch directory and gives the same result; one too small for a step is refused.
TEST(XtensorTrains, AProductKeepsItsBudgetAndSpillsToScratch) {
  const auto h = random_train<double>(TrainKind::kMpo, 40, 8, 2, 21);
  const auto psi = random_train<double>(TrainKind::kMps, 40, 64, 2, 22);
  SweepOptions o;
  o.chi = 64;
  o.seed = 5;
  const auto ops = std::vector<XTrain<double>>{arrays(TrainKind::kMpo, h)};
  const XTrain<double> free = apply_xtrains<double>(ops, arrays(TrainKind::kMps, psi), o);
  const auto scratch = std::filesystem::temp_directory_path() / ("srcc-xtensor-" + std::to_string(::getpid()));
  std::filesystem::create_directories(scratch);
  Execution tight;
  tight.threads = 1;
  tight.host_memory = (48u << 20) + (4u << 20);  // the process allowance and 4 MiB: not every environment
  tight.scratch_dir = scratch.string();
  const XTrain<double> spilled = apply_xtrains<double>(ops, arrays(TrainKind::kMps, psi), o, tight);
  ASSERT_EQ(spilled.size(), free.size());
  // The same train (the cores' gauge may differ by rounding where singular values are close).
  test::CpuOps<double> ops_cpu;
  EXPECT_LT(ops_cpu.relative_distance(cores_of(spilled), cores_of(free)), 1e-10);
  EXPECT_TRUE(std::filesystem::is_empty(scratch)) << "the run's scratch directory is removed";
  tight.host_memory = (48u << 20) + 1024;
  EXPECT_THROW(apply_xtrains<double>(ops, arrays(TrainKind::kMps, psi), o, tight), ResourceError);
  std::filesystem::remove_all(scratch);
}

TEST(XtensorTrains, ACompressionMeetsTheExactTruncationBound) {
  const auto psi = random_train<double>(TrainKind::kMps, 8, 10, 2, 3);
  SweepOptions o;
  o.chi = 4;
  o.seed = 9;
  o.oversample = 3;  // near-optimal: within a small factor of the best rank-4 error
  const XTrain<double> out = apply_xtrains<double>({}, arrays(TrainKind::kMps, psi), o);
  for (const auto& a : out) EXPECT_LE(std::max(a.shape()[0], a.shape()[1]), 4u);
  const DenseTrain ref = test::dense_train(psi);
  const double err = test::relative_error(test::dense_train(cores_of(out)).v, ref.v);
  // No train of bond 4 is closer than the best cut's truncation; oversampled SRC lands within a
  // small factor of the exact SVD sweep.
  EXPECT_GE(err, test::best_truncation_bound(ref, 4) * (1 - 1e-9));
  EXPECT_LT(err, 1.5 * test::svd_sweep_error(ref, 4));
}

TEST(XtensorTrains, AWrittenTrainReadsBackUnchanged) {
  const auto path = std::filesystem::temp_directory_path() / "srcc_xtensor_roundtrip.h5";
  std::filesystem::remove(path);
  const XTrain<double> h = arrays(TrainKind::kMpo, random_train<double>(TrainKind::kMpo, 5, 3, 2, 4));
  write_xtrain(path.string(), h, "/H");
  EXPECT_THROW(write_xtrain(path.string(), h, "/H"), OutputError);  // no clobbering without force
  TrainKind kind = TrainKind::kMps;
  const XTrain<double> back = read_xtrain<double>(path.string(), "/H", &kind);
  EXPECT_EQ(kind, TrainKind::kMpo);
  ASSERT_EQ(back.size(), h.size());
  for (std::size_t j = 0; j < h.size(); ++j) EXPECT_EQ(back[j], h[j]) << "site " << j;
  // The same file read in complex arithmetic; never a complex file as real numbers.
  const auto as_complex = read_xtrain<cdouble>(path.string(), "/H");
  EXPECT_EQ(as_complex[2](1, 0, 1, 0).real(), h[2](1, 0, 1, 0));
  std::filesystem::remove(path);
}

TEST(XtensorTrains, AViewSharesTheTensorsMemory) {
  Tensor<double> t({2, 3});
  auto v = view_of(t);
  v(1, 2) = 7.5;
  EXPECT_EQ(t.data[5], 7.5);
  EXPECT_EQ(tensor_of<double>(v).data, t.data);
}

TEST(XtensorTrains, ArraysThatDoNotFitAreRefusedByName) {
  SweepOptions o;
  o.chi = 4;
  XTrain<double> psi = arrays(TrainKind::kMps, random_train<double>(TrainKind::kMps, 4, 2, 2, 1));
  XTrain<double> bad_rank = psi;
  bad_rank[1] = xt::zeros<double>({2, 2, 2, 1, 1});
  EXPECT_THROW(apply_xtrains<double>({}, bad_rank, o), InputError);
  XTrain<double> bad_bond = psi;
  bad_bond[2] = xt::zeros<double>({3, 2, 2});
  try {
    apply_xtrains<double>({}, bad_bond, o);
    FAIL() << "a bond mismatch was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/layer0"), std::string::npos) << e.what();
  }
  XTrain<double> nan = psi;
  nan[0](0, 0, 0) = std::nan("");
  EXPECT_THROW(apply_xtrains<double>({}, nan, o), InputError);
  SweepOptions no_chi;
  EXPECT_THROW(apply_xtrains<double>({}, psi, no_chi), UsageError);
}

}  // namespace
}  // namespace srcc
