// Tests of element types (lib/srcc/core/dtype.cpp): names, sizes, promotion.
#include "srcc/core/dtype.hpp"

#include <gtest/gtest.h>


#include "srcc/core/error.hpp"

namespace srcc {
namespace {

TEST(DType, NamesRoundTripAndBadNamesListTheValidOnes) {
  for (DType t : {DType::kFloat32, DType::kFloat64, DType::kComplex64, DType::kComplex128})
    EXPECT_EQ(parse_dtype(dtype_name(t), "--dtype"), t);
  EXPECT_EQ(dtype_size(DType::kComplex64), 8u);
  EXPECT_EQ(dtype_size(DType::kComplex128), 16u);
  try {
    (void)parse_dtype("double", "--dtype");
    FAIL() << "no error";
  } catch (const UsageError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("--dtype"), std::string::npos) << m;
    EXPECT_NE(m.find("complex128"), std::string::npos) << m;
  }
}

// Promotion keeps both the range of the wider real type and any imaginary part.
TEST(DType, PromotionIsTheSmallestTypeHoldingBoth) {
  using D = DType;
  EXPECT_EQ(promote(D::kFloat32, D::kFloat32), D::kFloat32);
  EXPECT_EQ(promote(D::kFloat32, D::kFloat64), D::kFloat64);
  EXPECT_EQ(promote(D::kFloat32, D::kComplex64), D::kComplex64);
  EXPECT_EQ(promote(D::kFloat64, D::kComplex64), D::kComplex128);
  EXPECT_EQ(promote(D::kComplex64, D::kFloat64), D::kComplex128);
  EXPECT_EQ(promote(D::kComplex128, D::kFloat32), D::kComplex128);
}

}  // namespace
}  // namespace srcc
