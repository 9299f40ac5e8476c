// Block tensors packed for the MPI ranks come back whole: the same legs (with their dense
// positions), labels, offset table and elements, bit for bit; a cut-short packet is refused.
#include <gtest/gtest.h>

#include <stdexcept>

#include "srcc/symmetric/block_exchange.hpp"
#include "charged_support.hpp"

namespace srcc {
namespace {

using namespace test::charged;

TEST(BlockExchange, APackedTensorUnpacksToTheSameTensor) {
  OneThread<cdouble> cpu;
  Kernels<cdouble>& K = cpu.K();
  const std::size_t n = 6;
  const std::vector<std::vector<Tensor<cdouble>>> layers{xxz<cdouble>(n), random_charged<cdouble>(n, 10, 0, 3)};
  const ChargedStack<cdouble> st = stack_of(K, layers, {TrainKind::kMpo, TrainKind::kMps}, Rule::kU1Z2);
  for (const BlockTensor<cdouble>* t : {&st.sites[0][2], &st.sites[1][3]}) {
    ASSERT_GT(t->blocks.size(), 2u);
    const BlockTensor<cdouble> back = unpacked_blocks(K, packed_blocks(K, *t));
    ASSERT_EQ(back.rank(), t->rank());
    for (std::size_t a = 0; a < t->rank(); ++a) {
      EXPECT_EQ(back.legs[a].charges, t->legs[a].charges);
      EXPECT_EQ(back.legs[a].dims, t->legs[a].dims);
      EXPECT_EQ(back.legs[a].sector_of, t->legs[a].sector_of);
      EXPECT_EQ(back.legs[a].position_of, t->legs[a].position_of);
    }
    EXPECT_EQ(back.labels, t->labels);
    ASSERT_EQ(back.blocks.size(), t->blocks.size());
    for (std::size_t b = 0; b < t->blocks.size(); ++b) {
      EXPECT_EQ(back.blocks[b].key, t->blocks[b].key);
      EXPECT_EQ(back.blocks[b].offset, t->blocks[b].offset);
      EXPECT_EQ(back.blocks[b].size, t->blocks[b].size);
    }
    ASSERT_EQ(back.elements, t->elements);
    for (std::size_t i = 0; i < t->elements; ++i) ASSERT_EQ(back.data.data()[i], t->data.data()[i]) << i;
  }
}

TEST(BlockExchange, ACutShortPacketIsRefused) {
  OneThread<double> cpu;
  Kernels<double>& K = cpu.K();
  const std::size_t n = 4;
  const ChargedStack<double> st = stack_of(K, {random_charged<double>(n, 6, 0, 2)}, {TrainKind::kMps}, Rule::kU1);
  std::vector<std::byte> bytes = packed_blocks(K, st.sites[0][1]);
  bytes.resize(bytes.size() - 8);
  EXPECT_THROW(unpacked_blocks(K, bytes), std::runtime_error);
  bytes.resize(3);
  EXPECT_THROW(unpacked_blocks(K, bytes), std::runtime_error);
}

}  // namespace
}  // namespace srcc
