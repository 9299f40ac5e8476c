// Tests of element types (lib/srcc/core/dtype.cpp) and the JSON builder (core/json.cpp).
#include "srcc/core/dtype.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "srcc/core/error.hpp"
#include "srcc/core/json.hpp"

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

TEST(Json, StableOrderEscapesAndNullForNonFinite) {
  JsonObject o;
  o.add("name", std::string("a \"quoted\" \\ path\n"))
      .add("n", std::int64_t{-3})
      .add("x", 0.5)
      .add("bad", std::numeric_limits<double>::quiet_NaN())
      .add("ok", true)
      .add_raw("list", json_array(std::vector<int>{1, 2}));
  EXPECT_EQ(o.str(),
            "{\"name\": \"a \\\"quoted\\\" \\\\ path\\n\", \"n\": -3, \"x\": 0.5, \"bad\": null, "
            "\"ok\": true, \"list\": [1, 2]}");
}

}  // namespace
}  // namespace srcc
