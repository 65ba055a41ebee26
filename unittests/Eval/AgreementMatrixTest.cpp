//===- AgreementMatrixTest.cpp - when a generated reference is trusted ---===//

#include "optiml/Eval/AgreementMatrix.h"

#include "gtest/gtest.h"

using namespace optiml;

namespace {

/// A reference and three candidates, one strategy each.
AgreementMatrix threeStrategies() {
  return AgreementMatrix("reference", {"s1", "s2", "s3"}, {1, 2, 3});
}

TEST(AgreementMatrixTest, TwoStrategiesAgreeingTrustTheReference) {
  AgreementMatrix M = threeStrategies();
  M.set(0, 1, Agreement::Agree);
  M.set(0, 2, Agreement::Agree);
  M.set(0, 3, Agreement::Disagree);
  EXPECT_EQ(M.verdict(), TrustVerdict::Trusted);
  EXPECT_EQ(M.agreeingWithReference(), (std::vector<size_t>{1, 2}));
  EXPECT_NE(M.explain().find("trusted: candidates agreeing with the "
                             "reference: s1, s2 (2 strategies; 2 needed)"),
            std::string::npos);
}

TEST(AgreementMatrixTest, OneAgreeingCandidateIsNotEnough) {
  AgreementMatrix M = threeStrategies();
  M.set(0, 1, Agreement::Agree);
  M.set(0, 2, Agreement::Disagree);
  M.set(0, 3, Agreement::Failed);
  EXPECT_NE(M.verdict(), TrustVerdict::Trusted);
}

TEST(AgreementMatrixTest, TwoSamplesOfOneStrategyCountOnce) {
  AgreementMatrix M("reference", {"a", "b", "c"}, {1, 1, 2});
  M.set(0, 1, Agreement::Agree);
  M.set(0, 2, Agreement::Agree);
  M.set(0, 3, Agreement::Disagree);
  EXPECT_EQ(M.strategiesOf(M.agreeingWithReference()), 1u);
  EXPECT_EQ(M.verdict(), TrustVerdict::NoConsensus);
  // The third strategy agreeing makes two.
  M.set(0, 3, Agreement::Agree);
  EXPECT_EQ(M.verdict(), TrustVerdict::Trusted);
}

TEST(AgreementMatrixTest, AgreeingCandidatesAgainstTheReferenceAccuseIt) {
  AgreementMatrix M = threeStrategies();
  for (size_t C = 1; C <= 3; ++C)
    M.set(0, C, Agreement::Disagree);
  M.set(1, 2, Agreement::Agree);
  M.set(1, 3, Agreement::Disagree);
  M.set(2, 3, Agreement::Disagree);
  EXPECT_EQ(M.verdict(), TrustVerdict::ReferenceSuspect);
  EXPECT_EQ(M.largestConsensus(), (std::vector<size_t>{1, 2}));
  EXPECT_NE(M.explain().find("s1, s2 agree with each other but not with it"),
            std::string::npos);
}

TEST(AgreementMatrixTest, NobodyAgreeingIsNoConsensus) {
  AgreementMatrix M = threeStrategies();
  for (size_t A = 0; A <= 3; ++A)
    for (size_t B = A + 1; B <= 3; ++B)
      M.set(A, B, Agreement::Disagree);
  EXPECT_EQ(M.verdict(), TrustVerdict::NoConsensus);
  EXPECT_EQ(M.largestConsensus().size(), 1u);
}

TEST(AgreementMatrixTest, FailedComparisonsAreNoAgreement) {
  AgreementMatrix M = threeStrategies();
  M.set(0, 1, Agreement::Failed);
  M.set(0, 2, Agreement::Failed);
  M.set(1, 2, Agreement::Failed);
  EXPECT_EQ(M.verdict(), TrustVerdict::NoConsensus);
  EXPECT_TRUE(M.agreeingWithReference().empty());
}

TEST(AgreementMatrixTest, ConsensusMustBePairwise) {
  // s1 = s2 and s2 = s3 but s1 x s3: the outputs are not one.
  AgreementMatrix M = threeStrategies();
  M.set(1, 2, Agreement::Agree);
  M.set(2, 3, Agreement::Agree);
  M.set(1, 3, Agreement::Disagree);
  EXPECT_EQ(M.largestConsensus().size(), 2u);
}

TEST(AgreementMatrixTest, SymmetricCellsAndRendering) {
  AgreementMatrix M = threeStrategies();
  M.set(2, 0, Agreement::Agree);
  M.set(3, 1, Agreement::Failed);
  EXPECT_EQ(M.at(0, 2), Agreement::Agree);
  EXPECT_EQ(M.at(1, 3), Agreement::Failed);
  EXPECT_EQ(M.at(1, 1), Agreement::Agree);
  std::string Md = M.toMarkdown();
  EXPECT_NE(Md.find("| | reference | s1 | s2 | s3 |"), std::string::npos);
  EXPECT_NE(Md.find("| reference | = | ? | = | ? |"), std::string::npos);
  EXPECT_NE(Md.find("| s3 | ? | ! | ? | = |"), std::string::npos);
  nlohmann::json J = M.toJSON();
  EXPECT_EQ(J["cells"][0][2], "agree");
  EXPECT_EQ(J["verdict"], "no_consensus");
}

} // namespace
