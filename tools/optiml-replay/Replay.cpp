//===- Replay.cpp - the strategies on a recorded landscape ----------------===//
//
// optiml-replay TABLE.json... [--budget N] [-j N] [--seeds N] [--trace]:
// runs MCTS, greedy and random (one run per seed) on each
// SimulatedEnvironment table, as clang-optiml --compare runs them on the
// GPU (pipelined, -j in flight, rounds of -j), and prints the best recorded
// speedup each found; with several tables, each one's name first and the
// geometric means last.
// Tables come from scripts/landscape.py, which merges the landscapes the
// GPU's reports recorded; a change to a strategy can then be tried on what
// the GPU measured before a device call is spent on it.
//
//===----------------------------------------------------------------------===//

#include "optiml/Search/SearchLoop.h"
#include "optiml/Search/SimulatedEnvironment.h"
#include "optiml/Search/StrategyFactory.h"
#include "optiml/Search/Trace.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"

#include <algorithm>
#include <cmath>

using namespace optiml;
using namespace llvm;

// Its own category, so that --help lists these and not LLVM's.
static cl::OptionCategory ReplayCategory("optiml-replay options");
static cl::list<std::string> TablePaths(cl::Positional, cl::OneOrMore,
                                        cl::desc("<landscape.json>..."),
                                        cl::cat(ReplayCategory));
static cl::opt<unsigned> Budget("budget", cl::init(10),
                                cl::desc("Candidates per search, the "
                                         "original included (10)"),
                                cl::cat(ReplayCategory));
static cl::opt<unsigned> Jobs("j", cl::init(4),
                              cl::desc("Candidates in flight (4)"),
                              cl::cat(ReplayCategory));
static cl::opt<unsigned> Seeds("seeds", cl::init(5),
                               cl::desc("Random's runs, seeded 1..N (5)"),
                               cl::cat(ReplayCategory));
static cl::list<std::string>
    Strategies("strategies", cl::CommaSeparated,
               cl::desc("Which strategies (mcts,greedy,random)"),
               cl::cat(ReplayCategory));
static cl::opt<bool> ShowTrace("trace",
                               cl::desc("Print every evaluation of each run"),
                               cl::cat(ReplayCategory));

/// The best recorded speedup one search finds.
static Expected<double> searchOnce(StringRef Table, StringRef Strategy,
                                   uint64_t Seed) {
  auto Env = SimulatedEnvironment::fromFile(Table, Seed);
  if (!Env)
    return Env.takeError();
  StrategyOptions O;
  O.Seed = Seed;
  O.Mcts.RoundWidth = Jobs;
  auto S = createStrategy(Strategy, **Env, O);
  if (!S)
    return S.takeError();
  // As --compare counts them: a recorded twin's answer (the table's
  // "twin_of") takes a candidate of the budget like a measurement.
  SearchLoop(**S, **Env,
             SearchBudget{Budget, 0, Jobs, /*Pipelined=*/true,
                          /*CountCached=*/true})
      .run();
  const SearchGraph &G = (*S)->graph();
  if (ShowTrace)
    for (const HistoryPoint &P : G.history()) {
      const Trace &Steps = G.node(G.find(P.Hash)).Steps;
      outs() << formatv("  {0} seed {1} #{2}: {3:F3}x {4}\n", Strategy, Seed,
                        P.Evaluation, P.Speedup,
                        Steps.empty() ? "(original)" : toString(Steps));
    }
  return (*Env)->recordedSpeedup(G.node(G.best()).Hash);
}

/// The mean best speedup \p Strategy finds on \p Table over its runs, and
/// the line that says so.
static Expected<double> replay(StringRef Table, StringRef Strategy) {
  unsigned Runs = Strategy == "random" ? std::max(1u, unsigned(Seeds)) : 1;
  std::vector<double> Best;
  for (unsigned Seed = 1; Seed <= Runs; ++Seed) {
    Expected<double> B = searchOnce(Table, Strategy, Seed);
    if (!B)
      return B.takeError();
    Best.push_back(*B);
  }
  double Mean = 0;
  for (double B : Best)
    Mean += B / Best.size();
  outs() << formatv("{0,-7} {1:F2}x", Strategy, Mean);
  if (Best.size() > 1)
    outs() << formatv(" (mean of {0}, {1:F2}..{2:F2}x)", Best.size(),
                      *std::min_element(Best.begin(), Best.end()),
                      *std::max_element(Best.begin(), Best.end()));
  outs() << "\n";
  return Mean;
}

/// A zero count would replay nothing and print the original's 1.00x as
/// if it were a result.
static bool countsArePositive() {
  for (const auto &[Name, Value] :
       {std::pair<StringRef, unsigned>{"--budget", Budget},
        {"-j", Jobs},
        {"--seeds", Seeds}})
    if (Value == 0) {
      WithColor::error(errs(), "optiml-replay")
          << Name << " must be at least 1\n";
      return false;
    }
  return true;
}

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  cl::HideUnrelatedOptions(ReplayCategory);
  cl::ParseCommandLineOptions(Argc, Argv,
                              "the search strategies on recorded landscapes");
  if (!countsArePositive())
    return 1;
  std::vector<std::string> Names(Strategies.begin(), Strategies.end());
  if (Names.empty())
    Names = {"mcts", "greedy", "random"};
  std::vector<double> LogSum(Names.size());
  for (const std::string &Table : TablePaths) {
    if (TablePaths.size() > 1)
      outs() << "== " << Table << "\n";
    for (unsigned I = 0; I < Names.size(); ++I) {
      Expected<double> Mean = replay(Table, Names[I]);
      if (!Mean) {
        WithColor::error(errs(), "optiml-replay")
            << toString(Mean.takeError()) << "\n";
        return 1;
      }
      LogSum[I] += std::log(std::max(*Mean, 1e-9));
    }
  }
  if (TablePaths.size() > 1) {
    outs() << "geometric mean over " << TablePaths.size() << " tables:";
    for (unsigned I = 0; I < Names.size(); ++I)
      outs() << formatv(" {0} {1:F3}x", Names[I],
                        std::exp(LogSum[I] / TablePaths.size()));
    outs() << "\n";
  }
  return 0;
}
