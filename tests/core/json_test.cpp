// Tests of the JSON builder (lib/srcc/core/json.cpp): order, escapes, non-finite numbers.
#include "srcc/core/json.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

namespace srcc {
namespace {

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
