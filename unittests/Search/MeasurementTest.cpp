//===- MeasurementTest.cpp - evaluations as the search sees them ----------===//

#include "optiml/Search/Measurement.h"
#include "../Profile/RecordedRuns.h"

#include "gtest/gtest.h"

using namespace optiml;

namespace {

/// A verified run of saxpy timed at \p Speedup.
Evaluation timed(double Speedup, bool Significant) {
  Evaluation E;
  E.Run.Status = "ok";
  protocol::RunResult R = test::h200Result(test::Saxpy);
  R.Verify.emplace().Passed = true;
  protocol::InstanceTiming T;
  T.Speedup = Speedup;
  T.Noise = 0.004;
  T.Threshold = 0.01;
  T.Significant = Significant;
  T.Reference.MedianNs = 61400.0;
  T.Candidate.MedianNs = 61400.0 / Speedup;
  R.Timing.emplace().Instances = {T};
  E.Run.Result = R;
  return E;
}

/// A run that ended with \p Status and no result, as a killed runner's.
Evaluation ended(const char *Status, std::string Error = "") {
  Evaluation E;
  E.Run.Status = Status;
  E.Run.Error = std::move(Error);
  return E;
}

TEST(MeasurementTest, AcceptedAndTimed) {
  Evaluation E = timed(1.25, true);
  E.Candidate.Usage = ResourceUsage{"_Z5saxpyifPKfPf", 16, 0, 0, 0, 0, 0};
  Measurement M = measurementOf(E);
  EXPECT_EQ(M.Status, CandidateStatus::Ok);
  EXPECT_DOUBLE_EQ(M.Speedup, 1.25);
  EXPECT_DOUBLE_EQ(M.Threshold, 0.01);
  EXPECT_DOUBLE_EQ(M.effectiveSpeedup(), 1.25);
  EXPECT_DOUBLE_EQ(M.ReferenceTimeNs, 61400.0);
  EXPECT_DOUBLE_EQ(M.TimeNs, 61400.0 / 1.25);
  ASSERT_TRUE(M.RooflineFraction.has_value());
  EXPECT_NEAR(*M.RooflineFraction, 3341.0 / 4800, 1e-3);
  ASSERT_NE(M.Runner, nullptr);
  EXPECT_EQ(M.Runner->Status, protocol::RunStatus::Ok);
  ASSERT_TRUE(M.Usage.has_value()); // The candidate's build comes along.
  EXPECT_EQ(M.Usage->Registers, 16u);
}

TEST(MeasurementTest, NotSignificantIsNoSpeedup) {
  Measurement M = measurementOf(timed(1.004, false));
  EXPECT_DOUBLE_EQ(M.effectiveSpeedup(), 1.0);
}

TEST(MeasurementTest, Failures) {
  Evaluation Build = ended("build_failed");
  Build.Reference.Succeeded = true;
  Build.Candidate.Log = "error: x";
  Measurement B = measurementOf(Build);
  EXPECT_EQ(B.Status, CandidateStatus::BuildFailed);
  EXPECT_EQ(B.Log, "error: x"); // The failed side's build log.
  Measurement V = measurementOf(ended("verify_failed", "mismatch in out"));
  EXPECT_EQ(V.Status, CandidateStatus::VerifyFailed);
  EXPECT_EQ(V.Log, "mismatch in out");
  EXPECT_EQ(measurementOf(ended("fault")).Status, CandidateStatus::Crashed);
  EXPECT_EQ(measurementOf(ended("incomplete")).Status,
            CandidateStatus::Crashed);
  EXPECT_EQ(measurementOf(ended("crash")).Status, CandidateStatus::Crashed);
  EXPECT_EQ(measurementOf(ended("timeout")).Status, CandidateStatus::TimedOut);
  EXPECT_EQ(measurementOf(ended("runner_error")).Status,
            CandidateStatus::Error);
  // "ok" without a passed verification is not accepted.
  EXPECT_EQ(measurementOf(ended("ok")).Status, CandidateStatus::VerifyFailed);
  Evaluation Unverified = timed(1.1, true);
  Unverified.Run.Result->Verify->Passed = false;
  EXPECT_EQ(measurementOf(Unverified).Status, CandidateStatus::VerifyFailed);
}

TEST(MeasurementTest, AKilledRunnerKeepsWhatItWrote) {
  Evaluation E = timed(1.1, true);
  E.Run.Status = "timeout";
  E.Run.Error = "the runner was killed after 40 s";
  E.Run.Result->Status = protocol::RunStatus::Incomplete;
  Measurement M = measurementOf(E);
  EXPECT_EQ(M.Status, CandidateStatus::TimedOut);
  EXPECT_EQ(M.Log, "the runner was killed after 40 s");
  EXPECT_DOUBLE_EQ(M.effectiveSpeedup(), 0.0);
  ASSERT_NE(M.Runner, nullptr); // Its device and counters still help.
  EXPECT_TRUE(M.Runner->Device.has_value());
}

TEST(MeasurementTest, StatusNamesRoundTrip) {
  for (CandidateStatus S :
       {CandidateStatus::Ok, CandidateStatus::BuildFailed,
        CandidateStatus::VerifyFailed, CandidateStatus::Crashed,
        CandidateStatus::TimedOut, CandidateStatus::Error})
    EXPECT_EQ(parseCandidateStatus(toString(S)), S);
  EXPECT_FALSE(parseCandidateStatus("fine").has_value());
}

} // namespace

namespace {

/// A verified run at \p Speedup whose energy loop gave \p RefJ and \p CandJ
/// joules per launch.
Evaluation withEnergy(double Speedup, double RefJ, double CandJ) {
  Evaluation E = timed(Speedup, true);
  protocol::EnergyReport R;
  R.Available = true;
  protocol::InstanceEnergy I;
  I.Instance = "default";
  I.Reference.JoulesPerLaunch = RefJ;
  I.Candidate.JoulesPerLaunch = CandJ;
  R.Instances = {I};
  E.Run.Result->Energy = R;
  return E;
}

} // namespace

TEST(MeasurementTest, EnergyPerLaunchIsReadFromTheRun) {
  Measurement M = measurementOf(withEnergy(1.0, 2e-3, 1.6e-3));
  ASSERT_TRUE(M.Joules && M.ReferenceJoules);
  EXPECT_DOUBLE_EQ(*M.Joules, 1.6e-3);
  EXPECT_DOUBLE_EQ(*M.ReferenceJoules, 2e-3);
  EXPECT_DOUBLE_EQ(*M.energySaving(), 1.25);
  // A side that failed gives no reading at all.
  Evaluation Failed = withEnergy(1.0, 2e-3, 1.6e-3);
  Failed.Run.Result->Energy->Instances[0].Candidate.Error = "no counter";
  EXPECT_FALSE(measurementOf(Failed).Joules.has_value());
}

TEST(MeasurementTest, TheObjectiveDecidesTheGain) {
  // 10% slower, 25% less energy.
  Measurement M = measurementOf(withEnergy(1 / 1.1, 2e-3, 1.6e-3));
  EXPECT_DOUBLE_EQ(M.effectiveGain(), M.effectiveSpeedup()); // Time.
  EXPECT_LT(M.effectiveGain(), 1);
  M.Goal = Objective::Energy;
  EXPECT_DOUBLE_EQ(M.effectiveGain(), 1.25);
  M.Goal = Objective::Edp;
  EXPECT_NEAR(M.effectiveGain(), 1.25 / 1.1, 1e-12);
}

TEST(MeasurementTest, EnergyWithinItsNoiseIsNoGain) {
  Measurement M = measurementOf(withEnergy(1.0, 2e-3, 1.9e-3)); // 5%.
  M.Goal = Objective::Energy;
  EXPECT_DOUBLE_EQ(M.effectiveGain(), 1.0);
}

TEST(MeasurementTest, TheRoundsSpreadIsTheEnergyNoise) {
  // 5% less energy: within the 7% taken for a single reading a side, but
  // beyond rounds that agree within 2%.
  Evaluation Tight = withEnergy(1.0, 2e-3, 1.9e-3);
  Tight.Run.Result->Energy->Instances[0].Ratios =
      std::vector<double>{1.06, 1.04, 1.05, 1.05};
  Measurement M = measurementOf(Tight);
  M.Goal = Objective::Energy;
  ASSERT_TRUE(M.EnergySpread.has_value());
  EXPECT_NEAR(*M.EnergySpread, 0.01 / 1.05, 1e-12);
  EXPECT_DOUBLE_EQ(M.gainNoise(), Measurement::MinEnergyNoise);
  EXPECT_NEAR(M.effectiveGain(), 2.0 / 1.9, 1e-12);
  // Rounds that disagree by more than the saving leave it as none.
  Evaluation Loose = Tight;
  Loose.Run.Result->Energy->Instances[0].Ratios =
      std::vector<double>{0.95, 1.15, 1.02, 1.08};
  Measurement L = measurementOf(Loose);
  L.Goal = Objective::Energy;
  EXPECT_NEAR(L.gainNoise(), 0.1 / 1.05, 1e-12);
  EXPECT_DOUBLE_EQ(L.effectiveGain(), 1.0);
}

TEST(MeasurementTest, NoEnergyReadingRanksNothingUnderEnergy) {
  Measurement M = measurementOf(timed(1.5, true));
  M.Goal = Objective::Energy;
  EXPECT_FALSE(M.gain().has_value());
  EXPECT_DOUBLE_EQ(M.effectiveGain(), 0.0);
}

TEST(MeasurementTest, ObjectiveNames) {
  for (Objective O : {Objective::Time, Objective::Energy, Objective::Edp})
    EXPECT_EQ(parseObjective(toString(O)), O);
  EXPECT_FALSE(parseObjective("joules").has_value());
}
