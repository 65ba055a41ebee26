//===- OptimizeOptions.h - what --optimize is asked to do ------*- C++ -*-===//
//
// The options of one search (--optimize), shared by the action, the search
// it runs, --compare and --from-prompt's continuation.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DRIVER_OPTIMIZEOPTIONS_H
#define OPTIML_DRIVER_OPTIMIZEOPTIONS_H

#include "driver/Session/TransformChoice.h"
#include "optiml/Eval/RunPlan.h"
#include "optiml/LLM/LlmConfig.h"
#include "optiml/Search/Measurement.h"
#include "optiml/Search/ReportProvenance.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace optiml {

struct OptimizeOptions {
  std::string Kernel;   ///< Empty: the file's only kernel.
  std::string SpecPath; ///< Empty: the mark and/or <file>.optiml.json.
  std::string Arch;     ///< Empty: the GPU's own.
  std::vector<std::string> NvccFlags;
  std::string Strategy = "mcts"; ///< mcts, greedy or random.
  unsigned Budget = 64;   ///< Candidates measured, the original included.
  double TimeLimit = 0;   ///< Seconds of wall time; 0: none.
  unsigned BatchSize = 4; ///< Candidates built in parallel.
  /// --gpus: "" (the first GPU), "all" or ordinals ("0,1"); a batch's
  /// candidates are measured on them in parallel.
  std::string Gpus;
  std::string DbPath;       ///< Empty: Database::defaultPath().
  bool Resume = false;      ///< Seed failures from earlier runs.
  std::string OutputPath;   ///< Required; never the input.
  std::string ReportPrefix; ///< Empty: OUT without .cu, + ".report".
  MeasureOptions Measure;   ///< Metrics are forced on.
  Screening Screen;         ///< --measure=adaptive (default) or full.
  /// --objective: what the search ranks by. Energy and edp measure NVML
  /// energy per launch for every candidate and turn screening off (a
  /// slower candidate may still use less energy).
  Objective Goal = Objective::Time;
  unsigned TimeoutSeconds = 300; ///< For one candidate's run.
  /// --runner=worker: one runner process per GPU serves the whole search
  /// (context and the original's outputs kept); false: a process per
  /// candidate.
  bool PersistentRunner = true;
  /// --measure-with (hidden, for tests): a program that measures each
  /// candidate in the GPU's place (CommandMeasurer); nothing is built and
  /// nothing goes to the results cache. Empty: the GPUs.
  std::string MeasureWith;
  /// --pipeline: BatchSize candidates in flight, a new one proposed and
  /// its build started as each comes back, so that nvcc builds while the
  /// GPU measures; false: in batches, built and then measured.
  bool Pipeline = true;
  /// Database answers count against Budget (SearchBudget::CountCached).
  bool BudgetCountsDatabase = false;
  uint64_t Seed = 1; ///< For --strategy=random.
  /// --compare: these strategies search one after the other, on one
  /// database and one runner per GPU, each at Budget with the database's
  /// answers counted; random once per seed (Seed .. Seed+CompareSeeds-1).
  /// -o gets the best kernel of any; each search writes its own report.
  std::vector<std::string> Compare;
  unsigned CompareSeeds = 5;      ///< --compare-seeds: random's searches.
  LlmConfig Llm;                  ///< Provider none: no model asked.
  std::string LlmPolicy = "both"; ///< expand, prior or both.
  unsigned LlmSamples = 1;        ///< Rounds per state.
  unsigned LlmCount = 3;          ///< Proposals asked for per round.
  std::string ProposalsFrom;      ///< A --propose -o folder; empty: none.
  TransformChoice Transforms;     ///< --transforms and --exclude.
  /// Not empty: the file's text to start from instead of what is on disk
  /// (the earlier kernels of the file already optimized).
  std::string StartText;
  /// What the reports say made them: the tool sets its version and the
  /// command line, OptimizeAction::optimize() the nvcc release, the search the
  /// date.
  ReportProvenance Provenance;
  /// Whose .clang-format styles the lines the search changed in -o: set by
  /// OptimizeAction::optimize() to the input; empty: -o's.
  std::string StylePath;
  /// --format-style: "file" (the .clang-format that applies to StylePath,
  /// LLVM's without one), "none" (as the rewrites wrote them) or a
  /// clang-format style name.
  std::string FormatStyle = "file";
  /// Polled by the search: true stops it, and what was verified so far is
  /// written. Unset: OptimizeAction::optimize makes it SIGINT and SIGTERM.
  std::function<bool()> StopRequested;
};

} // namespace optiml

#endif // OPTIML_DRIVER_OPTIMIZEOPTIONS_H
