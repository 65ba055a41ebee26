//===- RetuneTest.cpp - a helpful step's other values, in its place ---===//

#include "SearchTestUtil.h"
#include "optiml/Search/GreedyStrategy.h"
#include "optiml/Search/MctsStrategy.h"
#include "optiml/Search/TrajectoryReport.h"

#include <set>

using namespace optiml;
using namespace optiml::test;
using nlohmann::json;

namespace {

/// linear_nt's shape: the tensor-core rewrite at its default tile (64)
/// pays 29x; its tile 128, ranked last among the original's moves, pays
/// 49x; register blocking (B) pays 2x and its children little more. With
/// \p Named a different transform, tile 128 is no retune of tile 64.
json tensorCores(const std::string &Named = "tc") {
  json States = {
      {"r", state(1000, {move("block", "k", 0.30, "B"),
                         step("tc(site=k,tile=64)", 0.25, "T64"),
                         move("restrict", "k", 0.20, "R"),
                         move("unroll", "k", 0.15, "U"),
                         move("hoist", "k", 0.10, "H"),
                         step(Named + "(site=k,tile=128)", 0.05, "T128"),
                         step("tc(site=k,tile=32)", 0.05, "T32")})},
      {"B", state(500, {move("restrict", "k", 0.5, "BR"),
                        move("unroll", "k", 0.5, "BU")})},
      {"BR", state(480)},
      {"BU", state(490)},
      {"T64", state(34, {move("restrict", "k", 0.7, "T64R"),
                         move("bounds", "k", 0.3, "T64L"),
                         step("tc(site=k,tile=256)", 0.0, "T256")})},
      {"T64R", state(33.5)},
      {"T64L", state(34)},
      {"T256", state(30)},
      {"T128", state(20.4, {move("restrict", "k", 1, "T128R")})},
      {"T128R", state(20)},
      {"T32", state(60)},
      {"R", state(990)},
      {"U", state(1000)},
      {"H", state(1000)}};
  return {{"root", "r"}, {"noise", 0.0}, {"states", States}};
}

/// Runs \p S for \p Budget candidates, one at a time.
void runFor(SearchStrategy &S, Measurer &M, unsigned Budget) {
  for (unsigned I = 0; I < Budget; ++I)
    if (round(S, M, 1).empty())
      break;
}

TEST(RetuneTest, MctsTriesThePayingStepsOtherValuesBeforeGoingDeeper) {
  auto Env = env(tensorCores());
  MctsStrategy S(*Env);
  runFor(S, *Env, 7);
  EXPECT_EQ(Env->timesMeasured("T128"), 1u);
  EXPECT_GE(Env->recordedSpeedup(S.graph().node(S.graph().best()).Hash), 49);
  // Its value went up through the original, whose child it is, and not
  // through T64: a worse value tried in tile 64's place would have said
  // nothing about T64.
  const SearchGraph &G = S.graph();
  int T64 = G.find("T64"), T128 = G.find("T128");
  unsigned ThroughRoot = 0, ThroughT64 = 0;
  for (const SearchEdge &E : G.node(SearchGraph::Root).Edges)
    if (E.Kind == EdgeKind::Child && E.Child == T128)
      ThroughRoot += E.Visits;
  for (const SearchEdge &E : G.node(T64).Edges)
    if (E.Kind == EdgeKind::Child && E.Child == T128)
      ThroughT64 += E.Visits;
  EXPECT_EQ(ThroughRoot, 1u);
  EXPECT_EQ(ThroughT64, 0u);

  // Without the retune (another transform's step), tile 128 waits at the
  // root behind five moves while the search goes below B and T64.
  auto Plain = env(tensorCores("tc2"));
  MctsStrategy P(*Plain);
  runFor(P, *Plain, 7);
  EXPECT_EQ(Plain->timesMeasured("T128"), 0u);
}

TEST(RetuneTest, GreedyClimbsSidewaysToABetterValue) {
  auto Env = env(tensorCores());
  GreedyStrategy S(*Env, GreedyOptions{2});
  runFor(S, *Env, 10);
  const SearchGraph &G = S.graph();
  EXPECT_EQ(G.node(G.best()).Hash, "T128R");
  // The retune's state hangs below the state the step started from: its
  // trace and the report's steps are the original's plus tile 128.
  int T128 = G.find("T128");
  ASSERT_GE(T128, 0);
  EXPECT_EQ(G.node(T128).Parent, SearchGraph::Root);
  EXPECT_EQ(toString(G.node(T128).Steps), "tc(site=k,tile=128)");
  Trajectory T = buildTrajectory(G, *Env, "k", "greedy");
  EXPECT_EQ(T.BestTrace, "tc(site=k,tile=128); restrict(site=k)");
  ASSERT_EQ(T.Steps.size(), 2u);
  EXPECT_EQ(T.Steps[0].Motivation,
            "another value of tc(site=k,tile=64), which paid");
}

TEST(RetuneTest, RetunesComeFirstAndReachTheBaseStatesMoves) {
  auto Env = env(tensorCores());
  GreedyStrategy S(*Env, GreedyOptions{2});
  runFor(S, *Env, 3); // r, then B and T64.
  SearchGraph &G = S.graph();
  int T64 = G.find("T64");
  ASSERT_GE(T64, 0);
  ASSERT_TRUE(G.loadActions(T64));
  const SearchNode &Node = G.node(T64);
  std::vector<std::string> Retunes;
  for (const SearchEdge &E : Node.Edges)
    if (E.Base >= 0)
      Retunes.push_back(E.Move.Action.str());
  // In the table's order of states (T64's moves before the original's).
  EXPECT_EQ(Retunes, (std::vector<std::string>{"tc(site=k,tile=256)",
                                               "tc(site=k,tile=128)",
                                               "tc(site=k,tile=32)"}));
  // Right after the state's likeliest own move, at its prior.
  EXPECT_EQ(Node.Edges[0].Base, -1);
  EXPECT_EQ(Node.Edges[1].Base, SearchGraph::Root);
  EXPECT_DOUBLE_EQ(Node.Edges[0].Prior, Node.Edges[1].Prior);
  EXPECT_GT(Node.Edges[1].Prior, Node.Edges[4].Prior);
  // Tile 256 is recorded only below T64: the original refuses it, and the
  // original gains that move, refused, rather than a second try later.
  unsigned Edge256 = 1;
  EXPECT_EQ(G.expand(T64, Edge256).Kind, ExpandKind::ApplyFailed);
  EXPECT_EQ(G.node(T64).Edges[Edge256].Kind, EdgeKind::ApplyFailed);
  const SearchEdge &AtRoot = G.node(SearchGraph::Root).Edges.back();
  EXPECT_EQ(AtRoot.Move.Action.str(), "tc(site=k,tile=256)");
  EXPECT_EQ(AtRoot.Kind, EdgeKind::ApplyFailed);
}

/// The retunes among the moves of measured state \p Hash.
std::vector<std::string> retunesBelow(SearchGraph &G, const std::string &Hash) {
  std::vector<std::string> Out;
  int N = G.find(Hash);
  EXPECT_GE(N, 0) << Hash;
  if (N < 0)
    return Out;
  G.loadActions(N);
  for (const SearchEdge &E : G.node(N).Edges)
    if (E.Base >= 0)
      Out.push_back(E.Move.Action.str());
  return Out;
}

/// The retunes of T64 when it takes \p TimeNs (the original 1000).
std::vector<std::string> retunesAt(double TimeNs) {
  json Table = tensorCores();
  Table["states"]["T64"]["time_ns"] = TimeNs;
  auto Env = env(Table);
  GreedyStrategy S(*Env, GreedyOptions{2});
  runFor(S, *Env, 3);
  return retunesBelow(S.graph(), "T64");
}

TEST(RetuneTest, OnlyAStepThatHelpsIsRetuned) {
  EXPECT_TRUE(retunesAt(1100).empty()); // Slower.
  EXPECT_TRUE(retunesAt(1000).empty()); // The same.
  EXPECT_EQ(retunesAt(960).size(), 3u); // 4% faster.
  EXPECT_EQ(retunesAt(900).size(), 3u); // 11% faster.
}

/// The retunes below F and C, the original's two likeliest moves, after
/// greedy measured them: F a fast-math step of \p FTimeNs, C a coarsening
/// of 960 (the original 1000).
std::pair<std::vector<std::string>, std::vector<std::string>>
retunesOfFastMathAndCoarsen(double FTimeNs) {
  json States = {
      {"r", state(1000, {step("fm(site=k,ops=all)", 0.3, "F"),
                         step("cs(site=k,dim=y,factor=4)", 0.3, "C"),
                         step("fm(site=k,ops=exp)", 0.1, "E"),
                         step("cs(site=k,dim=x,factor=4)", 0.1, "CX"),
                         step("cs(site=k,dim=y,factor=2)", 0.1, "C2")})},
      {"F", state(FTimeNs)},
      {"C", state(960)},
      {"E", state(1000)},
      {"CX", state(1000)},
      {"C2", state(1000)}};
  auto Env = env({{"root", "r"}, {"noise", 0.0}, {"states", States}});
  GreedyStrategy S(*Env, GreedyOptions{2});
  runFor(S, *Env, 3);
  return {retunesBelow(S.graph(), "F"), retunesBelow(S.graph(), "C")};
}

TEST(RetuneTest, AStepThatHelpedALittleHasOnlyItsNumbersRetuned) {
  auto [F, C] = retunesOfFastMathAndCoarsen(960);
  // Another set of operations is another choice, not another amount.
  EXPECT_TRUE(F.empty());
  EXPECT_EQ(C, std::vector<std::string>{"cs(site=k,dim=y,factor=2)"});
}

TEST(RetuneTest, AStepThatPaidHasEveryValueRetuned) {
  auto [F, C] = retunesOfFastMathAndCoarsen(900);
  EXPECT_EQ(F, std::vector<std::string>{"fm(site=k,ops=exp)"});
}

TEST(RetuneTest, ARetuneBackToItsSiblingIsRedundant) {
  auto Env = env(tensorCores());
  GreedyStrategy S(*Env, GreedyOptions{2});
  runFor(S, *Env, 10);
  SearchGraph &G = S.graph();
  int T128 = G.find("T128");
  ASSERT_GE(T128, 0);
  // From tile 128, tile 64 leads back to T64, which reaches tile 128
  // through its own retune: a cycle, not a child.
  std::optional<unsigned> Back;
  for (unsigned I = 0; I < G.node(T128).Edges.size(); ++I)
    if (G.node(T128).Edges[I].Base >= 0 &&
        G.node(T128).Edges[I].Move.Action.str() == "tc(site=k,tile=64)")
      Back = I;
  ASSERT_TRUE(Back);
  if (G.node(T128).Edges[*Back].Kind == EdgeKind::Unexpanded)
    EXPECT_EQ(G.expand(T128, *Back).Kind, ExpandKind::Redundant);
  EXPECT_EQ(G.node(T128).Edges[*Back].Kind, EdgeKind::Redundant);
  EXPECT_EQ(Env->timesMeasured("T64"), 1u);
}

/// median3x3's shape: nothing pays among the likeliest moves; coarsen at
/// its default factor gains 4%, its factor 2 3.1x but ranks below four
/// other moves at a third of the default's prior.
json smallGain() {
  json States = {
      {"r", state(1000, {step("coarsen(site=k,factor=4)", 0.30, "C4"),
                         move("restrict", "k", 0.20, "R"),
                         move("hoist", "k", 0.15, "H"),
                         move("swap", "k", 0.12, "S"),
                         move("unroll", "k", 0.08, "U"),
                         move("bounds", "k", 0.06, "L"),
                         move("peel", "k", 0.05, "P"),
                         move("fuse", "k", 0.05, "F"),
                         step("coarsen(site=k,factor=2)", 0.1 / 3, "C2"),
                         step("coarsen(site=k,factor=8)", 0.1 / 3, "C8")})},
      {"C4", state(960)},
      {"C2", state(320)},
      {"C8", state(1000)},
      {"R", state(1000)},
      {"H", state(1000)},
      {"S", state(1100)},
      {"U", state(1000)},
      {"L", state(1000)},
      {"P", state(1000)},
      {"F", state(1000)}};
  return {{"root", "r"}, {"noise", 0.0}, {"states", States}};
}

TEST(RetuneTest, AStepThatHelpedALittleHasItsOtherValuesTriedNext) {
  auto Env = env(smallGain());
  MctsStrategy S(*Env);
  round(S, *Env, 1);
  round(S, *Env, 4); // C4, R, H, S: nothing pays, C4 gains 4%.
  std::vector<Candidate> Next = round(S, *Env, 4);
  std::set<std::string> Hashes;
  for (const Candidate &C : Next)
    Hashes.insert(C.Hash);
  EXPECT_TRUE(Hashes.count("C2")) << "the next round holds factor 2";
  EXPECT_TRUE(Hashes.count("C8"));
  const SearchNode &C4 = S.graph().node(S.graph().find("C4"));
  unsigned Retunes = 0;
  for (const SearchEdge &E : C4.Edges)
    if (E.Base == SearchGraph::Root) {
      ++Retunes;
      EXPECT_NE(E.Move.Motivation.find("helped a little"), std::string::npos)
          << E.Move.Motivation;
    }
  EXPECT_EQ(Retunes, 2u);
}

TEST(RetuneTest, AStepThatChangedNothingIsNotRetuned) {
  json Table = smallGain();
  Table["states"]["C4"] = state(1000);
  auto Env = env(Table);
  MctsStrategy S(*Env);
  round(S, *Env, 1);
  round(S, *Env, 4);
  for (const Candidate &C : round(S, *Env, 4))
    EXPECT_NE(C.Hash, "C2");
}

} // namespace
