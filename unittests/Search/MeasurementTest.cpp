//===- MeasurementTest.cpp - runner results as the search sees them -------===//

#include "optiml/Search/Measurement.h"
#include "../Profile/RecordedRuns.h"

#include "gtest/gtest.h"

using namespace optiml;
using nlohmann::json;

namespace {

json timed(double Speedup, bool Significant) {
  json R = test::h200Result(test::Saxpy);
  R["verify"] = {{"passed", true}};
  R["timing"] = {{"speedup", Speedup},
                 {"noise", 0.004},
                 {"threshold", 0.01},
                 {"significant", Significant},
                 {"reference", {{"median_ns", 61400.0}}},
                 {"candidate", {{"median_ns", 61400.0 / Speedup}}}};
  return R;
}

TEST(MeasurementTest, AcceptedAndTimed) {
  Measurement M = measurementFromRunnerResult(timed(1.25, true));
  EXPECT_EQ(M.Status, CandidateStatus::Ok);
  EXPECT_DOUBLE_EQ(M.Speedup, 1.25);
  EXPECT_DOUBLE_EQ(M.Threshold, 0.01);
  EXPECT_DOUBLE_EQ(M.effectiveSpeedup(), 1.25);
  EXPECT_DOUBLE_EQ(M.ReferenceTimeNs, 61400.0);
  ASSERT_TRUE(M.RooflineFraction.has_value());
  EXPECT_NEAR(*M.RooflineFraction, 3341.0 / 4800, 1e-3);
  ASSERT_NE(M.Runner, nullptr);
  EXPECT_EQ((*M.Runner)["status"], "ok");
}

TEST(MeasurementTest, NotSignificantIsNoSpeedup) {
  Measurement M = measurementFromRunnerResult(timed(1.004, false));
  EXPECT_DOUBLE_EQ(M.effectiveSpeedup(), 1.0);
}

TEST(MeasurementTest, Failures) {
  EXPECT_EQ(measurementFromRunnerResult(
                {{"status", "build_failed"}, {"log", "error: x"}})
                .Status,
            CandidateStatus::BuildFailed);
  Measurement V = measurementFromRunnerResult(
      {{"status", "verify_failed"}, {"error", "mismatch in out"}});
  EXPECT_EQ(V.Status, CandidateStatus::VerifyFailed);
  EXPECT_EQ(V.Log, "mismatch in out");
  EXPECT_EQ(measurementFromRunnerResult({{"status", "fault"}}).Status,
            CandidateStatus::Crashed);
  EXPECT_EQ(measurementFromRunnerResult({{"status", "incomplete"}}).Status,
            CandidateStatus::Crashed);
  EXPECT_EQ(measurementFromRunnerResult({{"status", "timeout"}}).Status,
            CandidateStatus::TimedOut);
  // "ok" without a passed verification is not accepted.
  EXPECT_EQ(measurementFromRunnerResult({{"status", "ok"}}).Status,
            CandidateStatus::VerifyFailed);
  EXPECT_EQ(measurementFromRunnerResult(json::array()).Status,
            CandidateStatus::Error);
  // A malformed timing is an error, not an exception.
  json Bad = timed(1.1, true);
  Bad["timing"]["speedup"] = "fast";
  EXPECT_EQ(measurementFromRunnerResult(Bad).Status, CandidateStatus::Error);
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
