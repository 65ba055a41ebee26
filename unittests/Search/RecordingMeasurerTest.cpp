//===- RecordingMeasurerTest.cpp - failures not retried, --resume ---------===//

#include "optiml/Search/RecordingMeasurer.h"
#include "SearchTestUtil.h"
#include "optiml/Search/GreedyStrategy.h"
#include "optiml/Search/MctsStrategy.h"
#include "optiml/Search/SearchLoop.h"

using namespace optiml;
using namespace optiml::test;
using nlohmann::json;

namespace {

int64_t kernel(Database &Db) {
  return llvm::cantFail(
      Db.kernelId({0, "r", "k", "{}", "NVIDIA H200", "nvcc 13.0 sm_90"}));
}

json withAFailure() {
  json Table = treeTable(3, 4);
  Table["states"]["r0"]["status"] = "verify_failed";
  Table["states"]["r0"]["log"] = "mismatch: out[3]";
  return Table;
}

TEST(RecordingMeasurerTest, FailuresAreRecordedAndNeverRetried) {
  Database Db = llvm::cantFail(Database::open(":memory:"));
  int64_t K = kernel(Db);
  for (int Run = 0; Run < 2; ++Run) {
    auto Env = env(withAFailure());
    RecordingMeasurer M(Db, K, *Env);
    MctsStrategy S(*Env);
    SearchLoop(S, M, SearchBudget{6, 0, 3}).run();
    EXPECT_EQ(M.databaseError(), "");
    const SearchNode &Failed = S.graph().node(S.graph().find("r0"));
    EXPECT_EQ(Failed.State, NodeState::Failed);
    EXPECT_EQ(Failed.Result.Log, "mismatch: out[3]");
    EXPECT_EQ(Env->timesMeasured("r0"), Run == 0 ? 1u : 0u);
  }
  auto Record = llvm::cantFail(Db.find(K, "r0"));
  ASSERT_TRUE(Record.has_value());
  EXPECT_EQ(Record->Status, "verify_failed");
  EXPECT_EQ(Record->Trace, "t0(site=r)");
  EXPECT_EQ(Record->LastTransform, "t0");
}

TEST(RecordingMeasurerTest, ABatchCutShortByAStopIsNotRecorded) {
  Database Db = llvm::cantFail(Database::open(":memory:"));
  int64_t K = kernel(Db);
  auto Env = env(withAFailure());
  RecordingMeasurer M(Db, K, *Env);
  MctsStrategy S(*Env);
  SearchLoop Loop(S, M, SearchBudget{6, 0, 3});
  // Asked while the second batch (r0's failure among it) is measured, as
  // the Driver wires it: the same predicate for the memo and the loop.
  auto Stop = [&] { return Env->measurements() > 1; };
  M.discardWhen(Stop);
  Loop.stopWhen(Stop);
  EXPECT_EQ(Loop.run(), StopReason::Interrupted);
  EXPECT_EQ(Env->timesMeasured("r0"), 1u);
  EXPECT_TRUE(llvm::cantFail(Db.find(K, "r")).has_value());
  EXPECT_FALSE(llvm::cantFail(Db.find(K, "r0")).has_value());
}

TEST(RecordingMeasurerTest, ResumeReplaysForFreeAndContinues) {
  Database Db = llvm::cantFail(Database::open(":memory:"));
  int64_t K = kernel(Db);
  auto First = env(treeTable(3, 4));
  RecordingMeasurer M1(Db, K, *First);
  MctsStrategy S1(*First);
  SearchLoop(S1, M1, SearchBudget{10, 0, 4}).run();
  EXPECT_EQ(First->measurements(), 10u);

  auto Second = env(treeTable(3, 4));
  RecordingMeasurer M2(Db, K, *Second);
  MctsStrategy S2(*Second);
  SearchLoop(S2, M2, SearchBudget{10, 0, 4}).run();
  EXPECT_EQ(S2.graph().cached(), 10u);    // The first run, replayed.
  EXPECT_EQ(S2.graph().evaluated(), 10u); // Ten more on the GPU.
  EXPECT_EQ(Second->measurements(), 10u);
  EXPECT_EQ(llvm::cantFail(Db.candidates(K)).size(), 20u);
  EXPECT_GE(S2.graph().node(S2.graph().best()).Result.effectiveSpeedup(),
            S1.graph().node(S1.graph().best()).Result.effectiveSpeedup());
}

TEST(RecordingMeasurerTest, PipelinedRecordsEachResultUnderItsCandidate) {
  Database Db = llvm::cantFail(Database::open(":memory:"));
  int64_t K = kernel(Db);
  // Results come back newest first, so a record keyed by arrival order
  // instead of by candidate would land on the wrong hash.
  auto First = env(withAFailure());
  PipelinedMeasurer Inner1(*First);
  RecordingMeasurer M1(Db, K, Inner1);
  MctsStrategy S1(*First);
  SearchLoop(S1, M1, SearchBudget{10, 0, 4, true}).run();
  EXPECT_EQ(First->measurements(), 10u);
  auto Records = llvm::cantFail(Db.candidates(K));
  ASSERT_EQ(Records.size(), 10u);
  for (const CandidateRecord &R : Records) {
    const SearchNode &N = S1.graph().node(S1.graph().find(R.SourceHash));
    EXPECT_EQ(R.Status, N.State == NodeState::Failed ? "verify_failed" : "ok")
        << R.SourceHash;
    EXPECT_EQ(R.Trace, toString(N.Steps)) << R.SourceHash;
  }
  EXPECT_EQ(llvm::cantFail(Db.find(K, "r0"))->Status, "verify_failed");
}

TEST(RecordingMeasurerTest, PipelinedResumeReplaysForFreeAndContinues) {
  // Results in the order the candidates were submitted, as the Driver's
  // measurer returns them: a second run sees the same sequence.
  Database Db = llvm::cantFail(Database::open(":memory:"));
  int64_t K = kernel(Db);
  auto First = env(withAFailure());
  RecordingMeasurer M1(Db, K, *First);
  MctsStrategy S1(*First);
  SearchLoop(S1, M1, SearchBudget{10, 0, 4, true}).run();
  EXPECT_EQ(First->measurements(), 10u);

  auto Second = env(withAFailure());
  RecordingMeasurer M2(Db, K, *Second);
  MctsStrategy S2(*Second);
  SearchLoop(S2, M2, SearchBudget{10, 0, 4, true}).run();
  EXPECT_EQ(S2.graph().cached(), 10u);
  EXPECT_EQ(Second->timesMeasured("r0"), 0u);
  EXPECT_EQ(Second->measurements(), 10u);
}

TEST(RecordingMeasurerTest, ASharedDatabaseCountedChangesNoStrategysResult) {
  // Strategies compared on one database (MCTS first, then greedy): counted
  // against the budget, greedy's database answers leave it the same number
  // of candidates, and it ends where greedy on its own database ends.
  Database Alone = llvm::cantFail(Database::open(":memory:"));
  auto Own = env(treeTable(3, 4));
  RecordingMeasurer MO(Alone, kernel(Alone), *Own);
  GreedyStrategy GO(*Own);
  SearchLoop(GO, MO, SearchBudget{8, 0, 4, true}).run();

  Database Shared = llvm::cantFail(Database::open(":memory:"));
  int64_t K = kernel(Shared);
  auto First = env(treeTable(3, 4));
  RecordingMeasurer M1(Shared, K, *First);
  MctsStrategy S1(*First);
  SearchLoop(S1, M1, SearchBudget{8, 0, 4, true}).run();
  auto Second = env(treeTable(3, 4));
  RecordingMeasurer M2(Shared, K, *Second);
  GreedyStrategy G2(*Second);
  SearchLoop(G2, M2, SearchBudget{8, 0, 4, true, /*CountCached=*/true}).run();

  EXPECT_GT(G2.graph().cached(), 0u);
  EXPECT_EQ(G2.graph().cached() + G2.graph().evaluated(), 8u);
  EXPECT_LT(Second->measurements(), 8u);
  EXPECT_EQ(G2.graph().node(G2.graph().best()).Hash,
            GO.graph().node(GO.graph().best()).Hash);
  std::vector<std::string> SharedOrder, OwnOrder;
  for (const HistoryPoint &P : G2.graph().history())
    SharedOrder.push_back(P.Hash);
  for (const HistoryPoint &P : GO.graph().history())
    OwnOrder.push_back(P.Hash);
  EXPECT_EQ(SharedOrder, OwnOrder);
}

TEST(RecordingMeasurerTest, FailureHistorySeedsThePriorCut) {
  Database Db = llvm::cantFail(Database::open(":memory:"));
  int64_t K = kernel(Db);
  Candidate C;
  C.Hash = "x";
  C.Steps = llvm::cantFail(parseTrace("tile(site=k/for#0,size=16)"));
  Measurement Bad;
  Bad.Status = CandidateStatus::BuildFailed;
  llvm::cantFail(Db.add(toRecord(K, C, Bad)));
  C.Hash = "y";
  llvm::cantFail(Db.add(toRecord(K, C, Bad)));
  FailureTracker F;
  llvm::cantFail(loadFailureHistory(Db, K, F));
  EXPECT_EQ(F.failures("tile"), 2u);
  EXPECT_EQ(F.priorScale("tile"), 0.25);
}

TEST(RecordingMeasurerTest, RecordsKeepWhatTheProposerNeeds) {
  Candidate C;
  C.Hash = "h";
  C.ParentHash = "p";
  C.Steps = llvm::cantFail(parseTrace("unroll(site=k/for#0,factor=4)"));
  Measurement M;
  M.Status = CandidateStatus::Ok;
  M.Speedup = 1.5, M.Significant = true, M.Threshold = 0.01;
  M.RooflineFraction = 0.4;
  auto Runner = std::make_shared<protocol::RunResult>();
  Runner->Status = protocol::RunStatus::Ok;
  Runner->Device.emplace().Sms = 132;
  Runner->Metrics.emplace().Error = "no permission";
  Runner->Verify.emplace().Passed = true;
  M.Runner = Runner;
  M.Usage = ResourceUsage{"_Z1kPf", 40, 1024, 0, 8, 8, 1};
  Measurement Back = fromRecord(toRecord(7, C, M));
  EXPECT_TRUE(Back.Cached);
  EXPECT_EQ(Back.Status, CandidateStatus::Ok);
  EXPECT_DOUBLE_EQ(Back.effectiveSpeedup(), 1.5);
  EXPECT_EQ(Back.RooflineFraction, 0.4);
  ASSERT_NE(Back.Runner, nullptr);
  ASSERT_TRUE(Back.Runner->Device.has_value());
  EXPECT_EQ(Back.Runner->Device->Sms, 132);
  ASSERT_TRUE(Back.Runner->Metrics.has_value());
  EXPECT_EQ(Back.Runner->Metrics->Error, "no permission");
  EXPECT_FALSE(Back.Runner->Verify.has_value()); // Not needed again.
  EXPECT_FALSE(Back.Runner->Timing.has_value()); // Never measured.
  ASSERT_TRUE(Back.Usage.has_value());
  EXPECT_EQ(Back.Usage->Registers, 40u);
  EXPECT_EQ(Back.Usage->SpillLoadBytes, 8u);
}

TEST(RecordingMeasurerTest, AMoveIsRecordedUnderItsTransformOrChain) {
  Candidate C;
  C.Hash = "h";
  C.ParentHash = "p";
  C.Steps = llvm::cantFail(parseTrace("coarsen(site=k,dim=y,factor=4); "
                                      "stage-shared(site=k/for#1/A,tile=16)"));
  Measurement M;
  M.Status = CandidateStatus::Ok;
  M.Speedup = 4;
  // A chain's gain is the chain's: learned priors and the failure cut
  // would otherwise credit its last link with the whole chain.
  C.Move = "chain:register-block";
  EXPECT_EQ(toRecord(7, C, M).LastTransform, "chain:register-block");
  C.Move = "";
  EXPECT_EQ(toRecord(7, C, M).LastTransform, "stage-shared");
}

} // namespace

TEST(RecordingMeasurerTest, EnergyIsKeptAndTheSearchsObjectiveRanks) {
  Candidate C;
  C.Hash = "e";
  C.Steps = llvm::cantFail(parseTrace("block-size(site=k,x=128)"));
  Measurement M;
  M.Status = CandidateStatus::Ok;
  M.Speedup = 0.98, M.Significant = false, M.Threshold = 0.01;
  auto Runner = std::make_shared<protocol::RunResult>();
  Runner->Status = protocol::RunStatus::Ok;
  protocol::EnergyReport E;
  E.Available = true;
  E.Instances.push_back({"default", {}, {}});
  E.Instances[0].Reference.JoulesPerLaunch = 3e-3;
  E.Instances[0].Candidate.JoulesPerLaunch = 2.4e-3;
  Runner->Energy = E;
  M.Runner = Runner;
  Measurement Back = fromRecord(toRecord(7, C, M));
  ASSERT_TRUE(Back.Joules.has_value());
  EXPECT_DOUBLE_EQ(*Back.Joules, 2.4e-3);
  EXPECT_DOUBLE_EQ(*Back.energySaving(), 1.25);

  // A record answers under the objective of the search asking, not of the
  // run that made it.
  auto Db = llvm::cantFail(Database::open(":memory:"));
  int64_t K = kernel(Db);
  llvm::cantFail(Db.add(toRecord(K, C, M)));
  struct Never : Measurer {
    Measurement measure(const Candidate &) override { return {}; }
  } Inner;
  RecordingMeasurer Memo(Db, K, Inner);
  Memo.rankBy(Objective::Energy);
  Measurement Found = Memo.measure(C);
  EXPECT_TRUE(Found.Cached);
  EXPECT_EQ(Found.Goal, Objective::Energy);
  EXPECT_DOUBLE_EQ(Found.effectiveGain(), 1.25);
}
