//===- OptimizeSearch.cpp - the search half of --optimize ----------------===//
//
// The checks of a search's options, the loop with its progress display,
// the output file and the reports, once the Expander and the Measurer
// exist (OptimizeAction sets those up; a test passes fakes).
//
//===----------------------------------------------------------------------===//

#include "driver/Optimize/OptimizeSearch.h"
#include "driver/Search/LlmGuide.h"
#include "optiml/Rewrite/ChangedLinesFormatter.h"
#include "optiml/Search/HtmlReport.h"
#include "optiml/Search/RecordingMeasurer.h"
#include "optiml/Search/StrategyFactory.h"
#include "optiml/Search/TrajectoryReport.h"
#include "optiml/Support/Error.h"
#include "optiml/Support/Interrupt.h"
#include "optiml/Support/JsonText.h"
#include "optiml/Support/OutputPath.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <nlohmann/json.hpp>

using namespace optiml;

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

llvm::Error optiml::checkStrategyName(llvm::StringRef Name) {
  if (Name == "mcts" || Name == "greedy" || Name == "random")
    return llvm::Error::success();
  return makeError(ErrorKind::BadInput,
                   "unknown --strategy '" + Name +
                       "' (choose mcts, greedy or random)");
}

llvm::Error optiml::checkOutputPath(llvm::StringRef Input,
                                    llvm::StringRef Output) {
  if (Output.empty() || Output == "-")
    return makeError(ErrorKind::BadInput,
                     "--optimize needs -o FILE.cu for the optimized kernel");
  if (llvm::Error E = refuseOverwrite(Input, Output))
    return E;
  return checkOutputFile(Output, "-o");
}

std::string optiml::reportPrefix(const OptimizeOptions &O) {
  if (!O.ReportPrefix.empty())
    return O.ReportPrefix;
  llvm::SmallString<256> P(O.OutputPath);
  llvm::sys::path::replace_extension(P, "");
  return (P + ".report").str();
}

//===----------------------------------------------------------------------===//
// The search
//===----------------------------------------------------------------------===//

static llvm::Error writeFile(llvm::StringRef Path, llvm::StringRef Text) {
  return writeOutputFile(Path, Text);
}

/// Seconds as "35s", "4m05s" or "1h02m".
static std::string durationText(double Seconds) {
  unsigned S = static_cast<unsigned>(Seconds + 0.5);
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  if (S < 60)
    OS << S << "s";
  else if (S < 3600)
    OS << S / 60 << "m" << llvm::format("%02u", S % 60) << "s";
  else
    OS << S / 3600 << "h" << llvm::format("%02u", S / 60 % 60) << "m";
  return Out;
}

/// What is left: the time limit's rest, or the budget's rest at the pace
/// so far, whichever ends first; unknown before the first measurement.
static std::string timeLeft(const SearchProgress &P, const OptimizeOptions &O) {
  double Left = -1;
  if (P.Evaluated > 0 && P.Evaluated < O.Budget)
    Left = P.Seconds / P.Evaluated * (O.Budget - P.Evaluated);
  if (O.TimeLimit > 0)
    Left = Left < 0 ? O.TimeLimit - P.Seconds
                    : std::min(Left, O.TimeLimit - P.Seconds);
  return Left < 0 ? "" : ", about " + durationText(Left) + " left";
}

/// "12/64 measured (2 failed, 3 from the database), best 1.42x, 35s,
/// about 2m20s left".
static std::string progressLine(const SearchProgress &P,
                                const OptimizeOptions &O) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << P.Evaluated << "/" << O.Budget << " measured (" << P.Failed
     << " failed";
  if (P.Cached > P.Twins)
    OS << ", " << P.Cached - P.Twins << " from the database";
  if (P.Twins)
    OS << ", " << P.Twins << " the same machine code as another";
  OS << "), best " << llvm::format("%.2fx", P.BestSpeedup);
  if (O.Goal != Objective::Time)
    OS << " (" << toString(O.Goal) << ")";
  OS << ", " << durationText(P.Seconds) << timeLeft(P, O);
  return S;
}

static void showProgress(const SearchProgress &P, const OptimizeOptions &O,
                         llvm::raw_ostream &Log, bool Interactive) {
  if (Interactive)
    Log << "\r\x1b[Kclang-optiml: " << progressLine(P, O);
  else
    Log << "clang-optiml: " << progressLine(P, O) << "\n";
  Log.flush();
}

/// The best state's source, the original when nothing beat it.
static llvm::Expected<std::string> bestSource(const SearchGraph &G,
                                              Expander &E) {
  int Best = G.best();
  std::optional<std::string> Text = E.sourceText(G.node(Best).Hash);
  if (!Text && Best != SearchGraph::Root)
    Text = E.sourceText(G.node(SearchGraph::Root).Hash);
  if (!Text)
    return makeError(ErrorKind::Internal, "the best source was lost");
  return *Text;
}

/// What -o gets: \p Best with the lines the search changed formatted in
/// the style of the user's file (the cache keeps the text as verified).
static std::string styled(const SearchGraph &G, Expander &E,
                          llvm::StringRef Best, const OptimizeOptions &O) {
  std::optional<std::string> Original =
      E.sourceText(G.node(SearchGraph::Root).Hash);
  if (!Original)
    return Best.str();
  return formatChangedLines(*Original, Best,
                            O.StylePath.empty() ? O.OutputPath : O.StylePath,
                            O.FormatStyle);
}

/// A search ranked by energy whose original got no energy reading ranked
/// nothing: the GPU or its driver has no energy counter.
static llvm::Error checkObjectiveMeasured(const SearchGraph &G,
                                          Objective Goal) {
  const Measurement &Original = G.node(SearchGraph::Root).Result;
  if (Goal == Objective::Time || !Original.ok() || Original.Joules)
    return llvm::Error::success();
  std::string Why = "the runner measured no energy";
  if (Original.Runner && Original.Runner->Energy &&
      !Original.Runner->Energy->Reason.empty())
    Why = Original.Runner->Energy->Reason;
  return makeError(ErrorKind::NoGPU,
                   "--objective=" + toString(Goal) +
                       " needs the GPU's energy counter (NVML): " + Why);
}

static llvm::Error writeReports(const Trajectory &T, OptimizeOutcome &Out,
                                const OptimizeOptions &O) {
  std::string Prefix = reportPrefix(O);
  Out.ReportMarkdown = Prefix + ".md";
  Out.ReportJSON = Prefix + ".json";
  Out.ReportHTML = Prefix + ".html";
  if (llvm::Error E = writeFile(Out.ReportMarkdown, toMarkdown(T)))
    return E;
  if (llvm::Error E = writeFile(Out.ReportHTML, toHtml(T)))
    return E;
  return writeFile(Out.ReportJSON, jsonText(toJSON(T)) + "\n");
}

static void printSummary(const OptimizeOutcome &Out, const OptimizeOptions &O,
                         llvm::raw_ostream &Log) {
  Log << "clang-optiml: stopped (" << toString(Out.Why)
      << "): " << Out.Evaluated << " measured, " << Out.Failed << " failed, "
      << Out.Cached - Out.Twins << " from the database";
  if (Out.Twins)
    Log << ", " << Out.Twins << " the same machine code as another";
  Log << "\n";
  if (Out.Improved)
    Log << "clang-optiml: best " << Out.Best << ": " << Out.BestTrace << "\n";
  else
    Log << "clang-optiml: nothing beat the original beyond the noise; "
           "writing the original\n";
  Log << "clang-optiml: wrote " << O.OutputPath << ", " << Out.ReportMarkdown
      << ", " << Out.ReportJSON << ", " << Out.ReportHTML << "\n";
}

llvm::Expected<OptimizeOutcome>
optiml::runOptimizeSearch(Expander &E, Measurer &M, Database &Db,
                          int64_t KernelId, llvm::StringRef KernelName,
                          const OptimizeOptions &O, llvm::raw_ostream &Log,
                          bool Interactive, const LlmGuide *Guide) {
  RecordingMeasurer Memo(Db, KernelId, M);
  Memo.rankBy(O.Goal);
  StrategyOptions SO;
  SO.Seed = O.Seed;
  SO.Mcts.RoundWidth = O.BatchSize;
  auto S = createStrategy(O.Strategy, E, SO);
  if (!S)
    return S.takeError();
  if (O.Resume)
    if (llvm::Error Err =
            loadFailureHistory(Db, KernelId, (*S)->graph().failures()))
      return Err;
  SearchLoop Loop(
      **S, Memo,
      {O.Budget, O.TimeLimit, O.BatchSize, O.Pipeline, O.BudgetCountsDatabase});
  if (O.StopRequested) {
    Memo.discardWhen(O.StopRequested);
    Loop.stopWhen(O.StopRequested);
  }
  Loop.onProgress(
      [&](const SearchProgress &P) { showProgress(P, O, Log, Interactive); });
  OptimizeOutcome Out;
  Out.Why = Loop.run();
  if (Interactive)
    Log << "\n";
  const SearchGraph &G = (*S)->graph();
  if (Out.Why == StopReason::Internal)
    return makeError(ErrorKind::Internal,
                     "the search stopped: " + G.internalError());
  if (llvm::Error Err = checkObjectiveMeasured(G, O.Goal))
    return Err;
  Trajectory T = buildTrajectory(G, E, KernelName, (*S)->name());
  T.Seed = O.Seed;
  T.WallSeconds = Loop.progress().Seconds;
  T.Stopped = toString(Out.Why).str();
  T.Provenance = O.Provenance;
  if (T.Provenance.Date.empty())
    T.Provenance.Date = ReportProvenance::now();
  if (Guide)
    T.Llm = Guide->usage();
  Out.Improved = T.Improved;
  Out.BestSpeedup = T.BestSpeedup;
  Out.Best = describeBest(T);
  Out.BestTrace = T.BestTrace;
  Out.Evaluated = G.evaluated();
  Out.Failed = G.failed();
  Out.Cached = G.cached();
  Out.Twins = G.twins();
  auto Text = bestSource(G, E);
  if (!Text)
    return Text.takeError();
  // The reports first: a build that sees -o finds them there too.
  if (llvm::Error Err = writeReports(T, Out, O))
    return Err;
  Out.Written = styled(G, E, *Text, O);
  if (llvm::Error Err = writeFile(O.OutputPath, Out.Written))
    return Err;
  Out.BestSource = *Text;
  Out.Seconds = T.WallSeconds.value_or(0);
  if (!Memo.databaseError().empty())
    Log << "clang-optiml: warning: the database failed, results were not "
           "all recorded: "
        << Memo.databaseError() << "\n";
  printSummary(Out, O, Log);
  return Out;
}
