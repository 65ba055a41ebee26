//===- TrajectoryReportTest.cpp - the best path, explained ----------------===//

#include "optiml/Search/TrajectoryReport.h"
#include "../Profile/RecordedRuns.h"
#include "SearchTestUtil.h"
#include "optiml/Profile/MicroProfiler.h"
#include "optiml/Search/HtmlReport.h"
#include "optiml/Search/MctsStrategy.h"
#include "optiml/Search/ProfileGuidedPriors.h"
#include "optiml/Search/SearchLoop.h"

#include "llvm/Support/FormatVariadic.h"

using namespace optiml;
using namespace optiml::test;
using nlohmann::json;

namespace {

TEST(TrajectoryReportTest, TheBestPathOfTheSgemmReplay) {
  auto Env = llvm::cantFail(SimulatedEnvironment::fromFile(
      OPTIML_SEARCH_TEST_INPUTS "/sgemm-landscape.json"));
  MctsStrategy S(*Env);
  SearchLoop(S, *Env, SearchBudget{32, 0, 4}).run();
  Trajectory T = buildTrajectory(S.graph(), *Env, "sgemm", "mcts");
  ASSERT_TRUE(T.Improved);
  ASSERT_EQ(T.Steps.size(), 4u);
  EXPECT_EQ(T.Steps[0].Step, "stage-shared(site=sgemm/for#0,tile=32)");
  EXPECT_EQ(T.Steps[0].Motivation, "cache-bound");
  EXPECT_NEAR(T.Steps[0].SpeedupAfter, 2.6, 0.05);
  EXPECT_NEAR(T.BestSpeedup, 14.6, 0.2);
  for (unsigned I = 1; I < T.Steps.size(); ++I)
    EXPECT_DOUBLE_EQ(T.Steps[I].SpeedupBefore, T.Steps[I - 1].SpeedupAfter);
  EXPECT_NE(
      T.Steps[0].Diff.find("+  // stage-shared(site=sgemm/for#0,tile=32)\n"),
      std::string::npos)
      << T.Steps[0].Diff;
  EXPECT_EQ(T.Series.size(), T.Evaluated);
  EXPECT_GT(T.Failed, 0u); // fast-math never verifies.
  // The original's and the best kernel's own counters, as recorded.
  ASSERT_TRUE(T.RooflineOriginal && T.RooflineBest);
  EXPECT_NEAR(*T.RooflineOriginal, 0.0817, 1e-9);
  EXPECT_EQ(T.RooflineBest, T.Steps.back().RooflineAfter);
  EXPECT_GT(*T.RooflineBest, *T.RooflineOriginal);
  // Each evaluation keeps its own measured ratio; failures have none.
  for (const TrajectoryPoint &P : T.Series) {
    EXPECT_EQ(P.Measured.has_value(), P.Status == CandidateStatus::Ok);
    if (P.Measured && P.Speedup > 1)
      EXPECT_DOUBLE_EQ(*P.Measured, P.Speedup);
  }
  EXPECT_TRUE(T.Series.front().Trace.empty()); // The original comes first.
  // The original's moves, by prior, each with what it came to: the best
  // path's first step was measured.
  ASSERT_FALSE(T.RootMoves.empty());
  for (unsigned I = 1; I < T.RootMoves.size(); ++I)
    EXPECT_GE(T.RootMoves[I - 1].Prior, T.RootMoves[I].Prior);
  auto First = llvm::find_if(T.RootMoves, [&](const RootMove &M) {
    return M.Step == T.Steps[0].Step;
  });
  ASSERT_NE(First, T.RootMoves.end());
  EXPECT_EQ(First->Outcome.rfind("measured 2.", 0), 0u) << First->Outcome;

  std::string Md = toMarkdown(T);
  EXPECT_NE(Md.find("**Best: 14."), std::string::npos) << Md;
  EXPECT_NE(Md.find("### 1. `stage-shared(site=sgemm/for#0,tile=32)`"),
            std::string::npos);
  EXPECT_NE(Md.find("```diff\n--- a/sgemm.cu (step 0)\n+++ b/sgemm.cu "
                    "(step 1)\n"),
            std::string::npos);
  EXPECT_NE(Md.find("## Best speedup over evaluations"), std::string::npos);
  EXPECT_NE(Md.find("## Moves at the original, by prior"), std::string::npos);
  // Each step's kernel time stands next to its ratios.
  EXPECT_NE(Md.find(llvm::formatv("| 1 | `stage-shared(site=sgemm/for#0,tile="
                                  "32)` | {0} |",
                                  formatKernelTime(T.Steps[0].TimeNs))
                        .str()),
            std::string::npos)
      << Md;
  EXPECT_GT(T.Steps[0].TimeNs, 0);
  EXPECT_NE(Md.find("- Fraction of the roofline reached: original 8.2%, "
                    "best " +
                    formatRoofline(T.RooflineBest) + "\n"),
            std::string::npos)
      << Md;
  EXPECT_NE(Md.find(llvm::formatv("- Candidates: {0} candidates measured "
                                  "({1} failed)",
                                  T.Evaluated, T.Failed)
                        .str()),
            std::string::npos);

  json J = toJSON(T);
  EXPECT_EQ(J["steps"].size(), 4u);
  EXPECT_EQ(J["series"].size(), T.Evaluated);
  EXPECT_EQ(J["strategy"], "mcts");
  EXPECT_TRUE(J["improved"].get<bool>());
  EXPECT_NEAR(J["roofline_original"].get<double>(), 0.0817, 1e-9);
  EXPECT_EQ(J["roofline_best"].get<double>(), *T.RooflineBest);
  EXPECT_EQ(J["evaluated"], T.Evaluated);
  EXPECT_EQ(J["failed"], T.Failed);
  for (const json &P : J["series"])
    EXPECT_EQ(P["measured"].is_null(), P["status"] != "ok") << P.dump();
  // Every state measured is in the landscape (transpositions once).
  EXPECT_EQ(J["landscape"]["root"], J["series"][0]["hash"]);
  for (const json &P : J["series"])
    EXPECT_TRUE(J["landscape"]["states"].contains(P["hash"])) << P["hash"];
}

TEST(TrajectoryReportTest, SaysSoWhenNothingBeatsTheOriginal) {
  json States = {{"r", state(100, {move("a", "k", 1, "A")})},
                 {"A", state(100.5)}}; // Inside the noise.
  auto Env = env({{"root", "r"}, {"noise", 0.0}, {"states", States}});
  MctsStrategy S(*Env);
  SearchLoop(S, *Env, SearchBudget{8, 0, 4}).run();
  Trajectory T = buildTrajectory(S.graph(), *Env, "k", "mcts");
  EXPECT_FALSE(T.Improved);
  EXPECT_TRUE(T.Steps.empty());
  EXPECT_EQ(T.BestSpeedup, 1.0);
  std::string Md = toMarkdown(T);
  EXPECT_NE(Md.find("the original is kept"), std::string::npos);
  // No counters were recorded: the fractions are unknown, not zero.
  EXPECT_FALSE(T.RooflineOriginal || T.RooflineBest);
  EXPECT_NE(Md.find("roofline reached: original n/a, best n/a"),
            std::string::npos)
      << Md;
  EXPECT_EQ(Md.find("0.0%"), std::string::npos);
  json J = toJSON(T);
  EXPECT_TRUE(J["roofline_original"].is_null());
  EXPECT_TRUE(J["roofline_best"].is_null());
}

TEST(TrajectoryReportTest, EnergyPerCandidateAndTheSameSpeedFinding) {
  Trajectory T;
  T.Goal = Objective::Energy;
  T.JoulesOriginal = 40e-3, T.JoulesBest = 30e-3;
  TrajectoryPoint A;
  A.EnergySaving = 1.33, A.EnergySpread = 0.01;
  T.Series = {TrajectoryPoint(), A};
  T.Matched = MatchedSpeed{
      "fast(site=k)", "frugal(site=k)", 1.40, 1.39, 36e-3, 30e-3, 1.2, 0.04};
  std::string Md = toMarkdown(T);
  EXPECT_NE(Md.find("- Same speed, less energy: `frugal(site=k)` runs as "
                    "fast as the fastest candidate, `fast(site=k)` (1.39x "
                    "and 1.40x the original's speed, within the noise), on "
                    "1.20x less energy per launch (30.00 mJ against 36.00 "
                    "mJ; noise 4%)"),
            std::string::npos)
      << Md;
  json J = toJSON(T);
  EXPECT_EQ(J["matched_speed"]["frugal"], "frugal(site=k)");
  EXPECT_DOUBLE_EQ(J["matched_speed"]["saving"].get<double>(), 1.2);
  EXPECT_DOUBLE_EQ(J["series"][1]["energy_saving"].get<double>(), 1.33);
  EXPECT_TRUE(J["series"][0]["energy_saving"].is_null());
  // Without energy, no finding.
  T.Matched.reset();
  EXPECT_EQ(toMarkdown(T).find("Same speed"), std::string::npos);
  EXPECT_TRUE(toJSON(T)["matched_speed"].is_null());
}

TEST(TrajectoryReportTest, StagesAreAveragedOverMeasuredCandidates) {
  Trajectory T;
  TrajectoryPoint A, B, FromDb;
  A.Stages = {{"build", 2.0}, {"run", 3.0}, {"verify", 0.5}, {"time", 1.0}};
  B.Stages = {{"build", 4.0}, {"run", 1.0},     {"verify", 0.5},
              {"time", 0.5},  {"metrics", 2.0}, {"rewrite", 0.1}};
  B.Low = 1.1, B.High = 1.3, B.StopReason = "screened";
  T.Series = {A, B, FromDb}; // The database's answer has no stages.
  // Means over the two measured candidates, the tool's stages first; a
  // stage only one had counts as zero for the other.
  EXPECT_EQ(describeStages(T), "rewrite 0.05, build 3.00, run 2.00, verify "
                               "0.50, time 0.75, metrics 1.00 (2 candidates)");
  std::string Md = toMarkdown(T);
  EXPECT_NE(Md.find("- Seconds per measured candidate (mean): rewrite 0.05"),
            std::string::npos)
      << Md;
  json J = toJSON(T);
  EXPECT_EQ(J["series"][1]["stages"]["metrics"], 2.0);
  EXPECT_EQ(J["series"][1]["interval"], json::array({1.1, 1.3}));
  EXPECT_EQ(J["series"][1]["stop_reason"], "screened");
  EXPECT_TRUE(J["series"][0]["interval"].is_null());
  EXPECT_TRUE(J["series"][2]["stages"].empty());
  EXPECT_EQ(describeStages(Trajectory()), "");
}

TEST(TrajectoryReportTest, ATwinsAnswerIsNamedAndNotAMeasurement) {
  Trajectory T;
  TrajectoryPoint Measured, Twin, FromDb;
  Measured.Evaluation = 1;
  Measured.Stages = {{"build", 2.0}, {"run", 1.0}};
  Measured.Measured = 1.5, Measured.Speedup = 1.5;
  Twin.Evaluation = 2;
  Twin.Cached = true, Twin.TwinOf = "abc";
  Twin.Stages = {{"rewrite", 0.1}, {"build", 3.0}};
  Twin.Measured = 1.5, Twin.Speedup = 1.5;
  FromDb.Evaluation = 3;
  FromDb.Cached = true;
  T.Series = {Measured, Twin, FromDb};
  T.Evaluated = 1, T.Cached = 2, T.Twins = 1;
  EXPECT_EQ(describeCounts(T),
            "1 candidates measured (0 failed), 1 answered from the database, "
            "1 by an earlier candidate's measurement (the same machine code)");
  // The twin's build is not a measured candidate's stage.
  EXPECT_EQ(describeStages(T), "build 2.00, run 1.00 (1 candidates)");
  EXPECT_EQ(answeredBy(Twin), " (same machine code as an earlier candidate)");
  EXPECT_EQ(answeredBy(FromDb), " (database)");
  EXPECT_EQ(answeredBy(Measured), "");
  json J = toJSON(T);
  EXPECT_EQ(J["twins"], 1);
  EXPECT_EQ(J["series"][1]["twin_of"], "abc");
  EXPECT_TRUE(J["series"][0]["twin_of"].is_null());
}

TEST(TrajectoryReportTest, EveryReportSaysWhatMadeIt) {
  Trajectory T;
  T.Kernel = "k";
  T.Provenance = {"2026-11-25T22:30:00Z", "OptiML 0.1.0 (git abc1234)",
                  "13.0, V13.0.88",
                  "clang-optiml k.cu --optimize -o 'o u t.cu'"};
  std::string Md = toMarkdown(T);
  EXPECT_NE(Md.find("- Made: 2026-11-25T22:30:00Z, OptiML 0.1.0 (git "
                    "abc1234), nvcc 13.0, V13.0.88\n"),
            std::string::npos)
      << Md;
  EXPECT_NE(Md.find("- Command: `clang-optiml k.cu --optimize -o 'o u t.cu'`"),
            std::string::npos)
      << Md;
  std::string Html = toHtml(T);
  EXPECT_NE(Html.find("2026-11-25T22:30:00Z"), std::string::npos);
  EXPECT_NE(Html.find("OptiML 0.1.0 (git abc1234)"), std::string::npos);
  json J = toJSON(T);
  EXPECT_EQ(J["provenance"]["date"], "2026-11-25T22:30:00Z");
  EXPECT_EQ(J["provenance"]["nvcc"], "13.0, V13.0.88");
  EXPECT_EQ(J["provenance"]["command_line"],
            "clang-optiml k.cu --optimize -o 'o u t.cu'");
  // Unknown: null, not made up; a report without any says nothing.
  T.Provenance = {};
  EXPECT_TRUE(toJSON(T)["provenance"].is_null());
  EXPECT_EQ(toMarkdown(T).find("- Made:"), std::string::npos);
  EXPECT_EQ(formatKernelTime(25752000), "25.75 ms");
  EXPECT_EQ(formatKernelTime(71300), "71.3 us");
  EXPECT_EQ(formatKernelTime(0), "n/a");
  // The clock's own spelling.
  std::string Now = ReportProvenance::now();
  EXPECT_EQ(Now.size(), 20u) << Now;
  EXPECT_EQ(Now.back(), 'Z');
}

TEST(TrajectoryReportTest, EveryReportSaysWhySearchStopped) {
  // An interrupted search's reports are of what was measured before the
  // interrupt, and say so; a trajectory that does not know says nothing.
  Trajectory T;
  T.Kernel = "k";
  T.Stopped = "interrupted";
  std::string Md = toMarkdown(T);
  EXPECT_NE(Md.find("\n- Stopped: interrupted\n"), std::string::npos) << Md;
  EXPECT_NE(toHtml(T).find("<tr><th>Stopped</th><td>interrupted</td></tr>"),
            std::string::npos);
  EXPECT_EQ(toJSON(T)["stopped"], "interrupted");
  T.Stopped.clear();
  EXPECT_EQ(toMarkdown(T).find("Stopped"), std::string::npos);
  EXPECT_EQ(toHtml(T).find("Stopped"), std::string::npos);
  EXPECT_TRUE(toJSON(T)["stopped"].is_null());
}

TEST(ProfileGuidedPriorsTest, FindingsSplitOverLegalSteps) {
  Finding Cache;
  Cache.Id = "cache-bound";
  Cache.Severity = 1;
  Cache.Guidance = "Stage tiles.";
  Cache.Prior = {{"stage-shared", 0.6}, {"unroll", 0.4}};
  std::vector<Step> Legal;
  for (const char *S : {"stage-shared(site=k/for#0,tile=16)",
                        "stage-shared(site=k/for#0,tile=32)",
                        "unroll(site=k/for#0,factor=4)", "restrict(site=k)"})
    Legal.push_back(llvm::cantFail(parseStepSpelling(S)));
  std::vector<ScoredAction> A = assignPriors(Legal, {Cache}, 0.0);
  ASSERT_EQ(A.size(), 4u);
  EXPECT_DOUBLE_EQ(A[0].Prior, 0.3);
  EXPECT_DOUBLE_EQ(A[1].Prior, 0.3);
  EXPECT_DOUBLE_EQ(A[2].Prior, 0.4);
  EXPECT_DOUBLE_EQ(A[3].Prior, 0.0);
  EXPECT_EQ(A[0].Motivation, "cache-bound: Stage tiles.");
  EXPECT_EQ(A[3].Motivation, "");
  // With a floor, a transform no finding names can still be tried.
  EXPECT_GT(assignPriors(Legal, {Cache})[3].Prior, 0.0);
}

} // namespace

namespace {

TEST(ProfileGuidedPriorsTest, FromARunnerResultToRankedSteps) {
  Evaluation E;
  E.Run.Status = "ok";
  E.Run.Result = h200Result(Sgemm);
  E.Run.Result->Verify.emplace().Passed = true;
  Measurement M = measurementOf(E);
  M.Usage = usage(32);
  ProfileInput In = profileInput(M);
  ASSERT_TRUE(In.Counters && In.Peaks && In.Usage);
  In.Geometry = LaunchGeometry{65536, 256, 0};
  ProfileReport R = MicroProfiler::standard().profile(In);
  std::vector<Step> Legal;
  for (const char *S :
       {"unroll(site=sgemm/for#0,factor=4)",
        "stage-shared(site=sgemm/for#0,tile=16)", "restrict(site=sgemm)"})
    Legal.push_back(llvm::cantFail(parseStepSpelling(S)));
  std::vector<ScoredAction> A = assignPriors(Legal, R.Findings);
  EXPECT_GT(A[1].Prior, A[2].Prior);
  EXPECT_GT(A[2].Prior, A[0].Prior); // No finding names unroll here.
  EXPECT_EQ(A[1].Motivation.rfind("cache-bound: ", 0), 0u) << A[1].Motivation;
}

} // namespace
