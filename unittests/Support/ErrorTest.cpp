//===- ErrorTest.cpp - error kinds and exit codes ------------------------===//

#include "optiml/Support/Error.h"

#include "gtest/gtest.h"

using namespace optiml;

TEST(ErrorTest, SummaryKeepsKindAndMessage) {
  ErrorSummary S = summarize(makeError(ErrorKind::Illegal, "race on C"));
  EXPECT_EQ(S.Kind, ErrorKind::Illegal);
  EXPECT_EQ(S.Message, "race on C");
}

TEST(ErrorTest, ForeignErrorsAreInternal) {
  ErrorSummary S = summarize(
      llvm::createStringError(llvm::inconvertibleErrorCode(), "boom"));
  EXPECT_EQ(S.Kind, ErrorKind::Internal);
  EXPECT_EQ(S.Message, "boom");
}

TEST(ErrorTest, ExitCodesAreDistinctPerKind) {
  EXPECT_EQ(exitCodeFor(ErrorKind::BadInput), ExitBadInput);
  EXPECT_EQ(exitCodeFor(ErrorKind::NoGPU), ExitNoGPU);
  EXPECT_NE(exitCodeFor(ErrorKind::Illegal), exitCodeFor(ErrorKind::BadInput));
  EXPECT_NE(exitCodeFor(ErrorKind::Internal), ExitOK);
}
