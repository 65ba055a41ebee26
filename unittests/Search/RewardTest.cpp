//===- RewardTest.cpp - the reward formula and its guardrails -------------===//

#include "optiml/Search/Reward.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace optiml;

namespace {

Measurement ok(double Speedup, double Threshold = 0.01,
               std::optional<double> Roofline = std::nullopt) {
  Measurement M;
  M.Status = CandidateStatus::Ok;
  M.Speedup = Speedup;
  M.Threshold = Threshold;
  M.Significant = std::abs(Speedup - 1) > Threshold;
  M.RooflineFraction = Roofline;
  return M;
}

TEST(RewardTest, Log2OfTheSpeedupOverTheOriginal) {
  Reward R;
  Measurement Root = ok(1.0);
  EXPECT_DOUBLE_EQ(R.evaluate(ok(2.0), &Root, &Root)->total(), 1.0);
  EXPECT_DOUBLE_EQ(R.evaluate(ok(8.0), &Root, &Root)->total(), 3.0);
  EXPECT_DOUBLE_EQ(R.evaluate(ok(0.5), nullptr, &Root)->total(), -1.0);
}

TEST(RewardTest, ASpeedupInsideTheNoiseCountsAsNone) {
  Reward R;
  Measurement Root = ok(1.0);
  // 3% faster but the runner's threshold is 5%: not significant.
  Measurement M = ok(1.03, 0.05);
  EXPECT_FALSE(M.Significant);
  EXPECT_EQ(M.effectiveSpeedup(), 1.0);
  EXPECT_DOUBLE_EQ(R.evaluate(M, &Root, &Root)->total(), 0.0);
}

TEST(RewardTest, IncorrectCandidatesAreRejected) {
  Reward R;
  Measurement Root = ok(1.0);
  for (CandidateStatus S :
       {CandidateStatus::BuildFailed, CandidateStatus::VerifyFailed,
        CandidateStatus::Crashed, CandidateStatus::TimedOut,
        CandidateStatus::Error}) {
    Measurement M = ok(5.0);
    M.Status = S;
    EXPECT_FALSE(R.evaluate(M, &Root, &Root).has_value()) << toString(S).str();
    EXPECT_EQ(M.effectiveSpeedup(), 0);
  }
}

TEST(RewardTest, ASuccessWithoutAUsableTimingIsRejected) {
  Reward R;
  EXPECT_FALSE(R.evaluate(ok(0.0), nullptr, nullptr).has_value());
  EXPECT_FALSE(R.evaluate(ok(std::nan("")), nullptr, nullptr).has_value());
}

TEST(RewardTest, SlowerThanTheParentBeyondNoiseIsPenalized) {
  Reward R;
  Measurement Root = ok(1.0), Parent = ok(4.0);
  // 4x -> 2x: log2(2) = 1, minus 1 x log2(4 / 2) = 1.
  auto B = R.evaluate(ok(2.0), &Parent, &Root);
  EXPECT_DOUBLE_EQ(B->SpeedupTerm, 1.0);
  EXPECT_DOUBLE_EQ(B->Penalty, 1.0);
  EXPECT_DOUBLE_EQ(B->total(), 0.0);
  // 4x -> 3.9x is inside the parent's 5% noise: no penalty.
  Measurement NoisyParent = ok(4.0, 0.05);
  EXPECT_FALSE(R.regresses(ok(3.9), NoisyParent));
  EXPECT_DOUBLE_EQ(R.evaluate(ok(3.9), &NoisyParent, &Root)->Penalty, 0.0);
  EXPECT_TRUE(R.regresses(ok(3.7), NoisyParent));
}

TEST(RewardTest, RooflineProxy) {
  Reward R(RewardParams{/*RooflineWeight=*/0.5});
  Measurement Root = ok(1.0, 0.01, 0.10);
  auto B = R.evaluate(ok(2.0, 0.01, 0.30), &Root, &Root);
  EXPECT_DOUBLE_EQ(B->RooflineTerm, 0.5 * 0.2);
  EXPECT_DOUBLE_EQ(B->total(), 1.1);
  // Without counters on either side the proxy is silent.
  EXPECT_DOUBLE_EQ(R.evaluate(ok(2.0), &Root, &Root)->RooflineTerm, 0.0);
}

// The worked example of docs/Reward.md.
TEST(RewardTest, WorkedExampleOfTheDocs) {
  Reward R;
  Measurement Root = ok(1.0, 0.01, 0.082), Parent = ok(3.0);
  auto B = R.evaluate(ok(26.04 / 10.0, 0.01, 0.21), &Parent, &Root);
  EXPECT_NEAR(B->SpeedupTerm, 1.381, 5e-4);
  EXPECT_NEAR(B->RooflineTerm, 0.032, 5e-4);
  EXPECT_NEAR(B->Penalty, 0.204, 5e-4);
  EXPECT_NEAR(B->total(), 1.2085, 5e-4);
}

TEST(RewardTest, ClampedSoOneOutlierDoesNotFlattenTheRest) {
  Reward R;
  EXPECT_DOUBLE_EQ(R.evaluate(ok(1e6), nullptr, nullptr)->SpeedupTerm, 6.0);
  EXPECT_DOUBLE_EQ(R.evaluate(ok(1e-6), nullptr, nullptr)->SpeedupTerm, -4.0);
}

} // namespace

namespace {

/// \p M ranked by energy, at \p Saving times less energy per launch.
Measurement byEnergy(Measurement M, double Saving) {
  M.Goal = Objective::Energy;
  M.ReferenceJoules = 1e-3;
  M.Joules = 1e-3 / Saving;
  return M;
}

} // namespace

TEST(RewardTest, UnderEnergyTheSavingIsRewardedWhateverTheSpeed) {
  Reward R;
  Measurement Root = byEnergy(ok(1.0), 1.0);
  // 20% slower, twice less energy: worth a doubling.
  Measurement M = byEnergy(ok(1 / 1.2), 2.0);
  EXPECT_DOUBLE_EQ(R.evaluate(M, &Root, &Root)->total(), 1.0);
  // Faster but using more energy than its parent: a regression.
  Measurement Parent = byEnergy(ok(1.0), 2.0);
  Measurement Worse = byEnergy(ok(1.5), 1.0);
  EXPECT_TRUE(R.regresses(Worse, Parent));
  EXPECT_FALSE(R.regresses(Parent, Worse));
  // Without an energy reading there is nothing to rank.
  Measurement Unread = ok(1.5);
  Unread.Goal = Objective::Energy;
  EXPECT_FALSE(R.evaluate(Unread, &Root, &Root).has_value());
}
