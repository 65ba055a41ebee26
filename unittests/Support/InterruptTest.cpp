//===- InterruptTest.cpp - SIGINT and SIGTERM as a request to stop -------===//

#include "optiml/Support/Interrupt.h"

#include "gtest/gtest.h"

#include <csignal>

using namespace optiml;

namespace {

TEST(InterruptTest, ASignalRequestsAStopInsteadOfEndingTheProcess) {
  clearStopRequest();
  stopOnInterrupt();
  EXPECT_FALSE(stopRequested());
  // Without the handler SIGTERM would end this test program.
  std::raise(SIGTERM);
  EXPECT_TRUE(stopRequested());
  clearStopRequest();
  EXPECT_FALSE(stopRequested());
}

TEST(InterruptTest, TheRequestCanBeMadeDirectly) {
  clearStopRequest();
  requestStop();
  EXPECT_TRUE(stopRequested());
  clearStopRequest();
}

} // namespace
