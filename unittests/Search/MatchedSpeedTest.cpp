//===- MatchedSpeedTest.cpp - same speed, less energy ---------------------===//

#include "optiml/Search/MatchedSpeed.h"

#include "optiml/Protocol/RunResult.h"
#include "optiml/Search/TrajectoryReport.h"

#include "gtest/gtest.h"

using namespace optiml;

namespace {

/// A verified candidate at \p Speedup (95% interval +-\p Half when set) whose
/// run measured \p Joules per launch against the original's \p Reference,
/// the saving's rounds spread by \p Spread.
Measurement config(double Speedup, std::optional<double> Half, double Joules,
                   double Reference = 40e-3,
                   std::optional<double> Spread = 0.01) {
  Measurement M;
  M.Status = CandidateStatus::Ok;
  M.Goal = Objective::Energy;
  M.Speedup = Speedup;
  M.Threshold = 0.02;
  M.Joules = Joules;
  M.ReferenceJoules = Reference;
  M.EnergySpread = Spread;
  if (Half) {
    auto R = std::make_shared<protocol::RunResult>();
    protocol::InstanceTiming T;
    T.Speedup = Speedup;
    T.SpeedupLow = Speedup - *Half;
    T.SpeedupHigh = Speedup + *Half;
    R->Timing.emplace();
    R->Timing->Instances.push_back(T);
    M.Runner = R;
  }
  return M;
}

TEST(MatchedSpeedTest, FindsTheFrugalConfigurationAtTheFastestsSpeed) {
  Measurement Original = config(1.0, 0.005, 40e-3);
  Measurement Fast = config(1.40, 0.01, 36e-3);   // Saves 1.11x.
  Measurement Frugal = config(1.39, 0.01, 30e-3); // Saves 1.33x.
  Measurement Slow = config(1.20, 0.01, 25e-3);   // Slower: not matched.
  auto M = findMatchedSpeed(
      {{"", &Original}, {"fast", &Fast}, {"frugal", &Frugal}, {"slow", &Slow}});
  ASSERT_TRUE(M.has_value());
  EXPECT_EQ(M->Fastest, "fast");
  EXPECT_EQ(M->Frugal, "frugal");
  EXPECT_NEAR(M->Saving, 36.0 / 30.0, 1e-9);
  EXPECT_NEAR(M->Noise, 0.02, 1e-9); // Both spreads, at least 1% each.
  EXPECT_NE(describeMatchedSpeed(*M).find("`frugal` runs as fast as the "
                                          "fastest candidate, `fast`"),
            std::string::npos)
      << describeMatchedSpeed(*M);
}

TEST(MatchedSpeedTest, ASavingInsideTheEnergyNoiseIsNone) {
  Measurement Fast = config(1.40, 0.01, 36e-3);
  Measurement Close = config(1.40, 0.01, 35.5e-3); // 1.4% < 2% of noise.
  EXPECT_FALSE(findMatchedSpeed({{"fast", &Fast}, {"close", &Close}}));
  // Read once a side (no spread), a reading's noise is 7%: with the
  // fastest's 1%, a saving must pass 8%.
  Measurement Once = config(1.40, 0.01, 34e-3, 40e-3, std::nullopt);
  EXPECT_FALSE(findMatchedSpeed({{"fast", &Fast}, {"once", &Once}}));
  Once.Joules = 32e-3; // 12.5%.
  // A spread over the floor counts as it is.
  Measurement Spread = config(1.40, 0.01, 35e-3, 40e-3, 0.04); // 2.9% < 5%.
  EXPECT_FALSE(findMatchedSpeed({{"fast", &Fast}, {"spread", &Spread}}));
  EXPECT_TRUE(findMatchedSpeed({{"fast", &Fast}, {"once", &Once}}));
}

TEST(MatchedSpeedTest, TheFastestItselfOrASlowerOneIsNoMatch) {
  Measurement Fast = config(1.40, 0.01, 20e-3); // Fastest and frugal.
  Measurement Other = config(1.39, 0.01, 36e-3);
  EXPECT_FALSE(findMatchedSpeed({{"fast", &Fast}, {"other", &Other}}));
  Measurement Slower = config(1.30, 0.02, 20e-3); // Intervals apart.
  Measurement Fastest = config(1.40, 0.02, 36e-3);
  EXPECT_FALSE(findMatchedSpeed({{"fastest", &Fastest}, {"slower", &Slower}}));
}

TEST(MatchedSpeedTest, ElseTheFastestPairOfOthersAtOneSpeed) {
  // The fastest is alone at its speed; two pairs below it run at one speed
  // on different energy (sgemm's 8x8 and 8x4 register blocks): the faster
  // pair is shown, marked as not at the fastest's speed.
  Measurement Fastest = config(5.33, 0.04, 10e-3);
  Measurement Hungry = config(4.75, 0.01, 12e-3);
  Measurement Frugal = config(4.78, 0.01, 10e-3);
  Measurement SlowHungry = config(2.00, 0.01, 30e-3);
  Measurement SlowFrugal = config(2.01, 0.01, 15e-3); // Saves more, slower.
  auto M = findMatchedSpeed({{"fastest", &Fastest},
                             {"slow-hungry", &SlowHungry},
                             {"hungry", &Hungry},
                             {"slow-frugal", &SlowFrugal},
                             {"frugal", &Frugal}});
  ASSERT_TRUE(M.has_value());
  EXPECT_FALSE(M->AtFastest);
  EXPECT_EQ(M->Fastest, "hungry");
  EXPECT_EQ(M->Frugal, "frugal");
  EXPECT_NEAR(M->Saving, 1.2, 1e-9);
  std::string Text = describeMatchedSpeed(*M);
  EXPECT_NE(Text.find("`frugal` runs as fast as `hungry` (4.78x and 4.75x"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("both are slower than the fastest candidate"),
            std::string::npos)
      << Text;
  // A finding at the fastest's speed comes first.
  Measurement Twin = config(5.32, 0.04, 8e-3);
  auto AtFastest = findMatchedSpeed({{"fastest", &Fastest},
                                     {"hungry", &Hungry},
                                     {"frugal", &Frugal},
                                     {"twin", &Twin}});
  ASSERT_TRUE(AtFastest.has_value());
  EXPECT_TRUE(AtFastest->AtFastest);
  EXPECT_EQ(AtFastest->Frugal, "twin");
}

TEST(MatchedSpeedTest, IntervalsApartWithinTheThresholdAreTheSameSpeed) {
  // Intervals of +-0.2% that miss each other, 1.4% apart: under the 2%
  // below which the search calls a change noise.
  Measurement Fast = config(1.40, 0.003, 36e-3);
  Measurement Near = config(1.38, 0.003, 30e-3);
  EXPECT_TRUE(findMatchedSpeed({{"fast", &Fast}, {"near", &Near}}));
  Measurement Far = config(1.36, 0.003, 30e-3); // 2.9% apart.
  EXPECT_FALSE(findMatchedSpeed({{"fast", &Fast}, {"far", &Far}}));
}

TEST(MatchedSpeedTest, WithoutIntervalsTheThresholdDecides) {
  Measurement Fast = config(1.40, std::nullopt, 36e-3);
  Measurement Near = config(1.38, std::nullopt, 30e-3); // 1.4% apart.
  Measurement Far = config(1.33, std::nullopt, 30e-3);  // 5% apart.
  EXPECT_TRUE(findMatchedSpeed({{"fast", &Fast}, {"near", &Near}}));
  EXPECT_FALSE(findMatchedSpeed({{"fast", &Fast}, {"far", &Far}}));
}

TEST(MatchedSpeedTest, NothingWithoutEnergyOrWithFailures) {
  Measurement Fast = config(1.40, 0.01, 36e-3);
  Measurement NoEnergy = config(1.40, 0.01, 30e-3);
  NoEnergy.Joules.reset();
  EXPECT_FALSE(findMatchedSpeed({{"fast", &Fast}, {"x", &NoEnergy}}));
  Measurement Failed = config(1.40, 0.01, 20e-3);
  Failed.Status = CandidateStatus::VerifyFailed;
  EXPECT_FALSE(findMatchedSpeed({{"fast", &Fast}, {"bad", &Failed}}));
}

} // namespace
