//===- RewriteTiming.cpp - the search's rewrite cost, without a GPU -------===//
//
// --time-rewrites: what one candidate's rewrite (the step and the re-parse
// of its result) costs the search, measured the way the search pays it:
// SearchExpander applies every legal move of the original, then every
// legal move of the first child it made, each from an already parsed
// state. The first parses of the file (before the preamble is built) are
// reported apart, as the search pays them once.
//
//===----------------------------------------------------------------------===//

#include "driver/Optimize/RewriteTiming.h"
#include "driver/Search/SearchExpander.h"
#include "optiml/Rewrite/SourceParser.h"
#include "optiml/Support/Stopwatch.h"
#include "transforms/RegisterTransforms.h"

#include "llvm/Support/Format.h"

#include <algorithm>

using namespace optiml;

namespace {

struct Timed {
  std::string Step;
  double Seconds;
  bool Applied;
};

/// Applies every legal move of \p From; the first new state is \p Child.
llvm::Expected<std::vector<Timed>>
timeMoves(SearchExpander &Expand, const std::string &From, std::string *Child) {
  auto Steps = Expand.legalSteps(From);
  if (!Steps)
    return Steps.takeError();
  std::vector<Timed> Out;
  for (const Step &S : *Steps) {
    Stopwatch Clock;
    auto Applied = Expand.apply({}, From, S);
    double Seconds = Clock.seconds();
    if (!Applied)
      llvm::consumeError(Applied.takeError()); // Timed all the same.
    else if (Child && Child->empty() && Applied->Hash != From)
      *Child = Applied->Hash;
    Out.push_back({S.str(), Seconds, bool(Applied)});
  }
  return Out;
}

double quantile(std::vector<double> Sorted, double Q) {
  if (Sorted.empty())
    return 0;
  std::sort(Sorted.begin(), Sorted.end());
  return Sorted[std::min(Sorted.size() - 1, size_t(Q * Sorted.size()))];
}

} // namespace

llvm::Error RewriteTiming::timeRewrites(llvm::StringRef File,
                                        llvm::StringRef Kernel) {
  auto T = loadTarget(File, Kernel, "");
  if (!T)
    return T.takeError();
  TransformRegistry Registry = makeTransformRegistry();
  SourceParser Parser(DB, Toolchain);
  Stopwatch First;
  auto Parsed = Parser.parse(T->Source);
  if (!Parsed)
    return Parsed.takeError();
  double FirstParse = First.seconds();
  // No GPU is probed here: the moves are those a search on an H100 or
  // H200 (sm_90) would offer, which is where the search runs.
  SearchExpander Expand(Registry, Parser, std::move(*Parsed),
                        T->kernel().QualifiedName, "", "sm_90");
  std::string Child;
  auto Root = timeMoves(Expand, Expand.rootHash(), &Child);
  if (!Root)
    return Root.takeError();
  std::vector<Timed> All = std::move(*Root);
  if (!Child.empty()) {
    auto Deeper = timeMoves(Expand, Child, nullptr);
    if (!Deeper)
      return Deeper.takeError();
    All.insert(All.end(), Deeper->begin(), Deeper->end());
  }
  Out << "first parse " << llvm::format("%.3f", FirstParse) << " s\n";
  std::vector<double> Later;
  for (size_t I = 0; I < All.size(); ++I) {
    Out << llvm::format("%7.3f s  ", All[I].Seconds) << All[I].Step
        << (All[I].Applied ? "" : "  (refused)") << "\n";
    // The file's second and third parses build the preamble; a refused
    // move parses nothing and would pull the median down.
    if (I >= 2 && All[I].Applied)
      Later.push_back(All[I].Seconds);
  }
  Out << "rewrites " << All.size() << "; applied after the preamble: median "
      << llvm::format("%.3f", quantile(Later, 0.5)) << " s, p90 "
      << llvm::format("%.3f", quantile(Later, 0.9)) << " s\n";
  return llvm::Error::success();
}
