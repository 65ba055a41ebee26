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

/// Answers every candidate after the original as a twin of the original,
/// as the Driver's measurer does for code it measured before.
class AllTwins : public Measurer {
public:
  explicit AllTwins(SimulatedEnvironment &E) : E(E) {}
  Measurement measure(const Candidate &C) override {
    Measurement M = E.measure(C);
    if (C.Hash != E.rootHash()) {
      M.Cached = true;
      M.TwinOf = E.rootHash();
    }
    return M;
  }
  SimulatedEnvironment &E;
};

TEST(SearchLoopTest, TwinsAreFreeUnlessDatabaseAnswersCountAndHaveNoMoves) {
  for (bool CountCached : {false, true}) {
    auto Env = env(treeTable(3, 4));
    AllTwins M(*Env);
    MctsStrategy S(*Env);
    SearchBudget B{3, 0, 3};
    B.CountCached = CountCached;
    SearchLoop Loop(S, M, B);
    SearchProgress Last;
    Loop.onProgress([&](const SearchProgress &P) { Last = P; });
    StopReason Why = Loop.run();
    const SearchGraph &G = S.graph();
    EXPECT_EQ(G.evaluated(), 1u); // The original alone.
    EXPECT_EQ(G.twins(), G.cached());
    EXPECT_EQ(Last.Twins, G.twins());
    for (const HistoryPoint &P : G.history())
      EXPECT_EQ(P.TwinOf.empty(), P.Hash == Env->rootHash());
    if (CountCached) {
      // Counted like database answers: two twins fill the budget of 3.
      EXPECT_EQ(Why, StopReason::Budget);
      EXPECT_EQ(G.twins(), 2u);
      continue;
    }
    // Free, and each twin of the original has no moves of its own: the
    // search ends after the original's four moves, not inside the table.
    EXPECT_EQ(Why, StopReason::Exhausted);
    EXPECT_EQ(G.twins(), 4u);
    for (size_t N = 1; N < G.size(); ++N) {
      EXPECT_TRUE(G.node(N).Edges.empty());
      EXPECT_NE(G.node(N).ActionsError.find("the same machine code as state"),
                std::string::npos);
    }
  }
}

/// Measures "ra", the state `a` makes of the root, as the root's twin.
class InertA : public Measurer {
public:
  explicit InertA(SimulatedEnvironment &E) : E(E) {}
  Measurement measure(const Candidate &C) override {
    Measurement M = E.measure(C);
    if (C.Hash == "ra") {
      Candidate Root = C;
      Root.Hash = E.rootHash();
      M = E.measure(Root);
      M.Cached = true;
      M.TwinOf = E.rootHash();
    }
    return M;
  }
  SimulatedEnvironment &E;
};

TEST(SearchLoopTest, AStepThatBuiltItsStatesCodeGoesLastBelow) {
  // `a` and `c` rank level below "rb"; `a` changed nothing at the root.
  nlohmann::json Table = {
      {"root", "r"},
      {"noise", 0.0},
      {"states",
       {{"r",
         state(100, {move("a", "k", 0.5, "ra"), move("b", "k", 0.5, "rb")})},
        {"ra", state(100)},
        {"rb",
         state(50, {move("a", "k", 0.5, "rba"), move("c", "k", 0.5, "rbc")})},
        {"rba", state(50)},
        {"rbc", state(40)}}}};
  auto Env = env(Table);
  InertA M(*Env);
  MctsStrategy S(*Env);
  SearchLoop(S, M, SearchBudget{3, 0, 1}).run();
  const SearchGraph &G = S.graph();
  int Rb = G.find("rb");
  ASSERT_GE(Rb, 0);
  ASSERT_EQ(G.node(Rb).Edges.size(), 2u);
  // Sorted by prior: c first, a far behind.
  EXPECT_EQ(G.node(Rb).Edges[0].Move.Action.Transform, "c");
  EXPECT_EQ(G.node(Rb).Edges[1].Move.Action.Transform, "a");
  EXPECT_LT(G.node(Rb).Edges[1].Prior, 0.1);
  // So rb's first child measured is c's.
  EXPECT_GE(G.find("rbc"), 0);
  EXPECT_LT(G.find("rba"), 0);
}

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

TEST(SearchLoopTest, PipelinedKeepsTheWindowFullWithinTheBudget) {
  auto Env = env(treeTable(3, 4));
  MctsOptions O;
  O.RoundWidth = 100; // Never waits for a round to come back.
  MctsStrategy S(*Env, O);
  PipelinedMeasurer M(*Env);
  SearchLoop Loop(S, M, SearchBudget{10, 0, 4, /*Pipelined=*/true});
  std::vector<SearchProgress> Seen;
  Loop.onProgress([&](const SearchProgress &P) { Seen.push_back(P); });
  EXPECT_EQ(Loop.run(), StopReason::Budget);
  EXPECT_EQ(S.graph().evaluated(), 10u);
  EXPECT_EQ(Env->measurements(), 10u);
  EXPECT_EQ(M.MostInFlight, 4u);
  // The original alone, then four in flight, and a new one proposed as
  // each comes back until the budget is spoken for; the last are drained.
  EXPECT_EQ(M.Calls, "sc"
                     "ssss"
                     "cs"
                     "cs"
                     "cs"
                     "cs"
                     "cs"
                     "c"
                     "c"
                     "c"
                     "c");
  ASSERT_EQ(Seen.size(), 10u); // Progress after every result.
  EXPECT_EQ(Seen.back().Evaluated, 10u);
}

TEST(SearchLoopTest, PipelinedExploresEverythingOnceInAnyOrder) {
  auto Env = env(treeTable(2, 2));
  MctsStrategy S(*Env);
  PipelinedMeasurer M(*Env);
  SearchLoop Loop(S, M, SearchBudget{100, 0, 4, true});
  EXPECT_EQ(Loop.run(), StopReason::Exhausted);
  EXPECT_EQ(S.graph().evaluated(), 7u);
  EXPECT_EQ(Env->measurements(), 7u);
  EXPECT_TRUE(M.InFlight.empty());
}

TEST(SearchLoopTest, PipelinedStopsAtTheTimeBudgetAndToldWhatWasInFlight) {
  nlohmann::json Table = treeTable(3, 4);
  Table["seconds_per_candidate"] = 30;
  auto Env = env(Table);
  MctsStrategy S(*Env);
  SearchLoop Loop(S, *Env, SearchBudget{100, 300, 4, true},
                  [&] { return Env->now(); });
  EXPECT_EQ(Loop.run(), StopReason::Time);
  // Ten results reach 300 s; the three still in flight are measured and
  // told, as a batch in flight would be.
  EXPECT_EQ(S.graph().evaluated(), 13u);
  EXPECT_EQ(Env->measurements(), 13u);
  EXPECT_DOUBLE_EQ(Loop.progress().Seconds, 390);
}

TEST(SearchLoopTest, PipelinedDropsWhatIsInFlightWhenAskedToStop) {
  auto Env = env(treeTable(3, 4));
  MctsStrategy S(*Env);
  PipelinedMeasurer M(*Env);
  SearchLoop Loop(S, M, SearchBudget{100, 0, 4, true});
  Loop.stopWhen([&] { return Env->measurements() > 2; });
  EXPECT_EQ(Loop.run(), StopReason::Interrupted);
  EXPECT_EQ(Env->measurements(), 3u);
  // The original and the first child back before the stop; the third
  // result came in after it and is not told.
  EXPECT_EQ(S.graph().evaluated(), 2u);
}

} // namespace
