// A result written back in its state's library's layout (lib/srcc/session/write_back.cpp),
// through run(): the train read back from TeNPy's and ITensor's layouts equals the one written
// in ours, and a layout other than the state's library is refused before any work.
#include "srcc/session/write_back.hpp"

#include <gtest/gtest.h>

#include "../support/cli_runner.hpp"
#include "../support/dense.hpp"
#include "../support/h5_fixture.hpp"
#include "../support/h5_read.hpp"
#include "srcc/core/error.hpp"
#include "srcc/session/run.hpp"

namespace srcc::test {
namespace {

TEST(WriteBack, TheLibrarysLayoutHoldsTheSameTrain) {
  TempDir dir;
  for (const std::string fixture : {"tenpy_tfi_L16_psi_and_H.h5", "itensor_tfi_L16_dense.h5"}) {
    const std::string file = test_data(fixture);
    const bool tenpy = fixture.rfind("tenpy", 0) == 0;
    RunOptions o;
    o.trains = {{file, tenpy ? "/H_MPO" : "/H"}, {file, "/psi"}};
    o.sweep.chi = 8;
    o.sweep.seed = 3;
    o.exec.threads = 1;
    SilentReporter reporter;
    o.output = (dir / (fixture + ".ours.h5")).string();
    o.output_format = TrainFormat::kSrcc;
    (void)run(o, reporter);
    o.output = (dir / (fixture + ".back.h5")).string();
    o.output_format = TrainFormat::kAuto;  // the state's library
    const RunSummary s = run(o, reporter);
    EXPECT_EQ(s.output_format, tenpy ? "tenpy" : "itensor");
    const auto ours = dense_vector(read_cores(dir / (fixture + ".ours.h5"), "/result"));
    const auto back = dense_vector(read_cores(o.output, "/psi", tenpy ? TrainFormat::kTenpy : TrainFormat::kItensor));
    EXPECT_LT(relative_error(back, ours), 1e-6) << fixture << ": what the block structure drops is tiny here";
  }
  TrainInfo tenpy_state;
  tenpy_state.format = TrainFormat::kTenpy;
  EXPECT_NO_THROW(check_write_back(TrainFormat::kTenpy, tenpy_state));
  EXPECT_NO_THROW(check_write_back(TrainFormat::kSrcc, tenpy_state));
  EXPECT_THROW(check_write_back(TrainFormat::kItensor, tenpy_state), UsageError);
}

}  // namespace
}  // namespace srcc::test
