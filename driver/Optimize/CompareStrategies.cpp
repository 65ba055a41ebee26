//===- CompareStrategies.cpp - --compare: strategies side by side ---------===//

#include "driver/Optimize/CompareStrategies.h"
#include "optiml/Support/Error.h"
#include "optiml/Support/JsonText.h"
#include "optiml/Support/OutputPath.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <nlohmann/json.hpp>

using namespace optiml;

llvm::Error optiml::checkCompareOptions(const OptimizeOptions &O) {
  llvm::StringSet<> Seen;
  for (const std::string &Name : O.Compare) {
    if (llvm::Error E = checkStrategyName(Name))
      return E;
    if (!Seen.insert(Name).second)
      return makeError(ErrorKind::BadInput,
                       "--compare names '" + Name + "' twice");
  }
  if (O.CompareSeeds < 1 || O.CompareSeeds > 100)
    return makeError(ErrorKind::BadInput,
                     "--compare-seeds=" + llvm::Twine(O.CompareSeeds) +
                         " is outside 1..100");
  if (O.Llm.enabled() || !O.ProposalsFrom.empty())
    return makeError(ErrorKind::BadInput,
                     "--compare compares the strategies without a model: "
                     "drop --llm or --proposals-from");
  return llvm::Error::success();
}

OptimizeOptions optiml::runOptions(const OptimizeOptions &O,
                                   const ComparedRun &R) {
  OptimizeOptions One = O;
  One.Strategy = R.Strategy;
  One.Seed = R.Seed.value_or(O.Seed);
  One.ReportPrefix = R.Prefix;
  One.OutputPath = R.Prefix + ".cu";
  One.BudgetCountsDatabase = true;
  return One;
}

std::vector<ComparedRun> optiml::comparedRuns(const OptimizeOptions &O) {
  std::string Prefix = reportPrefix(O);
  std::vector<ComparedRun> Runs;
  for (const std::string &Name : O.Compare) {
    if (Name != "random") {
      Runs.push_back({Name, std::nullopt, Prefix + "." + Name, {}});
      continue;
    }
    for (uint64_t Seed = O.Seed; Seed < O.Seed + O.CompareSeeds; ++Seed)
      Runs.push_back({Name,
                      Seed,
                      Prefix + "." + Name + "-seed" + std::to_string(Seed),
                      {}});
  }
  return Runs;
}

namespace {

/// A strategy's best speedups over its searches.
struct Summary {
  std::string Strategy;
  double Mean = 0, Min = 0, Max = 0;
  unsigned Runs = 0;
};

std::vector<Summary> strategySummaries(llvm::ArrayRef<ComparedRun> Runs) {
  std::vector<Summary> Out;
  for (const ComparedRun &R : Runs) {
    if (Out.empty() || Out.back().Strategy != R.Strategy)
      Out.push_back(
          {R.Strategy, 0, R.Outcome.BestSpeedup, R.Outcome.BestSpeedup, 0});
    Summary &S = Out.back();
    S.Mean += R.Outcome.BestSpeedup;
    S.Min = std::min(S.Min, R.Outcome.BestSpeedup);
    S.Max = std::max(S.Max, R.Outcome.BestSpeedup);
    ++S.Runs;
  }
  for (Summary &S : Out)
    S.Mean /= S.Runs;
  return Out;
}

std::string compareSeedText(const ComparedRun &R) {
  return R.Seed ? std::to_string(*R.Seed) : "-";
}

/// "mcts 2.45x, greedy 2.42x, random 2.12x (5 seeds, 1.00..4.92x)".
std::string meansLine(llvm::ArrayRef<Summary> Sums) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  for (const Summary &S : Sums) {
    if (&S != Sums.begin())
      OS << ", ";
    OS << S.Strategy << " " << llvm::format("%.2fx", S.Mean);
    if (S.Runs > 1)
      OS << " (" << S.Runs << " seeds, " << llvm::format("%.2f", S.Min) << ".."
         << llvm::format("%.2fx", S.Max) << ")";
  }
  return Out;
}

std::string compareMarkdown(llvm::ArrayRef<ComparedRun> Runs,
                            llvm::ArrayRef<Summary> Sums,
                            llvm::StringRef Kernel, const OptimizeOptions &O) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << "# Strategies compared on " << Kernel << "\n\n"
     << "Budget " << O.Budget
     << " candidates each, the original included; one database, whose "
        "answers count against the budget as if measured.\n\n"
     << "| strategy | seed | best | measured | from the database | failed | "
        "seconds | best steps |\n"
     << "|---|---:|---:|---:|---:|---:|---:|---|\n";
  for (const ComparedRun &R : Runs) {
    const OptimizeOutcome &C = R.Outcome;
    OS << "| " << R.Strategy << " | " << compareSeedText(R) << " | "
       << llvm::format("%.2fx", C.BestSpeedup) << " | " << C.Evaluated << " | "
       << C.Cached << " | " << C.Failed << " | "
       << llvm::format("%.0f", C.Seconds) << " | "
       << (C.BestTrace.empty() ? "(the original)" : C.BestTrace) << " |\n";
  }
  OS << "\nMean best: " << meansLine(Sums) << ".\n";
  return Out;
}

nlohmann::json compareJson(llvm::ArrayRef<ComparedRun> Runs,
                           llvm::ArrayRef<Summary> Sums, llvm::StringRef Kernel,
                           const OptimizeOptions &O) {
  nlohmann::json J = {{"kernel", Kernel.str()},
                      {"budget", O.Budget},
                      {"runs", nlohmann::json::array()},
                      {"strategies", nlohmann::json::array()}};
  for (const ComparedRun &R : Runs) {
    const OptimizeOutcome &C = R.Outcome;
    J["runs"].push_back({{"strategy", R.Strategy},
                         {"seed", R.Seed ? nlohmann::json(*R.Seed) : nullptr},
                         {"best_speedup", C.BestSpeedup},
                         {"improved", C.Improved},
                         {"evaluated", C.Evaluated},
                         {"cached", C.Cached},
                         {"failed", C.Failed},
                         {"seconds", C.Seconds},
                         {"best_trace", C.BestTrace},
                         {"report", C.ReportJSON}});
  }
  for (const Summary &S : Sums)
    J["strategies"].push_back({{"strategy", S.Strategy},
                               {"runs", S.Runs},
                               {"mean", S.Mean},
                               {"min", S.Min},
                               {"max", S.Max}});
  return J;
}

} // namespace

llvm::Expected<OptimizeOutcome>
optiml::compareStrategies(Expander &E, Measurer &M, Database &Db,
                          int64_t KernelId, llvm::StringRef KernelName,
                          const OptimizeOptions &O, llvm::raw_ostream &Log,
                          bool Interactive) {
  if (llvm::Error Err = checkCompareOptions(O))
    return Err;
  std::vector<ComparedRun> Runs = comparedRuns(O);
  size_t Done = 0, Best = 0;
  for (; Done < Runs.size(); ++Done) {
    if (O.StopRequested && O.StopRequested())
      break;
    ComparedRun &R = Runs[Done];
    OptimizeOptions One = runOptions(O, R);
    Log << "clang-optiml: --compare: " << R.Strategy
        << (R.Seed ? " seed " + std::to_string(*R.Seed) : "") << "\n";
    M.newSearch();
    auto Outcome = runOptimizeSearch(E, M, Db, KernelId, KernelName, One, Log,
                                     Interactive);
    if (!Outcome)
      return Outcome.takeError();
    R.Outcome = std::move(*Outcome);
    if (R.Outcome.BestSpeedup > Runs[Best].Outcome.BestSpeedup)
      Best = Done;
  }
  if (Done == 0)
    return makeError(ErrorKind::Internal,
                     "--compare was stopped before its first search");
  Runs.resize(Done); // The rest never ran: stopped.
  std::vector<Summary> Sums = strategySummaries(Runs);
  const ComparedRun &Winner = Runs[Best];
  OptimizeOutcome Out = Winner.Outcome;
  // Stopped by the user: the exit code says so even when the best search
  // had ended on its own before.
  bool Stopped = O.StopRequested && O.StopRequested();
  if (Stopped)
    Out.Why = StopReason::Interrupted;
  std::string Prefix = reportPrefix(O) + ".compare";
  Out.ReportMarkdown = Prefix + ".md";
  Out.ReportJSON = Prefix + ".json";
  Out.ReportHTML = Winner.Outcome.ReportHTML;
  if (llvm::Error Err = writeOutputFile(
          Out.ReportMarkdown, compareMarkdown(Runs, Sums, KernelName, O)))
    return Err;
  if (llvm::Error Err = writeOutputFile(
          Out.ReportJSON,
          jsonText(compareJson(Runs, Sums, KernelName, O)) + "\n"))
    return Err;
  if (llvm::Error Err = writeOutputFile(O.OutputPath, Out.Written))
    return Err;
  if (Stopped)
    Log << "clang-optiml: --compare was stopped after " << Runs.size() << " of "
        << comparedRuns(O).size() << " searches\n";
  Log << "clang-optiml: --compare at budget " << O.Budget << ": mean best "
      << meansLine(Sums) << "\n"
      << "clang-optiml: the best, " << Out.Best << " (" << Winner.Strategy
      << (Winner.Seed ? " seed " + std::to_string(*Winner.Seed) : "")
      << "), written to " << O.OutputPath << "; the table in "
      << Out.ReportMarkdown << " and " << Out.ReportJSON << "\n";
  return Out;
}
