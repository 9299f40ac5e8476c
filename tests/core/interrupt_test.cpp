// The process's stop request (lib/srcc/core/interrupt.cpp): polled as an InterruptedError naming
// the signal, held off while a shield lives (the request stays recorded), cleared by a request of
// signal 0. Each test runs in a process of its own (CTest), so the request leaks nowhere.
#include "srcc/core/interrupt.hpp"

#include <gtest/gtest.h>

#include <csignal>

#include "srcc/core/error.hpp"

namespace srcc {
namespace {

TEST(Interrupt, ARequestIsPolledUnlessShielded) {
  request_interrupt(0);
  EXPECT_NO_THROW(poll_interrupt());
  request_interrupt(SIGTERM);
  EXPECT_EQ(interrupt_signal(), SIGTERM);
  {
    InterruptShield outer;
    {
      InterruptShield inner;
      EXPECT_NO_THROW(poll_interrupt());
    }
    EXPECT_NO_THROW(poll_interrupt()) << "one shield still lives";
  }
  try {
    poll_interrupt();
    ADD_FAILURE() << "no stop";
  } catch (const InterruptedError& e) {
    EXPECT_NE(std::string(e.what()).find("SIGTERM"), std::string::npos) << e.what();
  }
  EXPECT_EQ(interrupt_signal(), SIGTERM) << "polling does not clear the request";
  request_interrupt(0);
  EXPECT_NO_THROW(poll_interrupt());
}

}  // namespace
}  // namespace srcc
