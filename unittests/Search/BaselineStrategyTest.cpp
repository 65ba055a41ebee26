//===- BaselineStrategyTest.cpp - greedy and random behind ask/tell -------===//

#include "SearchTestUtil.h"
#include "optiml/Search/GreedyStrategy.h"
#include "optiml/Search/RandomStrategy.h"
#include "optiml/Search/StrategyFactory.h"

#include <set>

using namespace optiml;
using namespace optiml::test;
using nlohmann::json;

namespace {

/// Greedy's trap: a (prior 0.6) is best at first (2x) and leads nowhere;
/// b (0.4) is 1.5x but its child reaches 6x.
json trap() {
  json States = {
      {"r", state(120, {move("a", "k", 0.6, "A"), move("b", "k", 0.4, "B")})},
      {"A", state(60, {move("x", "k", 1, "AX")})},
      {"B", state(80, {move("y", "k", 1, "BY")})},
      {"AX", state(62)},
      {"BY", state(20)}};
  return {{"root", "r"}, {"noise", 0.0}, {"states", States}};
}

TEST(GreedyStrategyTest, ClimbsToTheBestChildAndStopsAtALocalOptimum) {
  auto Env = env(trap());
  GreedyStrategy S(*Env, GreedyOptions{2});
  round(S, *Env, 4);                               // r
  EXPECT_EQ(round(S, *Env, 4).size(), 2u);         // A and B.
  std::vector<Candidate> Next = round(S, *Env, 4); // Climbs to A first.
  EXPECT_EQ(S.current(), S.graph().find("A"));
  ASSERT_EQ(Next.size(), 1u);
  EXPECT_EQ(Next[0].Hash, "AX"); // Slower than A: greedy stops.
  EXPECT_TRUE(S.propose(4).empty());
  EXPECT_EQ(S.graph().node(S.graph().best()).Hash, "A");
}

TEST(GreedyStrategyTest, TriesTheNextMovesWhenNoneOfTheFirstHelp) {
  json States = {
      {"r", state(100, {move("a", "k", 0.5, "A"), move("b", "k", 0.3, "B"),
                        move("c", "k", 0.2, "C")})},
      {"A", state(110)},
      {"B", state(100)},
      {"C", state(50)}};
  auto Env = env({{"root", "r"}, {"noise", 0.0}, {"states", States}});
  GreedyStrategy S(*Env, GreedyOptions{1});
  round(S, *Env, 1);
  EXPECT_EQ(round(S, *Env, 1)[0].Hash, "A");
  EXPECT_EQ(round(S, *Env, 1)[0].Hash, "B");
  EXPECT_EQ(round(S, *Env, 1)[0].Hash, "C");
  EXPECT_TRUE(S.propose(1).empty()); // C has no moves: done there.
  EXPECT_EQ(S.current(), S.graph().find("C"));
}

TEST(RandomStrategyTest, SeededAndNeverRepeats) {
  auto Run = [](uint64_t Seed) {
    auto Env = env(treeTable(3, 4));
    RandomStrategy S(*Env, Seed);
    std::vector<std::string> Order;
    for (unsigned I = 0; I < 12; ++I)
      for (const Candidate &C : round(S, *Env, 4))
        Order.push_back(C.Hash);
    return Order;
  };
  std::vector<std::string> A = Run(7), B = Run(7), C = Run(8);
  EXPECT_EQ(A, B);
  EXPECT_NE(A, C);
  EXPECT_EQ(std::set<std::string>(A.begin(), A.end()).size(), A.size());
  EXPECT_EQ(A.size(), 1u + 11 * 4);
}

TEST(StrategyFactoryTest, ByName) {
  auto Env = env(trap());
  for (const char *Name : {"mcts", "greedy", "random"}) {
    auto S = createStrategy(Name, *Env);
    ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
    EXPECT_EQ((*S)->name(), Name);
  }
  auto Bad = createStrategy("annealing", *Env);
  ASSERT_FALSE(bool(Bad));
  EXPECT_EQ(llvm::toString(Bad.takeError()),
            "unknown search strategy 'annealing' (strategies: mcts, greedy, "
            "random)");
}

} // namespace
