//===- SearchEndToEndTest.cpp - MCTS against baselines on a replay --------===//
//
// The recorded SGEMM landscape (Inputs/make_sgemm_landscape.py): 95
// states, transpositions, refusals, a transform that never verifies, and a
// best kernel (14.6x) that greedy hill climbing misses (it stops at 11.8x).
//
//===----------------------------------------------------------------------===//

#include "SearchTestUtil.h"
#include "optiml/Search/SearchLoop.h"
#include "optiml/Search/StrategyFactory.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace optiml;
using namespace optiml::test;

namespace {

const char *const Landscape = OPTIML_SEARCH_TEST_INPUTS "/sgemm-landscape.json";

struct Outcome {
  double Speedup = 0; ///< Recorded (noise-free) speedup of the best found.
  bool FoundBest = false;
  unsigned Evaluated = 0;
  unsigned FirstBestAt = 0; ///< Evaluation that found it; 0 if never.
};

Outcome search(llvm::StringRef Strategy, uint64_t Seed, unsigned Budget) {
  auto Env = SimulatedEnvironment::fromFile(Landscape, Seed);
  if (!Env) {
    ADD_FAILURE() << llvm::toString(Env.takeError());
    return {};
  }
  StrategyOptions O;
  O.Seed = Seed;
  auto S = llvm::cantFail(createStrategy(Strategy, **Env, O));
  SearchLoop Loop(*S, **Env, SearchBudget{Budget, 0, 4});
  Loop.run();
  const SearchGraph &G = S->graph();
  Outcome Out;
  std::string Best = G.node(G.best()).Hash;
  Out.Speedup = (*Env)->recordedSpeedup(Best);
  Out.FoundBest = Best == (*Env)->bestState();
  Out.Evaluated = G.evaluated();
  for (const HistoryPoint &P : G.history())
    if (P.Hash == (*Env)->bestState()) {
      Out.FirstBestAt = P.Evaluation;
      break;
    }
  return Out;
}

TEST(SearchEndToEndTest, TheRecordedTableIsWhatTheGeneratorSays) {
  auto Env = llvm::cantFail(SimulatedEnvironment::fromFile(Landscape));
  EXPECT_NEAR(Env->recordedSpeedup(Env->bestState()), 14.6, 0.05);
}

TEST(SearchEndToEndTest, MctsFindsTheBestTraceWithinASmallBudget) {
  for (uint64_t Seed = 1; Seed <= 5; ++Seed) {
    Outcome O = search("mcts", Seed, 32);
    EXPECT_TRUE(O.FoundBest) << "seed " << Seed << ": " << O.Speedup << "x";
    EXPECT_LE(O.Evaluated, 32u);
  }
}

TEST(SearchEndToEndTest, GreedyStopsInTheLocalOptimum) {
  Outcome O = search("greedy", 1, 32);
  EXPECT_FALSE(O.FoundBest);
  EXPECT_NEAR(O.Speedup, 11.77, 0.05);
}

TEST(SearchEndToEndTest, MctsBeatsTheBaselinesAtEqualBudget) {
  const unsigned Budget = 32, Seeds = 5;
  double Sum[3] = {0, 0, 0};
  unsigned Found[3] = {0, 0, 0}, FoundAt[3] = {0, 0, 0};
  const char *Names[3] = {"mcts", "greedy", "random"};
  for (uint64_t Seed = 1; Seed <= Seeds; ++Seed)
    for (unsigned I = 0; I < 3; ++I) {
      Outcome O = search(Names[I], Seed, Budget);
      Sum[I] += O.Speedup;
      Found[I] += O.FoundBest;
      FoundAt[I] += O.FirstBestAt;
    }
  llvm::outs() << "budget " << Budget << ", seeds 1-" << Seeds
               << "\nstrategy  mean best speedup  found the best  mean "
                  "evaluation that found it\n";
  for (unsigned I = 0; I < 3; ++I)
    llvm::outs() << llvm::format(
        "%-8s  %16.2fx  %14d  %.1f\n", Names[I], Sum[I] / Seeds, Found[I],
        Found[I] ? double(FoundAt[I]) / Found[I] : 0.0);
  EXPECT_GT(Sum[0], Sum[1]);
  EXPECT_GT(Sum[0], Sum[2]);
  EXPECT_EQ(Found[0], Seeds);
}

} // namespace
