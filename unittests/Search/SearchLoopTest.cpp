//===- SearchLoopTest.cpp - budgets by candidates and by wall time --------===//

#include "optiml/Search/SearchLoop.h"
#include "SearchTestUtil.h"
#include "optiml/Search/MctsStrategy.h"

using namespace optiml;
using namespace optiml::test;

namespace {

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

} // namespace
