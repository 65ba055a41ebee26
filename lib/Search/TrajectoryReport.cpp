//===- TrajectoryReport.cpp - how the best kernel was found ---------------===//

#include "optiml/Search/TrajectoryReport.h"
#include "optiml/Search/UnifiedDiff.h"

#include "llvm/Support/FormatVariadic.h"

#include <nlohmann/json.hpp>

#include <algorithm>

using namespace optiml;
using nlohmann::json;

/// Root first, the best state last, along first parents.
static std::vector<int> pathTo(const SearchGraph &G, int N) {
  std::vector<int> Path;
  for (; N >= 0; N = G.node(N).Parent)
    Path.push_back(N);
  std::reverse(Path.begin(), Path.end());
  return Path;
}

static std::string diffOf(Expander &E, const SearchNode &From,
                          const SearchNode &To, llvm::StringRef Kernel,
                          unsigned Index) {
  auto Old = E.sourceText(From.Hash), New = E.sourceText(To.Hash);
  if (!Old || !New)
    return "";
  return unifiedDiff(
      *Old, *New, llvm::formatv("a/{0}.cu (step {1})", Kernel, Index - 1).str(),
      llvm::formatv("b/{0}.cu (step {1})", Kernel, Index).str());
}

Trajectory optiml::buildTrajectory(const SearchGraph &G, Expander &E,
                                   llvm::StringRef Kernel,
                                   llvm::StringRef Strategy) {
  Trajectory T;
  T.Kernel = Kernel.str();
  T.Strategy = Strategy.str();
  T.Series = G.history();
  T.Evaluated = G.evaluated();
  T.Failed = G.failed();
  T.Cached = G.cached();
  const SearchNode &Best = G.node(G.best());
  T.BestSpeedup = std::max(1.0, Best.Result.effectiveSpeedup());
  T.BestTrace = toString(Best.Steps);
  T.Improved = G.best() != SearchGraph::Root && T.BestSpeedup > 1;
  if (!T.Improved)
    return T;
  std::vector<int> Path = pathTo(G, G.best());
  for (unsigned I = 1; I < Path.size(); ++I) {
    const SearchNode &From = G.node(Path[I - 1]), &To = G.node(Path[I]);
    TrajectoryStep S;
    const SearchEdge &Edge = From.Edges[To.ParentEdge];
    S.Step = Edge.Move.Action.str();
    S.Motivation = Edge.Move.Motivation;
    S.Hash = To.Hash;
    S.SpeedupBefore = I == 1 ? 1 : From.Result.effectiveSpeedup();
    S.SpeedupAfter = To.Result.effectiveSpeedup();
    S.TimeNs = To.Result.TimeNs;
    S.RooflineBefore = From.Result.RooflineFraction;
    S.RooflineAfter = To.Result.RooflineFraction;
    S.Reward = To.Reward;
    S.Diff = diffOf(E, From, To, Kernel, I);
    T.Steps.push_back(std::move(S));
  }
  return T;
}

static std::string pct(std::optional<double> F) {
  return F ? llvm::formatv("{0:F1}%", 100 * *F).str() : "?";
}

static void stepSection(const TrajectoryStep &S, unsigned Index,
                        std::string &Out) {
  Out += llvm::formatv("### {0}. `{1}`\n\n", Index, S.Step);
  if (!S.Motivation.empty())
    Out += "Motivated by " + S.Motivation + "\n\n";
  Out += llvm::formatv("Effect: {0:F2}x -> {1:F2}x over the original "
                       "({2:F2}x this step)",
                       S.SpeedupBefore, S.SpeedupAfter,
                       S.SpeedupAfter / S.SpeedupBefore);
  if (S.RooflineBefore || S.RooflineAfter)
    Out +=
        "; roofline " + pct(S.RooflineBefore) + " -> " + pct(S.RooflineAfter);
  Out += ".\n\n";
  if (!S.Diff.empty())
    Out += "```diff\n" + S.Diff + "```\n\n";
}

static void seriesSection(const Trajectory &T, std::string &Out) {
  Out += "## Best speedup over evaluations\n\n| Evaluation | Candidate | "
         "Best so far |\n|---:|---|---:|\n";
  double Shown = 0;
  for (const HistoryPoint &P : T.Series) {
    bool Last = &P == &T.Series.back();
    if (P.BestSpeedup == Shown && !Last)
      continue;
    std::string What = P.Status == CandidateStatus::Ok
                           ? llvm::formatv("{0:F2}x", P.Speedup).str()
                           : toString(P.Status).str();
    Out += llvm::formatv("| {0} | {1}{2} | {3:F2}x |\n", P.Evaluation, What,
                         P.Cached ? " (database)" : "", P.BestSpeedup);
    Shown = P.BestSpeedup;
  }
  Out += "\n";
}

std::string optiml::toMarkdown(const Trajectory &T) {
  std::string Out = "# OptiML search: " + T.Kernel + "\n\n";
  std::string Counts = llvm::formatv(
      "{0} candidates measured ({1} failed), {2} answered from the database",
      T.Evaluated, T.Failed, T.Cached);
  if (T.Improved)
    Out += llvm::formatv("**Best: {0:F2}x over the original** with `{1}`, "
                         "found by {2}. {3}.\n\n",
                         T.BestSpeedup, T.BestTrace, T.Strategy, Counts);
  else
    Out += "**No verified candidate beat the original beyond the noise: the "
           "original is kept.** " +
           Counts + ".\n\n";
  if (!T.Steps.empty()) {
    Out += "## Steps\n\n| # | Step | Speedup | This step |\n|---:|---|---:|"
           "---:|\n";
    for (unsigned I = 0; I < T.Steps.size(); ++I)
      Out += llvm::formatv("| {0} | `{1}` | {2:F2}x | {3:F2}x |\n", I + 1,
                           T.Steps[I].Step, T.Steps[I].SpeedupAfter,
                           T.Steps[I].SpeedupAfter / T.Steps[I].SpeedupBefore);
    Out += "\n";
    for (unsigned I = 0; I < T.Steps.size(); ++I)
      stepSection(T.Steps[I], I + 1, Out);
  }
  seriesSection(T, Out);
  return Out;
}

template <typename V> static json orNull(const std::optional<V> &X) {
  return X ? json(*X) : json(nullptr);
}

nlohmann::json optiml::toJSON(const Trajectory &T) {
  json Steps = json::array(), Series = json::array();
  for (const TrajectoryStep &S : T.Steps)
    Steps.push_back({{"step", S.Step},
                     {"motivation", S.Motivation},
                     {"hash", S.Hash},
                     {"speedup_before", S.SpeedupBefore},
                     {"speedup_after", S.SpeedupAfter},
                     {"time_ns", S.TimeNs},
                     {"roofline_before", orNull(S.RooflineBefore)},
                     {"roofline_after", orNull(S.RooflineAfter)},
                     {"reward", orNull(S.Reward)},
                     {"diff", S.Diff}});
  for (const HistoryPoint &P : T.Series)
    Series.push_back({{"evaluation", P.Evaluation},
                      {"hash", P.Hash},
                      {"status", toString(P.Status).str()},
                      {"cached", P.Cached},
                      {"speedup", P.Speedup},
                      {"best", P.BestSpeedup}});
  return {{"kernel", T.Kernel},
          {"strategy", T.Strategy},
          {"improved", T.Improved},
          {"best_speedup", T.BestSpeedup},
          {"best_trace", T.BestTrace},
          {"evaluated", T.Evaluated},
          {"failed", T.Failed},
          {"cached", T.Cached},
          {"steps", Steps},
          {"series", Series}};
}
