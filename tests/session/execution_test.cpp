// The backend an Execution names for a measurement (lib/srcc/session/execution.cpp): the CPU's
// with its threads, and a GPU asked for without one a BackendError saying what works.
#include "srcc/session/execution.hpp"

#include <gtest/gtest.h>

#include "srcc/core/error.hpp"

namespace srcc {
namespace {

TEST(Execution, TheCpuWithItsThreadsAndAGpuOnlyWhereThereIsOne) {
  Execution e;
  e.threads = 1;
  EXPECT_EQ(measuring_backend(e)->threads(), 1);
  e.device = parse_device("gpu");
  std::string why;
  if (cuda_device_count(why) > 0) {
    EXPECT_NE(measuring_backend(e)->name().find("cuda"), std::string::npos);
    return;
  }
  try {
    (void)measuring_backend(e);
    ADD_FAILURE() << "a GPU backend without a GPU";
  } catch (const BackendError& err) {
    EXPECT_NE(std::string(err.what()).find("--device cpu"), std::string::npos) << err.what();
  }
}

}  // namespace
}  // namespace srcc
