//===- TraceTest.cpp - trace spelling and the failure tracker -------------===//

#include "optiml/Search/Trace.h"
#include "optiml/Search/FailureTracker.h"
#include "optiml/Support/Error.h"

#include "gtest/gtest.h"

using namespace optiml;

namespace {

TEST(TraceTest, RoundTrip) {
  const char *Text = "stage-shared(site=sgemm/for#0,tile=16); "
                     "unroll(site=sgemm/for#0/for#0,factor=4)";
  auto T = parseTrace(Text);
  ASSERT_TRUE(bool(T)) << llvm::toString(T.takeError());
  ASSERT_EQ(T->size(), 2u);
  EXPECT_EQ((*T)[0].Transform, "stage-shared");
  EXPECT_EQ((*T)[0].Params.get("tile"), "16");
  EXPECT_EQ((*T)[1].Site, "sgemm/for#0/for#0");
  EXPECT_EQ(toString(*T), Text);
}

TEST(TraceTest, TheOriginalIsTheEmptyTrace) {
  auto T = parseTrace("");
  ASSERT_TRUE(bool(T));
  EXPECT_TRUE(T->empty());
  EXPECT_EQ(toString(Trace()), "");
}

TEST(TraceTest, Errors) {
  for (const char *Bad :
       {"unroll", "unroll(factor=4)", "(site=k)", "unroll(site=k,factor)"}) {
    auto S = parseStepSpelling(Bad);
    ASSERT_FALSE(bool(S)) << Bad;
    ErrorSummary E = summarize(S.takeError());
    EXPECT_EQ(E.Kind, ErrorKind::BadInput);
  }
}

TEST(FailureTrackerTest, HalvesThePriorPerNetFailure) {
  FailureTracker F;
  EXPECT_EQ(F.priorScale("tile"), 1.0);
  F.recordFailure("tile");
  EXPECT_EQ(F.priorScale("tile"), 0.5);
  F.recordFailure("tile");
  EXPECT_EQ(F.priorScale("tile"), 0.25);
  F.recordSuccess("tile");
  EXPECT_EQ(F.priorScale("tile"), 0.5);
  for (int I = 0; I < 20; ++I)
    F.recordFailure("tile");
  EXPECT_EQ(F.priorScale("tile"), FailureTracker::MinScale);
  EXPECT_EQ(F.priorScale("unroll"), 1.0);
}

} // namespace
