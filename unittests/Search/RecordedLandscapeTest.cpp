//===- RecordedLandscapeTest.cpp - a search's states, replayed ------------===//

#include "optiml/Search/RecordedLandscape.h"
#include "SearchTestUtil.h"
#include "optiml/Search/MctsStrategy.h"
#include "optiml/Search/SearchLoop.h"
#include "optiml/Search/Trace.h"

using namespace optiml;
using namespace optiml::test;
using nlohmann::json;

namespace {

/// Runs MCTS for \p Budget candidates on \p Table; the best state's hash.
std::string mctsBest(const json &Table, unsigned Budget, json *Landscape) {
  auto Env = env(Table);
  if (!Env)
    return "";
  MctsStrategy S(*Env);
  SearchLoop(S, *Env, SearchBudget{Budget, 0, 4}).run();
  if (Landscape)
    *Landscape = recordLandscape(S.graph(), *Env);
  return S.graph().node(S.graph().best()).Hash;
}

TEST(RecordedLandscapeTest, HoldsWhatWasMeasuredAndWhatWasNotTried) {
  json Table = treeTable(3, 4);
  Table["states"]["r01"]["status"] = "verify_failed";
  json L;
  mctsBest(Table, 12, &L);
  ASSERT_TRUE(L.is_object());
  EXPECT_EQ(L["root"], "r");
  unsigned Measured = 0, Untried = 0;
  for (const auto &[Hash, S] : L["states"].items()) {
    ASSERT_TRUE(Table["states"].contains(Hash)) << Hash;
    const json &Truth = Table["states"][Hash];
    if (Truth.value("status", "ok") != "ok") {
      EXPECT_EQ(S["status"], Truth["status"]) << Hash;
      EXPECT_FALSE(S.contains("time_ns"));
      continue;
    }
    ++Measured;
    // Noise 0: the measured ratio is the table's, and so is the time.
    EXPECT_NEAR(S["time_ns"].get<double>(), Truth["time_ns"].get<double>(),
                1e-6)
        << Hash;
    for (const json &A : S["actions"]) {
      if (A.contains("to"))
        EXPECT_TRUE(L["states"].contains(A["to"])) << A["to"];
      Untried += A.value("untried", false);
    }
  }
  EXPECT_GE(Measured, 10u);
  ASSERT_TRUE(L["states"].contains("r01")); // The failure is there too.
  EXPECT_GT(Untried, 0u);
  // Only the twelve states measured: one nobody measured has no moves to
  // give.
  EXPECT_EQ(L["states"].size(), 12u);
}

TEST(RecordedLandscapeTest, ReplayingItFindsWhatTheSearchFound) {
  json L;
  std::string Best = mctsBest(treeTable(3, 4), 12, &L);
  ASSERT_TRUE(L.is_object());
  // Moves nobody tried stay untried; the same search never chooses them.
  EXPECT_EQ(mctsBest(L, 12, nullptr), Best);
}

TEST(RecordedLandscapeTest, AnUntriedMoveIsReplayedAsAGuessAsFastAsItsStart) {
  json Untried = {{"step", "u(site=k)"}, {"prior", 0.9}, {"untried", true}};
  json States = {{"r", state(100, {Untried, step("a(site=k)", 0.1, "A")})},
                 {"A", state(50)}};
  auto Env = env({{"root", "r"}, {"noise", 0.0}, {"states", States}});
  ASSERT_TRUE(Env);
  auto Made = Env->apply(Trace(), "r", Step{"u", "k", {}});
  ASSERT_TRUE(bool(Made)) << llvm::toString(Made.takeError());
  EXPECT_EQ(Made->Hash, "guess:r:u(site=k)");
  Measurement Root;
  auto Moves = Env->actions({Trace(), Made->Hash, Root});
  ASSERT_TRUE(bool(Moves)) << llvm::toString(Moves.takeError());
  EXPECT_TRUE(Moves->empty());
  // Replayed, the guess is no faster than the root; the measured move is.
  MctsStrategy S(*Env);
  SearchLoop(S, *Env, SearchBudget{3, 0, 1}).run();
  EXPECT_EQ(S.graph().node(S.graph().best()).Hash, "A");
}

/// A step with three values at the root: x=1 pays, x=2 and x=3 do not.
json threeValues() {
  json States = {{"r", state(100, {step("a(site=k,x=1)", 0.6, "A1"),
                                   step("a(site=k,x=2)", 0.2, "A2"),
                                   step("a(site=k,x=3)", 0.2, "A3")})},
                 {"A1", state(50)},
                 {"A2", state(100)},
                 {"A3", state(100)}};
  return {{"root", "r"}, {"noise", 0.0}, {"states", States}};
}

TEST(RecordedLandscapeTest, ATwinIsRecordedAndReplayedAsTheGpuAnsweredIt) {
  // "B" built A's code on the GPU: the table says so, and a replay that
  // measured A answers B with A's measurement and no GPU time.
  json States = {{"r", state(100, {step("a(site=k)", 0.6, "A"),
                                   step("b(site=k)", 0.4, "B")})},
                 {"A", state(50)},
                 {"B", state(50)}};
  States["B"]["twin_of"] = "A";
  auto Env = env({{"root", "r"}, {"noise", 0.0}, {"states", States}});
  ASSERT_TRUE(Env);
  MctsStrategy S(*Env);
  SearchLoop(S, *Env, SearchBudget{3, 0, 1}).run();
  const SearchGraph &G = S.graph();
  int B = G.find("B");
  ASSERT_GE(B, 0);
  EXPECT_EQ(G.node(B).Result.TwinOf, "A");
  EXPECT_TRUE(G.node(B).Result.Cached);
  EXPECT_DOUBLE_EQ(G.node(B).Result.Speedup, 2.0);
  EXPECT_EQ(Env->measurements(), 2u); // The original and A.
  EXPECT_EQ(G.twins(), 1u);
  json L = recordLandscape(G, *Env);
  EXPECT_EQ(L["states"]["B"]["twin_of"], "A");
  EXPECT_FALSE(L["states"]["A"].contains("twin_of"));

  // Reached first, a twin is measured: its twin's code was not yet.
  auto First = env({{"root", "r"}, {"noise", 0.0}, {"states", States}});
  Candidate ToB{1, Trace(), "B"};
  Measurement M = First->measure(ToB);
  EXPECT_TRUE(M.TwinOf.empty());
  EXPECT_FALSE(M.Cached);
  EXPECT_EQ(First->measurements(), 1u);
}

TEST(RecordedLandscapeTest, RetunesAreThoseOfTheExpanderThatRecordedIt) {
  json L;
  mctsBest(threeValues(), 4, &L);
  ASSERT_TRUE(L.is_object());
  // The simulated expander's rule: every other value in the table.
  EXPECT_EQ(L["retunes"]["a(site=k,x=1)"],
            json({"a(site=k,x=2)", "a(site=k,x=3)"}));
  // A table that says so retunes only as it says.
  json Table = threeValues();
  Table["retunes"] = {{"a(site=k,x=1)", {"a(site=k,x=3)"}}};
  auto Env = env(Table);
  ASSERT_TRUE(Env);
  std::vector<std::string> Others;
  for (const Step &S : Env->retunes(*parseStepSpelling("a(site=k,x=1)")))
    Others.push_back(S.str());
  EXPECT_EQ(Others, std::vector<std::string>{"a(site=k,x=3)"});
  EXPECT_TRUE(Env->retunes(*parseStepSpelling("a(site=k,x=2)")).empty());
}

TEST(RecordedLandscapeTest, NothingWhenTheOriginalFailed) {
  json States = {{"r", state(100, {move("a", "k", 1, "A")})}, {"A", state(50)}};
  auto Env = env({{"root", "r"}, {"noise", 0.0}, {"states", States}});
  MctsStrategy S(*Env);
  std::vector<Candidate> First = S.propose(1);
  ASSERT_EQ(First.size(), 1u);
  Measurement Broken;
  Broken.Status = CandidateStatus::VerifyFailed;
  S.notify({{First[0].Id, Broken}});
  // No time to give the other states theirs against.
  EXPECT_TRUE(recordLandscape(S.graph(), *Env).is_null());
}

} // namespace
