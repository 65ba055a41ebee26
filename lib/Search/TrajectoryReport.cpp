//===- TrajectoryReport.cpp - how the best kernel was found ---------------===//

#include "optiml/Search/TrajectoryReport.h"
#include "optiml/Search/RecordedLandscape.h"
#include "optiml/Search/UnifiedDiff.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <ctime>

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

/// The GPU named by the first runner result that has one (the database
/// keeps the runner's "device" for cached answers too).
static std::string deviceOf(const SearchGraph &G) {
  for (unsigned N = 0; N < G.size(); ++N) {
    const auto &Runner = G.node(N).Result.Runner;
    if (Runner && Runner->Device)
      return Runner->Device->Name;
  }
  return "";
}

/// The graph's history with each candidate's own measurement: every
/// history point is a node measured once, found by its hash.
static std::vector<TrajectoryPoint> seriesOf(const SearchGraph &G) {
  std::vector<TrajectoryPoint> Series;
  for (const HistoryPoint &H : G.history()) {
    TrajectoryPoint P;
    static_cast<HistoryPoint &>(P) = H;
    int N = G.find(H.Hash);
    if (N >= 0) {
      const Measurement &M = G.node(N).Result;
      if (M.ok())
        P.Measured = M.Speedup;
      P.Roofline = M.RooflineFraction;
      P.Trace = toString(G.node(N).Steps);
      P.Stages = M.Stages;
      P.EnergySaving = M.energySaving();
      P.EnergySpread = M.EnergySpread;
      const protocol::InstanceTiming *T =
          M.Runner ? M.Runner->firstTiming() : nullptr;
      if (M.ok() && T) {
        P.Low = T->SpeedupLow;
        P.High = T->SpeedupHigh;
        P.StopReason = T->StopReason;
      }
    }
    Series.push_back(std::move(P));
  }
  return Series;
}

static std::vector<TrajectoryStep> stepsTo(const SearchGraph &G, Expander &E,
                                           llvm::StringRef Kernel) {
  std::vector<TrajectoryStep> Steps;
  std::vector<int> Path = pathTo(G, G.best());
  for (unsigned I = 1; I < Path.size(); ++I) {
    const SearchNode &From = G.node(Path[I - 1]), &To = G.node(Path[I]);
    TrajectoryStep S;
    const SearchEdge &Edge = From.Edges[To.ParentEdge];
    // The steps the move took, as --apply replays them: a chain's links
    // rather than its name.
    S.Step = toString(Trace(To.Steps.begin() + From.Steps.size(),
                            To.Steps.end()));
    S.Motivation = Edge.Move.Motivation;
    S.Hash = To.Hash;
    S.SpeedupBefore = I == 1 ? 1 : From.Result.effectiveSpeedup();
    S.SpeedupAfter = To.Result.effectiveSpeedup();
    S.TimeNs = To.Result.TimeNs;
    S.Joules = To.Result.Joules;
    S.EnergySpread = To.Result.EnergySpread;
    S.RooflineBefore = From.Result.RooflineFraction;
    S.RooflineAfter = To.Result.RooflineFraction;
    S.Reward = To.Reward;
    S.Diff = diffOf(E, From, To, Kernel, I);
    Steps.push_back(std::move(S));
  }
  return Steps;
}

/// What a move of the original came to.
static std::string outcomeOf(const SearchGraph &G, const SearchEdge &E) {
  switch (E.Kind) {
  case EdgeKind::Unexpanded:
    return "not tried";
  case EdgeKind::ApplyFailed:
    return "refused: " + E.Error;
  case EdgeKind::Redundant:
    return "redundant";
  case EdgeKind::Child:
    break;
  }
  const SearchNode &Child = G.node(E.Child);
  if (Child.State == NodeState::Pending)
    return "in flight";
  if (Child.State == NodeState::Failed)
    return "failed";
  return llvm::formatv("measured {0:F2}x", Child.Result.effectiveSpeedup());
}

static std::vector<RootMove> rootMovesOf(const SearchGraph &G) {
  std::vector<RootMove> Moves;
  for (const SearchEdge &E : G.node(SearchGraph::Root).Edges)
    Moves.push_back({E.Move.Action.str(), E.Prior, E.Move.Motivation,
                     outcomeOf(G, E)});
  llvm::stable_sort(Moves, [](const RootMove &A, const RootMove &B) {
    return A.Prior > B.Prior;
  });
  return Moves;
}

Trajectory optiml::buildTrajectory(const SearchGraph &G, Expander &E,
                                   llvm::StringRef Kernel,
                                   llvm::StringRef Strategy) {
  Trajectory T;
  T.Kernel = Kernel.str();
  T.Strategy = Strategy.str();
  T.Device = deviceOf(G);
  T.Series = seriesOf(G);
  T.RootMoves = rootMovesOf(G);
  if (json Landscape = recordLandscape(G, E); !Landscape.is_null())
    T.Landscape = Landscape.dump();
  T.Evaluated = G.evaluated();
  T.Failed = G.failed();
  T.Cached = G.cached();
  T.Twins = G.twins();
  const SearchNode &Best = G.node(G.best());
  const Measurement &Original = G.node(SearchGraph::Root).Result;
  T.Goal = Original.Goal;
  T.BestGain = std::max(1.0, G.gainOf(G.best()));
  T.BestTrace = toString(Best.Steps);
  T.Improved = G.best() != SearchGraph::Root && T.BestGain > 1;
  // Under another objective the best may well be slower than the original.
  double Speed = T.Improved ? Best.Result.effectiveSpeedup() : 1;
  T.BestSpeedup = T.Goal == Objective::Time ? std::max(1.0, Speed) : Speed;
  T.JoulesOriginal = Original.Joules;
  T.JoulesBest = T.Improved ? Best.Result.Joules : Original.Joules;
  std::vector<MeasuredConfig> Configs;
  for (unsigned N = 0; N < G.size(); ++N)
    Configs.push_back({toString(G.node(N).Steps), &G.node(N).Result});
  T.Matched = findMatchedSpeed(Configs);
  T.RooflineOriginal = G.node(SearchGraph::Root).Result.RooflineFraction;
  T.RooflineBest =
      T.Improved ? Best.Result.RooflineFraction : T.RooflineOriginal;
  if (T.Improved)
    T.Steps = stepsTo(G, E, Kernel);
  return T;
}

std::string optiml::formatRoofline(std::optional<double> Fraction) {
  return Fraction ? llvm::formatv("{0:F1}%", 100 * *Fraction).str() : "n/a";
}

std::string optiml::describeCounts(const Trajectory &T) {
  std::string Out = llvm::formatv(
      "{0} candidates measured ({1} failed), {2} answered from the database",
      T.Evaluated, T.Failed, T.Cached - T.Twins);
  if (T.Twins)
    Out += llvm::formatv(", {0} by an earlier candidate's measurement (the "
                         "same machine code)",
                         T.Twins);
  return Out;
}

std::string optiml::describeEffect(const TrajectoryStep &S) {
  std::string Out = llvm::formatv("{0:F2}x -> {1:F2}x over the original "
                                  "({2:F2}x this step)",
                                  S.SpeedupBefore, S.SpeedupAfter,
                                  S.SpeedupAfter / S.SpeedupBefore);
  if (S.RooflineBefore || S.RooflineAfter)
    Out += "; roofline " + formatRoofline(S.RooflineBefore) + " -> " +
           formatRoofline(S.RooflineAfter);
  return Out;
}

std::string optiml::describeBest(const Trajectory &T) {
  if (T.Goal == Objective::Time)
    return llvm::formatv("{0:F2}x over the original", T.BestSpeedup);
  return llvm::formatv("{0:F2}x less {1} (at {2:F2}x the original's speed)",
                       T.BestGain,
                       T.Goal == Objective::Energy ? "energy per launch"
                                                   : "energy-delay product",
                       T.BestSpeedup);
}

static std::string named(const std::string &Trace) {
  return Trace.empty() ? std::string("the original") : "`" + Trace + "`";
}

std::string optiml::describeMatchedSpeed(const MatchedSpeed &M) {
  return llvm::formatv("{0} runs as fast as {1}{2} ({3:F2}x and {4:F2}x the "
                       "original's speed, within the noise), on {5:F2}x less "
                       "energy per launch ({6} against {7}; noise {8:F0}%){9}",
                       named(M.Frugal),
                       M.AtFastest ? "the fastest candidate, " : "",
                       named(M.Fastest), M.FrugalSpeedup, M.FastestSpeedup,
                       M.Saving, formatJoules(M.FrugalJoules),
                       formatJoules(M.FastestJoules), M.Noise * 100,
                       M.AtFastest ? ""
                                   : "; both are slower than the fastest "
                                     "candidate, which nothing at its speed "
                                     "beats on energy");
}

std::string optiml::formatJoules(std::optional<double> Joules) {
  if (!Joules)
    return "n/a";
  if (*Joules >= 1e-3)
    return llvm::formatv("{0:F2} mJ", *Joules * 1e3);
  return llvm::formatv("{0:F1} uJ", *Joules * 1e6);
}

std::string optiml::formatEnergy(std::optional<double> Joules,
                                 std::optional<double> Spread) {
  std::string Text = formatJoules(Joules);
  if (Joules && Spread)
    Text += llvm::formatv(" ±{0:F1}%", *Spread * 100).str();
  return Text;
}

std::string optiml::describeOutcome(const TrajectoryPoint &P) {
  if (P.Status != CandidateStatus::Ok || !P.Measured)
    return toString(P.Status).str();
  std::string Out = llvm::formatv("{0:F2}x", *P.Measured);
  // The search counts a change inside the noise as none.
  if (P.Speedup == 1 && *P.Measured != 1)
    Out += " (noise)";
  return Out;
}

llvm::StringRef optiml::answeredBy(const HistoryPoint &P) {
  if (!P.TwinOf.empty())
    return " (same machine code as an earlier candidate)";
  return P.Cached ? " (database)" : "";
}

/// The lines every reader wants before the steps: where, how, how long,
/// and how close to the hardware's limit the original and the output are.
/// "2026-11-25T22:30:00Z, OptiML 0.1.0 (git abc), nvcc 13.0": what is known.
static std::string madeBy(const ReportProvenance &P) {
  std::vector<std::string> Parts;
  for (const std::string *S : {&P.Date, &P.Tool})
    if (!S->empty())
      Parts.push_back(*S);
  if (!P.Nvcc.empty())
    Parts.push_back("nvcc " + P.Nvcc);
  return llvm::join(Parts, ", ");
}

static void summarySection(const Trajectory &T, std::string &Out) {
  if (!T.Provenance.empty()) {
    Out += "- Made: " + madeBy(T.Provenance) + "\n";
    if (!T.Provenance.CommandLine.empty())
      Out += "- Command: `" + T.Provenance.CommandLine + "`\n";
  }
  Out += "- Device: " + (T.Device.empty() ? "unknown" : T.Device) + "\n";
  Out += "- Strategy: " + T.Strategy;
  if (T.Seed)
    Out += llvm::formatv(" (seed {0})", *T.Seed).str();
  Out += "\n- Candidates: " + describeCounts(T);
  if (T.WallSeconds)
    Out += llvm::formatv(", {0:F0} s", *T.WallSeconds).str();
  if (!T.Stopped.empty())
    Out += "\n- Stopped: " + T.Stopped;
  Out += "\n- Fraction of the roofline reached: original " +
         formatRoofline(T.RooflineOriginal) + ", best " +
         formatRoofline(T.RooflineBest) + "\n";
  if (T.Goal != Objective::Time)
    Out += "- Objective: " + toString(T.Goal).str() +
           "; energy per launch: original " + formatJoules(T.JoulesOriginal) +
           ", best " + formatJoules(T.JoulesBest) + "\n";
  if (T.Matched)
    Out +=
        "- Same speed, less energy: " + describeMatchedSpeed(*T.Matched) + "\n";
  if (std::string S = describeStages(T); !S.empty())
    Out += "- Seconds per measured candidate (mean): " + S + "\n";
  Out += "\n";
}

std::string optiml::describeStages(const Trajectory &T) {
  std::map<std::string, double> Sum;
  unsigned Measured = 0;
  for (const TrajectoryPoint &P : T.Series) {
    // A twin's answer has its rewrite and build, and no measurement.
    if (P.Stages.empty() || !P.TwinOf.empty())
      continue;
    ++Measured;
    for (const auto &[Stage, Seconds] : P.Stages)
      Sum[Stage] += Seconds;
  }
  if (!Measured)
    return "";
  // The tool's stages first, then the runner's in the order it runs them.
  static const char *Order[] = {"rewrite", "build",  "run",
                                "load",    "device", "verify",
                                "time",    "energy", "metrics"};
  std::string Out;
  for (const char *Stage : Order) {
    auto It = Sum.find(Stage);
    if (It == Sum.end())
      continue;
    Out += llvm::formatv("{0}{1} {2:F2}", Out.empty() ? "" : ", ", Stage,
                         It->second / Measured)
               .str();
  }
  return Out + llvm::formatv(" ({0} candidates)", Measured).str();
}

std::string optiml::describeUsage(const ProposerUsage &U) {
  std::string Out = llvm::formatv(
      "{0} (prompt {1}): {2} call{3} ({4} from the database), {5} tokens "
      "in, {6} out, cost {7:F4}, {8:F1} s; {9} proposal{10}, {11} accepted",
      U.Model.empty() ? "unknown model" : U.Model,
      U.PromptVersion.empty() ? "?" : U.PromptVersion, U.Calls,
      U.Calls == 1 ? "" : "s", U.CachedCalls, U.TokensIn, U.TokensOut, U.Cost,
      U.Seconds, U.Proposals, U.Proposals == 1 ? "" : "s", U.Accepted);
  return Out;
}

static void usageSection(const ProposerUsage &U, std::string &Out) {
  Out += "## Language model\n\n" + describeUsage(U) + ".\n\n";
  for (const std::string &N : U.Notes)
    Out += "- " + N + "\n";
  if (!U.Notes.empty())
    Out += "\n";
}

static void stepSection(const TrajectoryStep &S, unsigned Index,
                        std::string &Out) {
  Out += llvm::formatv("### {0}. `{1}`\n\n", Index, S.Step);
  if (!S.Motivation.empty())
    Out += "Motivated by " + S.Motivation + "\n\n";
  Out += "Effect: " + describeEffect(S) + ".\n\n";
  if (!S.Diff.empty())
    Out += "```diff\n" + S.Diff + "```\n\n";
}

static void seriesSection(const Trajectory &T, std::string &Out) {
  Out += "## Best speedup over evaluations\n\n| Evaluation | Candidate | "
         "Best so far |\n|---:|---|---:|\n";
  double Shown = 0;
  for (const TrajectoryPoint &P : T.Series) {
    bool Last = &P == &T.Series.back();
    if (P.BestSpeedup == Shown && !Last)
      continue;
    Out += llvm::formatv("| {0} | {1}{2} | {3:F2}x |\n", P.Evaluation,
                         describeOutcome(P), answeredBy(P), P.BestSpeedup);
    Shown = P.BestSpeedup;
  }
  Out += "\n";
}

/// The original's moves the search ranked highest, and what each came to.
static void rootMovesSection(const Trajectory &T, std::string &Out) {
  constexpr unsigned Shown = 12;
  if (T.RootMoves.empty())
    return;
  Out += "## Moves at the original, by prior\n\n| Step | Prior | Outcome | "
         "Motivation |\n|---|---:|---|---|\n";
  for (unsigned I = 0; I < T.RootMoves.size() && I < Shown; ++I) {
    const RootMove &M = T.RootMoves[I];
    std::string Why = M.Motivation;
    llvm::erase_if(Why, [](char C) { return C == '\n'; });
    Out += llvm::formatv("| `{0}` | {1:F3} | {2} | {3} |\n", M.Step, M.Prior,
                         M.Outcome, llvm::join(llvm::split(Why, '|'), "\\|"));
  }
  if (T.RootMoves.size() > Shown)
    Out += llvm::formatv("\n{0} more in the JSON report.\n",
                         T.RootMoves.size() - Shown);
  Out += "\n";
}

std::string optiml::toMarkdown(const Trajectory &T) {
  std::string Out = "# OptiML search: " + T.Kernel + "\n\n";
  if (T.Improved)
    Out += llvm::formatv("**Best: {0}** with `{1}`, found by {2}.\n\n",
                         describeBest(T), T.BestTrace, T.Strategy);
  else
    Out += "**No verified candidate beat the original beyond the noise: the "
           "original is kept.**\n\n";
  summarySection(T, Out);
  if (!T.Steps.empty()) {
    // Energy is a column where it was measured (--objective energy, edp).
    bool Energy = T.JoulesOriginal.has_value();
    Out += std::string("## Steps\n\n| # | Step | Kernel time | ") +
           (Energy ? "Energy per launch | " : "") +
           "Speedup | This step |\n|---:|---|---:|" +
           (Energy ? "---:|" : "") + "---:|---:|\n";
    for (unsigned I = 0; I < T.Steps.size(); ++I)
      Out += llvm::formatv(
          "| {0} | `{1}` | {2} | {3}{4:F2}x | {5:F2}x |\n", I + 1,
          T.Steps[I].Step, formatKernelTime(T.Steps[I].TimeNs),
          Energy ? formatEnergy(T.Steps[I].Joules, T.Steps[I].EnergySpread) +
                       " | "
                 : "",
          T.Steps[I].SpeedupAfter,
          T.Steps[I].SpeedupAfter / T.Steps[I].SpeedupBefore);
    Out += "\n";
    for (unsigned I = 0; I < T.Steps.size(); ++I)
      stepSection(T.Steps[I], I + 1, Out);
  }
  if (T.Llm)
    usageSection(*T.Llm, Out);
  seriesSection(T, Out);
  rootMovesSection(T, Out);
  return Out;
}

template <typename V> static json orNull(const std::optional<V> &X) {
  return X ? json(*X) : json(nullptr);
}

static json matchedJSON(const std::optional<MatchedSpeed> &M) {
  if (!M)
    return nullptr;
  return {{"fastest", M->Fastest},
          {"frugal", M->Frugal},
          {"fastest_speedup", M->FastestSpeedup},
          {"frugal_speedup", M->FrugalSpeedup},
          {"fastest_joules", M->FastestJoules},
          {"frugal_joules", M->FrugalJoules},
          {"saving", M->Saving},
          {"noise", M->Noise},
          {"at_fastest", M->AtFastest},
          {"text", describeMatchedSpeed(*M)}};
}

static json rootMovesJSON(const Trajectory &T) {
  json Moves = json::array();
  for (const RootMove &M : T.RootMoves)
    Moves.push_back({{"step", M.Step},
                     {"prior", M.Prior},
                     {"motivation", M.Motivation},
                     {"outcome", M.Outcome}});
  return Moves;
}

static json seriesJSON(const Trajectory &T) {
  json Series = json::array();
  for (const TrajectoryPoint &P : T.Series)
    Series.push_back(
        {{"evaluation", P.Evaluation},
         {"hash", P.Hash},
         {"trace", P.Trace},
         {"status", toString(P.Status).str()},
         {"cached", P.Cached},
         {"twin_of", P.TwinOf.empty() ? json(nullptr) : json(P.TwinOf)},
         {"speedup", P.Speedup},
         {"measured", orNull(P.Measured)},
         {"roofline", orNull(P.Roofline)},
         {"interval",
          P.Low && P.High ? json::array({*P.Low, *P.High}) : json(nullptr)},
         {"stop_reason",
          P.StopReason.empty() ? json(nullptr) : json(P.StopReason)},
         {"stages", P.Stages},
         {"energy_saving", orNull(P.EnergySaving)},
         {"energy_spread", orNull(P.EnergySpread)},
         {"best", P.BestSpeedup}});
  return Series;
}

static json usageJSON(const std::optional<ProposerUsage> &U) {
  if (!U)
    return nullptr;
  return {{"model", U->Model},
          {"prompt_version", U->PromptVersion},
          {"calls", U->Calls},
          {"cached_calls", U->CachedCalls},
          {"proposals", U->Proposals},
          {"accepted", U->Accepted},
          {"tokens_in", U->TokensIn},
          {"tokens_out", U->TokensOut},
          {"cost", U->Cost},
          {"seconds", U->Seconds},
          {"notes", U->Notes}};
}

/// Absent fields are null; no provenance at all is null.
static json provenanceJSON(const ReportProvenance &P) {
  if (P.empty())
    return nullptr;
  auto OrNull = [](const std::string &S) {
    return S.empty() ? json() : json(S);
  };
  return {{"date", OrNull(P.Date)},
          {"tool", OrNull(P.Tool)},
          {"nvcc", OrNull(P.Nvcc)},
          {"command_line", OrNull(P.CommandLine)}};
}

nlohmann::json optiml::toJSON(const Trajectory &T) {
  json Steps = json::array();
  for (const TrajectoryStep &S : T.Steps)
    Steps.push_back({{"step", S.Step},
                     {"motivation", S.Motivation},
                     {"hash", S.Hash},
                     {"speedup_before", S.SpeedupBefore},
                     {"speedup_after", S.SpeedupAfter},
                     {"time_ns", S.TimeNs},
                     {"joules_per_launch", orNull(S.Joules)},
                     {"energy_spread", orNull(S.EnergySpread)},
                     {"roofline_before", orNull(S.RooflineBefore)},
                     {"roofline_after", orNull(S.RooflineAfter)},
                     {"reward", orNull(S.Reward)},
                     {"diff", S.Diff}});
  return {{"kernel", T.Kernel},
          {"strategy", T.Strategy},
          {"device", T.Device.empty() ? json(nullptr) : json(T.Device)},
          {"seed", orNull(T.Seed)},
          {"wall_seconds", orNull(T.WallSeconds)},
          {"stopped", T.Stopped.empty() ? json(nullptr) : json(T.Stopped)},
          {"improved", T.Improved},
          {"objective", toString(T.Goal).str()},
          {"best_gain", T.BestGain},
          {"best_speedup", T.BestSpeedup},
          {"joules_original", orNull(T.JoulesOriginal)},
          {"joules_best", orNull(T.JoulesBest)},
          {"matched_speed", matchedJSON(T.Matched)},
          {"best_trace", T.BestTrace},
          {"roofline_original", orNull(T.RooflineOriginal)},
          {"roofline_best", orNull(T.RooflineBest)},
          {"evaluated", T.Evaluated},
          {"failed", T.Failed},
          {"cached", T.Cached},
          {"twins", T.Twins},
          {"steps", Steps},
          {"llm", usageJSON(T.Llm)},
          {"provenance", provenanceJSON(T.Provenance)},
          {"series", seriesJSON(T)},
          {"root_moves", rootMovesJSON(T)},
          {"landscape",
           T.Landscape.empty() ? json(nullptr) : json::parse(T.Landscape)}};
}

std::string optiml::formatKernelTime(double Ns) {
  if (!(Ns > 0))
    return "n/a";
  if (Ns >= 1e6)
    return llvm::formatv("{0:F2} ms", Ns / 1e6).str();
  return llvm::formatv("{0:F1} us", Ns / 1e3).str();
}

std::string ReportProvenance::now() {
  std::time_t T = std::time(nullptr);
  std::tm Utc{};
  gmtime_r(&T, &Utc);
  char Text[32];
  std::strftime(Text, sizeof Text, "%Y-%m-%dT%H:%M:%SZ", &Utc);
  return Text;
}
