// The small owned tensor (lib/srcc/core/tensor.cpp): sizes and shapes, its norm without overflow,
// and casts between element types.
#include "srcc/core/tensor.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace srcc {
namespace {

TEST(Tensor, SizesNormsAndCasts) {
  Tensor<double> t({2, 3, 1});
  EXPECT_EQ(t.size(), 6u);
  EXPECT_EQ(t.bytes(), 48u);
  EXPECT_EQ(shape_string(t.shape), "(2, 3, 1)");
  for (std::size_t i = 0; i < t.size(); ++i) t.data[i] = static_cast<double>(i);
  EXPECT_DOUBLE_EQ(frobenius_norm(t), std::sqrt(55.0));
  Tensor<double> huge({2}, {1e300, 1e300});
  EXPECT_DOUBLE_EQ(frobenius_norm(huge), std::sqrt(2.0) * 1e300) << "no overflow in the squares";
  const auto c = cast_tensor<cdouble>(t);
  EXPECT_EQ(c.shape, t.shape);
  EXPECT_EQ(c.data[5], cdouble(5, 0));
  const auto f = cast_tensor<float>(t);
  EXPECT_EQ(f.data[4], 4.0f);
  AnyTensor any = t;
  EXPECT_EQ(any_dtype(any), DType::kFloat64);
  EXPECT_EQ(any_shape(any), t.shape);
}

}  // namespace
}  // namespace srcc
