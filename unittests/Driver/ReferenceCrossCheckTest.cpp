//===- ReferenceCrossCheckTest.cpp - the cross-check's decisions ---------===//
//
// CI has no GPU: a table stands in for the comparisons, so that what the
// cross-check does with them (trust, ask for another reference, stop) is
// tested here; scripts/gpu-check.sh fromprompt runs the same on a GPU.
//
//===----------------------------------------------------------------------===//

#include "driver/FromPrompt/ReferenceCrossCheck.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <map>

using namespace optiml;

namespace {

CheckedKernel kernel(const std::string &Name) {
  return CheckedKernel{KernelSource(Name, ""), KernelInfo(), KernelSpec(), ""};
}

/// Verdicts by pair of file names (either order), times by the second.
class TableComparer : public KernelComparer {
public:
  llvm::Expected<Comparison>
  compare(const CheckedKernel &First,
          const CheckedKernel &Second) const override {
    ++Calls;
    std::string A = First.Source.path().str(), B = Second.Source.path().str();
    auto It = Verdicts.find({std::min(A, B), std::max(A, B)});
    Comparison C;
    C.Verdict = It == Verdicts.end() ? Agreement::Disagree : It->second;
    C.Status = C.Verdict == Agreement::Agree ? "ok" : "verify_failed";
    C.FirstNs = 1000;
    C.SecondNs = Times.count(B) ? Times.at(B) : 500;
    return C;
  }
  void agree(const std::string &A, const std::string &B) {
    Verdicts[{std::min(A, B), std::max(A, B)}] = Agreement::Agree;
  }
  std::map<std::pair<std::string, std::string>, Agreement> Verdicts;
  std::map<std::string, double> Times;
  mutable unsigned Calls = 0;
};

class ReferenceCrossCheckTest : public ::testing::Test {
protected:
  ReferenceCrossCheckTest()
      : Ref(kernel("ref")), Ref2(kernel("ref2")), S1(kernel("s1")),
        S2(kernel("s2")), S3(kernel("s3")) {}

  llvm::Expected<CrossCheckResult> run(unsigned Attempts, bool CanRewrite) {
    ReferenceCrossCheck X(Table,
                          {{&S1, "s1", 1}, {&S2, "s2", 2}, {&S3, "s3", 3}});
    auto Next =
        [&](unsigned Attempt) -> llvm::Expected<std::optional<LabelledKernel>> {
      Asked.push_back(Attempt);
      if (!CanRewrite)
        return std::nullopt;
      return std::optional<LabelledKernel>({&Ref2, "reference2", 0});
    };
    llvm::raw_string_ostream OS(Log);
    return X.run({&Ref, "reference", 0}, Attempts, Next, OS);
  }

  CheckedKernel Ref, Ref2, S1, S2, S3;
  TableComparer Table;
  std::vector<unsigned> Asked;
  std::string Log;
};

TEST_F(ReferenceCrossCheckTest, TwoStrategiesAgreeingTrustAtOnce) {
  Table.agree("ref", "s1");
  Table.agree("ref", "s3");
  Table.Times = {{"s1", 300}, {"s3", 200}};
  auto R = run(2, true);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_TRUE(R->trusted());
  EXPECT_EQ(R->References, 1u);
  EXPECT_EQ(Table.Calls, 3u); // No pairs: nothing to explain.
  EXPECT_TRUE(Asked.empty());
  EXPECT_EQ(R->fastest(), std::optional<size_t>(2)); // s3, the faster.
  EXPECT_EQ(R->Matrix.at(1, 2), Agreement::Unknown);
}

TEST_F(ReferenceCrossCheckTest,
       AReferenceTwoAgreeingCandidatesRefuseIsRewritten) {
  Table.agree("s1", "s2");
  Table.agree("ref2", "s1");
  Table.agree("ref2", "s2");
  auto R = run(2, true);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(Asked, std::vector<unsigned>{1});
  EXPECT_NE(Log.find("the reference is suspect: s1, s2 agree with each other "
                     "but not with it"),
            std::string::npos);
  EXPECT_TRUE(R->trusted());
  EXPECT_EQ(R->Reference.Label, "reference2");
  EXPECT_EQ(R->References, 2u);
  // 3 against the first reference, 3 pairs once, 3 against the second.
  EXPECT_EQ(Table.Calls, 9u);
  EXPECT_EQ(R->Matrix.at(1, 2), Agreement::Agree);
  EXPECT_EQ(R->fastest(), std::optional<size_t>(0));
}

TEST_F(ReferenceCrossCheckTest, NobodyAgreeingStopsAfterTheAttempts) {
  auto R = run(2, true);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_FALSE(R->trusted());
  EXPECT_EQ(R->Matrix.verdict(), TrustVerdict::NoConsensus);
  EXPECT_EQ(R->References, 2u);
  EXPECT_EQ(Asked, std::vector<unsigned>{1});
  EXPECT_EQ(Table.Calls, 9u);
  EXPECT_EQ(R->fastest(), std::nullopt);
  EXPECT_EQ(R->Matrix.at(2, 3), Agreement::Disagree);
}

TEST_F(ReferenceCrossCheckTest, OneAttemptStopsWithTheMatrix) {
  Table.agree("s1", "s2");
  auto R = run(1, true);
  ASSERT_TRUE(bool(R));
  EXPECT_TRUE(Asked.empty());
  EXPECT_EQ(R->Matrix.verdict(), TrustVerdict::ReferenceSuspect);
  EXPECT_EQ(R->fastest(), std::nullopt);
}

TEST_F(ReferenceCrossCheckTest, NoNewReferenceStops) {
  Table.agree("s1", "s2");
  auto R = run(3, false);
  ASSERT_TRUE(bool(R));
  EXPECT_EQ(Asked, std::vector<unsigned>{1});
  EXPECT_EQ(R->Reference.Label, "reference");
  EXPECT_FALSE(R->trusted());
}

} // namespace
