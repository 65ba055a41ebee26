//===- CodeTwinsTest.cpp - measurements shared by the same machine code --===//

#include "driver/Search/CodeTwins.h"

#include "gtest/gtest.h"

using namespace optiml;

namespace {

Measurement measured(CandidateStatus S, double Speedup) {
  Measurement M;
  M.Status = S;
  M.Speedup = Speedup;
  M.Significant = true;
  M.Stages["run"] = 1.5;
  return M;
}

TEST(CodeTwinsTest, TheSameCodeAndLaunchIsAnsweredByTheFirstMeasurement) {
  CodeTwins T;
  std::string Key = CodeTwins::keyOf("code", "spec");
  EXPECT_FALSE(T.find(Key));
  T.remember(Key, "first", measured(CandidateStatus::Ok, 1.7));
  // A later measurement of the same code does not replace the first.
  T.remember(Key, "second", measured(CandidateStatus::Ok, 1.9));
  auto Twin = T.find(Key);
  ASSERT_TRUE(Twin);
  EXPECT_TRUE(Twin->ok());
  EXPECT_DOUBLE_EQ(Twin->Speedup, 1.7);
  EXPECT_TRUE(Twin->Significant);
  // Marked as an answer, not a measurement: no GPU time was spent.
  EXPECT_TRUE(Twin->Cached);
  EXPECT_EQ(Twin->TwinOf, "first");
  EXPECT_TRUE(Twin->Stages.empty());
}

TEST(CodeTwinsTest, AnotherLaunchOrOtherCodeIsNoTwin) {
  CodeTwins T;
  T.remember(CodeTwins::keyOf("code", "spec"), "a",
             measured(CandidateStatus::Ok, 1.2));
  // block-size changes the launch and not the code; a pragma the code.
  EXPECT_FALSE(T.find(CodeTwins::keyOf("code", "other-spec")));
  EXPECT_FALSE(T.find(CodeTwins::keyOf("other-code", "spec")));
}

TEST(CodeTwinsTest, WrongOutputsAreTheCodesButCrashesMayBeTheMachines) {
  CodeTwins T;
  T.remember("wrong", "a", measured(CandidateStatus::VerifyFailed, 0));
  auto Twin = T.find("wrong");
  ASSERT_TRUE(Twin);
  EXPECT_EQ(Twin->Status, CandidateStatus::VerifyFailed);
  for (CandidateStatus S :
       {CandidateStatus::Crashed, CandidateStatus::TimedOut,
        CandidateStatus::Error, CandidateStatus::BuildFailed}) {
    T.remember("other", "b", measured(S, 0));
    EXPECT_FALSE(T.find("other")) << toString(S).str();
  }
}

TEST(CodeTwinsTest, AnAnswerIsNoNewEvidence) {
  CodeTwins T;
  Measurement FromDatabase = measured(CandidateStatus::Ok, 2);
  FromDatabase.Cached = true;
  T.remember("k", "a", FromDatabase);
  EXPECT_FALSE(T.find("k"));
}

} // namespace
