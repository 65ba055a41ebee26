//===- MctsStrategyTest.cpp - selection, widening, pruning, batches -------===//

#include "optiml/Search/MctsStrategy.h"
#include "SearchTestUtil.h"
#include "optiml/Search/TrajectoryReport.h"

#include <cmath>
#include <set>

using namespace optiml;
using namespace optiml::test;
using nlohmann::json;

namespace {

/// Root (100 ns) with three moves: a (prior 0.5) to 2x, b (0.3) to 1x,
/// c (0.2) to 4x; each child has one move further.
json threeChildren() {
  json States = {
      {"r", state(100, {move("a", "k", 0.5, "A"), move("b", "k", 0.3, "B"),
                        move("c", "k", 0.2, "C")})},
      {"A", state(50, {move("x", "k", 1, "AX")})},
      {"B", state(100, {move("x", "k", 1, "BX")})},
      {"C", state(25, {move("x", "k", 1, "CX")})},
      {"AX", state(50)},
      {"BX", state(100)},
      {"CX", state(25)}};
  return {{"root", "r"}, {"noise", 0.0}, {"states", States}};
}

MctsOptions wide(double CPuct) {
  MctsOptions O;
  O.CPuct = CPuct;
  O.WidenK = 100; // Every move at once: selection alone is under test.
  O.MaxWeight = 0;
  return O;
}

TEST(MctsStrategyTest, PuctPicksAsComputedByHand) {
  auto Env = env(threeChildren());
  MctsStrategy S(*Env, wide(1.0));
  ASSERT_EQ(round(S, *Env, 4).size(), 1u); // The original alone first.
  ASSERT_EQ(round(S, *Env, 3).size(), 3u);
  const SearchGraph &G = S.graph();
  // Rewards: r 0, A log2(2) = 1, B 0, C log2(4) = 2; normalized by the
  // range [0, 2]. The root has 4 visits; each edge 1.
  ASSERT_EQ(G.node(SearchGraph::Root).Visits, 4u);
  EXPECT_DOUBLE_EQ(G.node(SearchGraph::Root).ValueSum, 3.0);
  // Edges are sorted by prior: a, b, c.
  // Q + 1 x P x sqrt(4) / (1 + 1):
  EXPECT_DOUBLE_EQ(S.puct(SearchGraph::Root, 0), 0.5 + 0.5); // a
  EXPECT_DOUBLE_EQ(S.puct(SearchGraph::Root, 1), 0.0 + 0.3); // b
  EXPECT_DOUBLE_EQ(S.puct(SearchGraph::Root, 2), 1.0 + 0.2); // c
  EXPECT_EQ(S.selectEdge(SearchGraph::Root), 2u);
  std::vector<Candidate> Next = S.propose(1);
  ASSERT_EQ(Next.size(), 1u);
  EXPECT_EQ(Next[0].Hash, "CX");
}

TEST(MctsStrategyTest, LargerExplorationWeightFollowsThePrior) {
  auto Env = env(threeChildren());
  MctsStrategy S(*Env, wide(5.0));
  round(S, *Env, 1);
  round(S, *Env, 3);
  // a: 0.5 + 5 x 0.5 = 3.0; b: 0 + 5 x 0.3 = 1.5; c: 1 + 5 x 0.2 = 2.0.
  EXPECT_DOUBLE_EQ(S.puct(SearchGraph::Root, 0), 3.0);
  EXPECT_EQ(S.selectEdge(SearchGraph::Root), 0u);
  EXPECT_EQ(S.propose(1)[0].Hash, "AX");
}

unsigned children(const SearchGraph &G, int N) {
  unsigned Count = 0;
  for (const SearchEdge &E : G.node(N).Edges)
    Count += E.Kind == EdgeKind::Child;
  return Count;
}

TEST(MctsStrategyTest, ProgressiveWideningGrowsChildrenWithVisits) {
  auto Env = env(treeTable(3, 5, /*Falling=*/true));
  MctsOptions O;
  O.WidenK = 1, O.WidenAlpha = 0.5, O.WidenBeta = 0; // floor(sqrt(N)).
  MctsStrategy S(*Env, O);
  round(S, *Env, 1);
  const SearchGraph &G = S.graph();
  for (unsigned I = 0; I < 30; ++I) {
    unsigned Visits = G.node(SearchGraph::Root).Visits;
    ASSERT_EQ(round(S, *Env, 1).size(), 1u);
    unsigned Expected = std::min(5u, unsigned(std::sqrt(double(Visits))));
    EXPECT_EQ(children(G, SearchGraph::Root), Expected)
        << "after " << Visits << " visits";
  }
  EXPECT_EQ(children(G, SearchGraph::Root), 5u);
}

TEST(MctsStrategyTest, ARegressionFreesItsPlaceUnderTheWideningLimit) {
  // The root's likeliest move regresses (0.3x); the one after it is 3x.
  json States = {
      {"r", state(100, {move("stage", "k", 0.6, "S"), move("warp", "k", 0.4,
                                                            "W")})},
      {"S", state(330, {move("x", "k", 1, "SX")})},
      {"SX", state(300)},
      {"W", state(33)}};
  auto Env = env({{"root", "r"}, {"noise", 0.0}, {"states", States}});
  MctsOptions O;
  O.WidenK = 1, O.WidenAlpha = 0.5, O.WidenBeta = 0;
  MctsStrategy S(*Env, O);
  round(S, *Env, 1);
  ASSERT_EQ(round(S, *Env, 1).front().Steps.front().Transform, "stage");
  // One place at the root, but the regression does not hold it: the next
  // candidate is the root's other move, not one below the regression.
  std::vector<Candidate> Next = round(S, *Env, 1);
  ASSERT_EQ(Next.size(), 1u);
  EXPECT_EQ(Next.front().Steps.size(), 1u);
  EXPECT_EQ(Next.front().Steps.front().Transform, "warp");
}

TEST(MctsStrategyTest, MovesThatChangeNothingHoldNoPlaceWhileNothingPays) {
  // histo_global's shape: four likely moves that change nothing, each with
  // moves below that change nothing either; the fifth pays 100x.
  json States = {
      {"r", state(100, {move("a", "k", 0.3, "A"), move("b", "k", 0.25, "B"),
                        move("c", "k", 0.2, "C"), move("d", "k", 0.15, "D"),
                        move("e", "k", 0.1, "E")})},
      {"E", state(1, {move("x", "k", 1, "EX")})},
      {"EX", state(0.5)}};
  for (const char *Name : {"A", "B", "C", "D"}) {
    std::string N = Name;
    States[N] = state(
        100, {move("x", "k", 0.5, N + "X"), move("y", "k", 0.5, N + "Y")});
    States[N + "X"] = state(100);
    States[N + "Y"] = state(100.5);
  }
  auto Env = env({{"root", "r"}, {"noise", 0.0}, {"states", States}});
  MctsStrategy S(*Env);
  for (unsigned I = 0; I < 7; ++I)
    round(S, *Env, 1);
  // The root's five moves first, then the one that paid, deeper.
  EXPECT_EQ(Env->timesMeasured("E"), 1u);
  EXPECT_EQ(Env->timesMeasured("EX"), 1u);
  EXPECT_EQ(S.graph().node(S.graph().best()).Hash, "EX");
}

/// sum_atomic's shape: four likely moves, the first of which takes
/// \p ATimeNs against the original's 100 and has a move below it; the
/// fifth pays 5x.
static json fifthPays(double ATimeNs) {
  json States = {
      {"r", state(100, {move("a", "k", 0.3, "A"), move("b", "k", 0.25, "B"),
                        move("c", "k", 0.2, "C"), move("d", "k", 0.15, "D"),
                        move("e", "k", 0.1, "E")})},
      {"A", state(ATimeNs, {move("x", "k", 1, "AX")})},
      {"AX", state(ATimeNs - 1)},
      {"B", state(100)},
      {"C", state(100)},
      {"D", state(100)},
      {"E", state(20)}};
  return {{"root", "r"}, {"noise", 0.0}, {"states", States}};
}

/// The candidate after the root's first round (a, b, c, d) is back, when
/// a's result came back first and MCTS was asked for one more then.
static std::string afterFirstRound(double ATimeNs) {
  auto Env = env(fifthPays(ATimeNs));
  MctsStrategy S(*Env);
  round(S, *Env, 1);
  std::vector<Candidate> InFlight = S.propose(4);
  EXPECT_EQ(InFlight.size(), 4u);
  if (InFlight.size() != 4)
    return "";
  S.notify({{InFlight[0].Id, Env->measure(InFlight[0])}});
  // b, c and d still in flight: nothing starts, neither below a nor e.
  EXPECT_TRUE(S.propose(1).empty());
  for (unsigned I = 1; I < 4; ++I)
    S.notify({{InFlight[I].Id, Env->measure(InFlight[I])}});
  std::vector<Candidate> Next = S.propose(1);
  return Next.size() == 1 ? Next[0].Hash : "";
}

TEST(MctsStrategyTest, NothingStartsWhileARoundThatMayHelpIsInFlight) {
  // The round is back and nothing helped: the next round at the root.
  EXPECT_EQ(afterFirstRound(100), "E");
}

TEST(MctsStrategyTest, AStepThatHelpedALittleIsWhereTheNextRoundGoes) {
  // a helped 3%: below it, as greedy goes (scan_block_hs found unroll
  // below warp-scan's 3%, softmax_block_row below fast-math's 7%).
  EXPECT_EQ(afterFirstRound(97), "AX");
}

TEST(MctsStrategyTest, PromisingNodesWidenFaster) {
  auto Env = env(threeChildren());
  MctsOptions O = wide(1.0);
  O.WidenK = 1, O.WidenAlpha = 0.5, O.WidenBeta = 1;
  MctsStrategy S(*Env, O);
  round(S, *Env, 1);
  // A batch of three: the root widens past its limit while its children
  // are in flight.
  round(S, *Env, 3);
  ASSERT_EQ(children(S.graph(), SearchGraph::Root), 3u);
  // Same visits (1 each); C is the best (value 1), B the worst (0):
  // floor(1 x 1 x (1 + 1)) = 2 against floor(1 x 1 x (1 - 1)), at least 1.
  int B = S.graph().find("B"), C = S.graph().find("C");
  ASSERT_EQ(S.graph().node(B).Visits, S.graph().node(C).Visits);
  EXPECT_EQ(S.widenLimit(C), 2u);
  EXPECT_EQ(S.widenLimit(B), 1u);
}

TEST(MctsStrategyTest, ABatchNeverPicksTheSameLeafTwice) {
  auto Env = env(treeTable(3, 4));
  MctsStrategy S(*Env);
  round(S, *Env, 1);
  std::set<std::string> Seen;
  for (unsigned I = 0; I < 10; ++I) {
    std::vector<Candidate> Batch = S.propose(4);
    std::set<std::string> InBatch;
    for (const Candidate &C : Batch) {
      EXPECT_TRUE(InBatch.insert(C.Hash).second) << C.Hash;
      EXPECT_TRUE(Seen.insert(C.Hash).second) << C.Hash;
    }
    std::vector<CandidateResult> Results;
    for (const Candidate &C : Batch)
      Results.push_back({C.Id, Env->measure(C)});
    S.notify(Results);
  }
  EXPECT_GT(Seen.size(), 30u);
}

/// The second leaf of a batch of two, after the root's children A (2x)
/// and B (\p BSpeedup) were measured: A's child AX is the first leaf. A
/// has a second move, AY, unless \p AHasOneMove. Empty when the batch
/// waits after AX.
static std::string secondLeaf(double BSpeedup, bool AHasOneMove = false) {
  json AMoves = {move("x", "k", 1, "AX")};
  if (!AHasOneMove)
    AMoves.push_back(move("y", "k", 1, "AY"));
  json States = {
      {"r", state(100, {move("a", "k", 0.5, "A"), move("b", "k", 0.5, "B")})},
      {"A", state(50, AMoves)},
      {"B", state(100 / BSpeedup, {move("x", "k", 1, "BX")})},
      {"AX", state(50)},
      {"AY", state(50)},
      {"BX", state(50)}};
  auto Env = env({{"root", "r"}, {"noise", 0.0}, {"states", States}});
  MctsOptions O = wide(1.0);
  O.WidenK = 1, O.WidenBeta = 1;
  MctsStrategy S(*Env, O);
  round(S, *Env, 1);
  round(S, *Env, 2); // A and B.
  std::vector<Candidate> Batch = S.propose(2);
  EXPECT_EQ(Batch.empty() ? "" : Batch[0].Hash, "AX");
  return Batch.size() == 2 ? Batch[1].Hash : "";
}

TEST(MctsStrategyTest, ABatchStaysWithAClearLeader) {
  // B at 1.5x normalizes to 0.585 of A's 2x.
  EXPECT_EQ(secondLeaf(1.5), "AY");
}

TEST(MctsStrategyTest, ABatchFillsTheLeadersRoundBeforeARunnerUpWithinReach) {
  // B at 1.9x normalizes to 0.926: its exploration term would win the leaf
  // (1 + 0.5 sqrt(4) / 3 < 0.926 + 0.5 sqrt(4) / 2), but A's round is
  // open and A is the best.
  EXPECT_EQ(secondLeaf(1.9), "AY");
}

TEST(MctsStrategyTest, ALeaderWithNothingToStartLeavesTheLeafToARunnerUp) {
  // AX was A's last move: the visit in flight lowers only A's exploration
  // term, and B within reach wins the leaf.
  EXPECT_EQ(secondLeaf(1.9, /*AHasOneMove=*/true), "BX");
  // A clear leader keeps it and waits.
  EXPECT_EQ(secondLeaf(1.5, /*AHasOneMove=*/true), "");
}

TEST(MctsStrategyTest, NodesNoBetterThanTheOriginalAreWorthNothing) {
  // A 0.2x regression must not make the 1.0x child look two thirds as
  // good as the 2x one: values run from the original's reward to the best.
  json States = {
      {"r", state(100, {move("bad", "k", 0.4, "B"), move("flat", "k", 0.3, "F"),
                        move("good", "k", 0.3, "G")})},
      {"B", state(500, {move("x", "k", 1, "BX")})},
      {"F", state(100, {move("x", "k", 1, "FX"), move("y", "k", 1, "FY")})},
      {"G", state(50, {move("x", "k", 1, "GX"), move("y", "k", 1, "GY"),
                       move("z", "k", 1, "GZ")})},
      {"BX", state(500)},
      {"FX", state(100)},
      {"FY", state(100)},
      {"GX", state(50)},
      {"GY", state(50)},
      {"GZ", state(50)}};
  auto Env = env({{"root", "r"}, {"noise", 0.0}, {"states", States}});
  MctsStrategy S(*Env, wide(1.0));
  round(S, *Env, 1);
  round(S, *Env, 3);
  const SearchGraph &G = S.graph();
  auto Value = [&](const char *Hash) {
    return G.normalize(*G.node(G.find(Hash)).Reward);
  };
  EXPECT_EQ(Value("G"), 1.0);
  EXPECT_EQ(Value("F"), 0.0);
  EXPECT_EQ(Value("B"), 0.0);
  // So the next batch goes to the 2x child's moves.
  std::vector<Candidate> Batch = S.propose(3);
  ASSERT_EQ(Batch.size(), 3u);
  for (const Candidate &C : Batch)
    EXPECT_EQ(C.Hash[0], 'G') << C.Hash;
}

TEST(MctsStrategyTest, FailedCandidatesPruneTheirSubtree) {
  json States = {{"r", state(100, {move("bad", "k", 0.9, "X"),
                                   move("ok", "k", 0.1, "Y")})},
                 {"X",
                  {{"status", "verify_failed"},
                   {"log", "mismatch"},
                   {"actions", json::array({move("z", "k", 1, "XZ")})}}},
                 {"Y", state(50, {move("z", "k", 1, "YZ")})},
                 {"XZ", state(10)},
                 {"YZ", state(40)}};
  auto Env = env({{"root", "r"}, {"noise", 0.0}, {"states", States}});
  MctsStrategy S(*Env, wide(1.0));
  round(S, *Env, 1);
  round(S, *Env, 2);
  const SearchGraph &G = S.graph();
  EXPECT_EQ(G.node(G.find("X")).State, NodeState::Failed);
  EXPECT_FALSE(G.node(G.find("X")).Reward.has_value());
  EXPECT_EQ(G.failed(), 1u);
  std::vector<Candidate> Next = round(S, *Env, 4);
  ASSERT_EQ(Next.size(), 1u);
  EXPECT_EQ(Next[0].Hash, "YZ"); // Never XZ, below the failure.
  EXPECT_TRUE(S.propose(4).empty());
  EXPECT_EQ(G.find("XZ"), -1);
}

TEST(MctsStrategyTest, ATransformThatKeepsFailingGetsItsPriorCut) {
  json Refused = {{"step", "tile(site=k/for#0)"},
                  {"prior", 0.35},
                  {"error", "illegal: the loop carries a dependence"}};
  json States = {{"r", state(100, {Refused, move("tile", "k/for#1", 0.3, "T1"),
                                   move("tile", "k/for#2", 0.21, "T2"),
                                   move("unroll", "k/for#0", 0.14, "U")})},
                 {"T1", {{"status", "build_failed"}, {"log", "error: ..."}}},
                 {"T2", state(50)},
                 {"U", state(90)}};
  auto Env = env({{"root", "r"}, {"noise", 0.0}, {"states", States}});
  MctsStrategy S(*Env, wide(1.0));
  round(S, *Env, 1);
  // The refusal halves tile's priors, so T1 (0.3 x 0.5) still beats
  // unroll (0.14); T1 fails to build, and tile is at a quarter: unroll
  // now comes before T2 (0.21 x 0.25).
  EXPECT_EQ(round(S, *Env, 1)[0].Hash, "T1");
  EXPECT_EQ(S.graph().failures().failures("tile"), 2u);
  EXPECT_EQ(round(S, *Env, 1)[0].Hash, "U");
  EXPECT_EQ(round(S, *Env, 1)[0].Hash, "T2");
  const SearchNode &Root = S.graph().node(SearchGraph::Root);
  EXPECT_EQ(Root.Edges[0].Kind, EdgeKind::ApplyFailed);
  EXPECT_EQ(Root.Edges[0].Error, "illegal: the loop carries a dependence");
}

TEST(MctsStrategyTest, TranspositionsAreMeasuredOnce) {
  // tile then unroll, or unroll then tile: the same source.
  json States = {{"r", state(100, {move("tile", "k", 0.5, "T"),
                                   move("unroll", "k", 0.5, "U")})},
                 {"T", state(60, {move("unroll", "k", 1, "TU")})},
                 {"U", state(90, {move("tile", "k", 1, "TU")})},
                 {"TU", state(40)}};
  auto Env = env({{"root", "r"}, {"noise", 0.0}, {"states", States}});
  MctsStrategy S(*Env, wide(1.0));
  while (!round(S, *Env, 4).empty())
    ;
  const SearchGraph &G = S.graph();
  EXPECT_EQ(G.size(), 4u);
  EXPECT_EQ(G.evaluated(), 4u);
  EXPECT_EQ(Env->timesMeasured("TU"), 1u);
  int TU = G.find("TU");
  unsigned Parents = 0;
  for (int N : {G.find("T"), G.find("U")})
    for (const SearchEdge &E : G.node(N).Edges)
      Parents += E.Kind == EdgeKind::Child && E.Child == TU;
  EXPECT_EQ(Parents, 2u);
  EXPECT_EQ(G.best(), TU);
  EXPECT_EQ(G.node(TU).Steps.size(), 2u); // The first trace that got there.
}

TEST(MctsStrategyTest, MovesBackUpTheGraphAreRedundant) {
  json States = {{"r", state(100, {move("a", "k", 1, "A")})},
                 {"A", state(50, {move("undo", "k", 0.5, "r"),
                                  move("same", "k", 0.5, "A")})}};
  auto Env = env({{"root", "r"}, {"noise", 0.0}, {"states", States}});
  MctsStrategy S(*Env, wide(1.0));
  while (!round(S, *Env, 4).empty())
    ;
  const SearchNode &A = S.graph().node(S.graph().find("A"));
  for (const SearchEdge &E : A.Edges)
    EXPECT_EQ(E.Kind, EdgeKind::Redundant);
  EXPECT_EQ(S.graph().evaluated(), 2u);
}

TEST(MctsStrategyTest, NothingBeyondAFailedOriginal) {
  json States = {{"r", state(100, {move("a", "k", 1, "A")})}, {"A", state(50)}};
  auto Env = env({{"root", "r"}, {"noise", 0.0}, {"states", States}});
  MctsStrategy S(*Env);
  std::vector<Candidate> First = S.propose(4);
  ASSERT_EQ(First.size(), 1u);
  EXPECT_TRUE(First[0].Steps.empty());
  EXPECT_TRUE(S.propose(4).empty()); // Still in flight.
  Measurement Broken;
  Broken.Status = CandidateStatus::VerifyFailed;
  S.notify({{First[0].Id, Broken}});
  EXPECT_TRUE(S.propose(4).empty());
}

} // namespace

/// Root (100 ns): a single coarsening step that is slower (200 ns), and a
/// chain of three steps, measured only at its end (25 ns); a second chain
/// ends in a kernel that fails verification.
json chainTable() {
  json Chain = move("chain:register-block", "k", 0.4, "Blocked");
  Chain["step"] = "chain:register-block(site=k,y=4,x=4,tile=16)";
  Chain["steps"] = {"coarsen(site=k,dim=y,factor=4)",
                    "coarsen(site=k,dim=x,factor=4)",
                    "stage-shared(site=k/for#1/A,tile=16)"};
  json Broken = move("chain:stage-operands", "k", 0.2, "Wrong");
  Broken["step"] = "chain:stage-operands(site=k,tile=16)";
  Broken["steps"] = {"stage-shared(site=k/for#0/A,tile=16)",
                     "stage-shared(site=k/for#0/B,tile=16)"};
  json States = {{"r", state(100, {move("coarsen", "k", 0.4, "Slow"), Chain,
                                    Broken})},
                 {"Slow", state(200)},
                 {"Blocked", state(25)},
                 {"Wrong", {{"status", "verify_failed"}, {"log", "differ"}}}};
  return {{"root", "r"}, {"noise", 0.0}, {"states", States}};
}

TEST(MctsStrategyTest, AChainIsOneMoveWhoseTraceHoldsEveryStep) {
  auto Env = env(chainTable());
  MctsStrategy S(*Env, wide(1.0));
  round(S, *Env, 1);
  std::vector<Candidate> Issued = round(S, *Env, 3);
  const SearchGraph &G = S.graph();
  // Each candidate names the move that made it: the chain, not its last
  // link.
  std::set<std::string> Moves;
  for (const Candidate &C : Issued)
    Moves.insert(C.Move);
  EXPECT_EQ(Moves, (std::set<std::string>{"coarsen", "chain:register-block",
                                          "chain:stage-operands"}));
  // Three candidates after the original: the chain's inner states were
  // never measured.
  EXPECT_EQ(Env->measurements(), 4u);
  int Blocked = G.find("Blocked");
  ASSERT_GE(Blocked, 0);
  EXPECT_EQ(G.best(), Blocked);
  EXPECT_EQ(toString(G.node(Blocked).Steps),
            "coarsen(site=k,dim=y,factor=4); coarsen(site=k,dim=x,factor=4); "
            "stage-shared(site=k/for#1/A,tile=16)");
  // The failure counts against the chain that made it, not against the
  // transform of its last link.
  EXPECT_LT(S.graph().failures().priorScale("chain:stage-operands"), 1.0);
  EXPECT_EQ(S.graph().failures().priorScale("stage-shared"), 1.0);
  // The report shows the chain as the steps it took, which --apply replays.
  Trajectory T = buildTrajectory(S.graph(), *Env, "k", "mcts");
  ASSERT_EQ(T.Steps.size(), 1u);
  EXPECT_EQ(T.Steps[0].Step, toString(G.node(Blocked).Steps));
  EXPECT_EQ(T.BestTrace, T.Steps[0].Step);
}
