//===- SearchLoopTest.cpp - budgets by candidates and by wall time --------===//

#include "optiml/Search/SearchLoop.h"
#include "SearchTestUtil.h"
#include "optiml/Search/MctsStrategy.h"
#include "optiml/Support/Error.h"

using namespace optiml;
using namespace optiml::test;

namespace {

/// The table's moves, except that state \p At answers with an error of
/// kind \p Kind, as a broken proposer would.
class FailingAt : public Expander {
public:
  FailingAt(SimulatedEnvironment &Env, std::string At, ErrorKind Kind)
      : Env(Env), At(std::move(At)), Kind(Kind) {}
  std::string rootHash() override { return Env.rootHash(); }
  llvm::Expected<std::vector<ScoredAction>>
  actions(const StateView &S) override {
    if (S.Hash == At)
      return makeError(Kind, "finding 'dram-bound' suggests transform "
                             "'vectorise', which is not registered");
    return Env.actions(S);
  }
  llvm::Expected<AppliedMove> apply(const Trace &From, llvm::StringRef Hash,
                                    const Step &Next) override {
    return Env.apply(From, Hash, Next);
  }

private:
  SimulatedEnvironment &Env;
  std::string At;
  ErrorKind Kind;
};

TEST(SearchLoopTest, StopsAtTheCandidateBudget) {
  auto Env = env(treeTable(3, 4));
  MctsStrategy S(*Env);
  SearchLoop Loop(S, *Env, SearchBudget{10, 0, 4});
  std::vector<SearchProgress> Seen;
  Loop.onProgress([&](const SearchProgress &P) { Seen.push_back(P); });
  EXPECT_EQ(Loop.run(), StopReason::Budget);
  EXPECT_EQ(S.graph().evaluated(), 10u);
  EXPECT_EQ(Env->measurements(), 10u);
  // 1 (the original), 4, 4, then the 1 left.
  ASSERT_EQ(Seen.size(), 4u);
  EXPECT_EQ(Seen[1].Evaluated, 5u);
  EXPECT_EQ(Seen.back().Evaluated, 10u);
  EXPECT_GE(Seen.back().BestSpeedup, 1.0);
}

TEST(SearchLoopTest, StopsAtTheTimeBudget) {
  nlohmann::json Table = treeTable(3, 4);
  Table["seconds_per_candidate"] = 30;
  auto Env = env(Table);
  MctsStrategy S(*Env);
  SearchLoop Loop(S, *Env, SearchBudget{100, 300, 4},
                  [&] { return Env->now(); });
  EXPECT_EQ(Loop.run(), StopReason::Time);
  // Batches end at 30, 150, 270 and 390 simulated seconds.
  EXPECT_EQ(S.graph().evaluated(), 13u);
  EXPECT_DOUBLE_EQ(Loop.progress().Seconds, 390);
}

TEST(SearchLoopTest, StopsWhenTheSpaceIsExhausted) {
  auto Env = env(treeTable(2, 2));
  MctsStrategy S(*Env);
  SearchLoop Loop(S, *Env, SearchBudget{100, 0, 4});
  EXPECT_EQ(Loop.run(), StopReason::Exhausted);
  EXPECT_EQ(S.graph().evaluated(), 7u); // 1 + 2 + 4: everything, once.
  EXPECT_EQ(toString(StopReason::Exhausted), "exhausted");
}

TEST(SearchLoopTest, StopsWhenAskedAndDropsTheBatchInFlight) {
  auto Env = env(treeTable(3, 4));
  MctsStrategy S(*Env);
  SearchLoop Loop(S, *Env, SearchBudget{100, 0, 4});
  // Asked while the second batch (four candidates) is measured.
  Loop.stopWhen([&] { return Env->measurements() > 1; });
  EXPECT_EQ(Loop.run(), StopReason::Interrupted);
  EXPECT_EQ(Env->measurements(), 5u);
  // Only the original counts: the batch the stop cut short is not told.
  EXPECT_EQ(S.graph().evaluated(), 1u);
  EXPECT_EQ(toString(StopReason::Interrupted), "interrupted");
}

TEST(SearchLoopTest, AStopAskedBeforeMeasuresNothing) {
  auto Env = env(treeTable(2, 2));
  MctsStrategy S(*Env);
  SearchLoop Loop(S, *Env, SearchBudget{100, 0, 4});
  Loop.stopWhen([] { return true; });
  EXPECT_EQ(Loop.run(), StopReason::Interrupted);
  EXPECT_EQ(Env->measurements(), 0u);
}

struct Outcome {
  StopReason Why;
  unsigned Evaluated;
  std::string Internal;
};

/// A search of a two-level binary tree whose state r1 answers with an
/// error of kind \p Kind.
Outcome searchFailingAt(ErrorKind Kind, unsigned BatchSize) {
  auto Env = env(treeTable(2, 2));
  FailingAt E(*Env, "r1", Kind);
  MctsStrategy S(E);
  StopReason Why = SearchLoop(S, *Env, SearchBudget{100, 0, BatchSize}).run();
  return {Why, S.graph().evaluated(), S.graph().internalError()};
}

TEST(SearchLoopTest, StopsOnAnInternalErrorFromTheExpander) {
  Outcome O = searchFailingAt(ErrorKind::Internal, 1);
  EXPECT_EQ(O.Why, StopReason::Internal);
  EXPECT_EQ(O.Internal, "finding 'dram-bound' suggests transform 'vectorise', "
                        "which is not registered");
  EXPECT_LT(O.Evaluated, 7u);
  EXPECT_EQ(toString(StopReason::Internal), "internal error");
}

TEST(SearchLoopTest, OtherExpanderErrorsOnlyEndTheirBranch) {
  Outcome O = searchFailingAt(ErrorKind::BadInput, 4);
  EXPECT_EQ(O.Why, StopReason::Exhausted);
  EXPECT_EQ(O.Evaluated, 5u); // r1's two children are never seen.
  EXPECT_TRUE(O.Internal.empty());
}

} // namespace

namespace {

/// The simulated environment's measurements, with prepare() noted: what a
/// measurer that builds the next batch while this one runs sees.
class PreparingMeasurer : public Measurer {
public:
  explicit PreparingMeasurer(SimulatedEnvironment &Env) : Env(Env) {}
  Measurement measure(const Candidate &C) override { return Env.measure(C); }
  std::vector<Measurement>
  measureAll(llvm::ArrayRef<Candidate> Batch) override {
    Calls.push_back("measure " + hashes(Batch));
    return Env.measureAll(Batch);
  }
  bool preparesAhead() const override { return true; }
  void prepare(llvm::ArrayRef<Candidate> Next) override {
    Calls.push_back("prepare " + hashes(Next));
  }
  static std::string hashes(llvm::ArrayRef<Candidate> Batch) {
    std::string Out;
    for (const Candidate &C : Batch)
      Out += C.Hash + " ";
    return Out;
  }
  SimulatedEnvironment &Env;
  std::vector<std::string> Calls;
};

TEST(SearchLoopTest, TheNextBatchIsPreparedWhileThisOneIsMeasured) {
  auto Env = env(treeTable(3, 4));
  MctsStrategy S(*Env);
  PreparingMeasurer M(*Env);
  SearchLoop Loop(S, M, SearchBudget{10, 0, 4});
  EXPECT_EQ(Loop.run(), StopReason::Budget);
  // The budget holds with a batch in flight: nothing proposed past it.
  EXPECT_EQ(S.graph().evaluated(), 10u);
  EXPECT_EQ(Env->measurements(), 10u);
  // Each prepared batch is the next one measured, and it was prepared
  // before the batch ahead of it was measured.
  unsigned Prepared = 0;
  for (size_t I = 0; I < M.Calls.size(); ++I) {
    llvm::StringRef Call = M.Calls[I];
    if (!Call.consume_front("prepare "))
      continue;
    ++Prepared;
    std::vector<std::string> Measured;
    for (size_t J = I + 1; J < M.Calls.size() && Measured.size() < 2; ++J)
      if (llvm::StringRef(M.Calls[J]).starts_with("measure "))
        Measured.push_back(M.Calls[J]);
    ASSERT_EQ(Measured.size(), 2u) << "prepared, never measured: " << Call.str();
    EXPECT_NE(Measured[0], "measure " + Call.str());
    EXPECT_EQ(Measured[1], "measure " + Call.str());
  }
  EXPECT_GE(Prepared, 1u);
}

TEST(SearchLoopTest, PreparingAheadStillExploresEverythingOnce) {
  auto Env = env(treeTable(2, 2));
  MctsStrategy S(*Env);
  PreparingMeasurer M(*Env);
  SearchLoop Loop(S, M, SearchBudget{100, 0, 4});
  EXPECT_EQ(Loop.run(), StopReason::Exhausted);
  EXPECT_EQ(S.graph().evaluated(), 7u);
  EXPECT_EQ(Env->measurements(), 7u);
}

} // namespace
