//===- Driver.h - the actions of clang-optiml -----------------*- C++ -*-===//
//
// The command-line tool parses options and calls one action here; actions
// return llvm::Error so that the tool alone decides how errors are printed
// and which exit code they get.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DRIVER_DRIVER_H
#define OPTIML_DRIVER_DRIVER_H

#include "optiml/Driver/TransformChoice.h"
#include "optiml/Eval/RunPlan.h"
#include "optiml/Frontend/CudaToolchain.h"
#include "optiml/IR/KernelInfo.h"
#include "optiml/IR/KernelSource.h"
#include "optiml/LLM/LlmConfig.h"
#include "optiml/Search/Measurement.h"
#include "optiml/Search/ReportProvenance.h"
#include "optiml/Spec/KernelSpec.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>

namespace optiml {

enum class OutputFormat { Text, JSON };

struct EvaluateOptions {
  std::string Kernel;    ///< Empty: the file's only kernel.
  std::string Candidate; ///< Empty: the reference against itself.
  std::string SpecPath;  ///< Empty: the mark and/or <file>.optiml.json.
  std::string Arch;      ///< Empty: the GPU's own, else sm_90.
  std::vector<std::string> NvccFlags;
  MeasureOptions Measure;
  unsigned TimeoutSeconds = 300; ///< For one runner process.
  bool BuildOnly = false;        ///< Compile and report; no GPU needed.
};

struct OptimizeOptions {
  std::string Kernel;   ///< Empty: the file's only kernel.
  std::string SpecPath; ///< Empty: the mark and/or <file>.optiml.json.
  std::string Arch;     ///< Empty: the GPU's own.
  std::vector<std::string> NvccFlags;
  std::string Strategy = "mcts"; ///< mcts, greedy or random.
  unsigned Budget = 64;     ///< Candidates measured, the original included.
  double TimeLimit = 0;     ///< Seconds of wall time; 0: none.
  unsigned BatchSize = 4;   ///< Candidates built in parallel.
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
  uint64_t Seed = 1;             ///< For --strategy=random.
  /// --compare: these strategies search one after the other, on one
  /// database and one runner per GPU, each at Budget with the database's
  /// answers counted; random once per seed (Seed .. Seed+CompareSeeds-1).
  /// -o gets the best kernel of any; each search writes its own report.
  std::vector<std::string> Compare;
  unsigned CompareSeeds = 5;     ///< --compare-seeds: random's searches.
  LlmConfig Llm;                 ///< Provider none: no model asked.
  std::string LlmPolicy = "both"; ///< expand, prior or both.
  unsigned LlmSamples = 1;        ///< Rounds per state.
  unsigned LlmCount = 3;          ///< Proposals asked for per round.
  std::string ProposalsFrom; ///< A --propose -o folder; empty: none.
  TransformChoice Transforms; ///< --transforms and --exclude.
  /// Not empty: the file's text to start from instead of what is on disk
  /// (the earlier kernels of the file already optimized).
  std::string StartText;
  /// What the reports say made them: the tool sets its version and the
  /// command line, optimize() the nvcc release, the search the date.
  ReportProvenance Provenance;
  /// Whose .clang-format styles the lines the search changed in -o: set by
  /// optimize() to the input; empty: -o's.
  std::string StylePath;
  /// --format-style: "file" (the .clang-format that applies to StylePath,
  /// LLVM's without one), "none" (as the rewrites wrote them) or a
  /// clang-format style name.
  std::string FormatStyle = "file";
  /// Polled by the search: true stops it, and what was verified so far is
  /// written. Unset: Driver::optimize makes it SIGINT and SIGTERM.
  std::function<bool()> StopRequested;
};

struct ProposeOptions {
  std::string Kernel;   ///< Empty: the file's only kernel.
  std::string SpecPath; ///< Empty: the mark and/or <file>.optiml.json.
  std::string Arch;     ///< For the nvcc build; empty: sm_90.
  std::vector<std::string> NvccFlags;
  unsigned Count = 3;    ///< Proposals asked for.
  std::string OutputDir; ///< Empty: nothing written.
  std::string DbPath;    ///< Empty: Database::defaultPath().
  LlmConfig Llm;
};

struct FromPromptOptions {
  std::string Description;     ///< What the kernel must compute.
  std::string DescriptionFile; ///< Where it was read from; may be empty.
  std::string Name;            ///< Empty: the model names the kernel.
  unsigned Thoughts = 3;       ///< Strategies, one kernel each.
  std::string OutputPath;      ///< Required.
  std::string Arch;            ///< Empty: the GPU's own, else sm_90.
  std::vector<std::string> NvccFlags;
  std::string DbPath; ///< Empty: Database::defaultPath().
  LlmConfig Llm;
  unsigned ReferenceAttempts = 2; ///< References written before giving up.
  MeasureOptions Measure;
  unsigned TimeoutSeconds = 300; ///< For one runner process.
  /// Set: the search continues from the chosen kernel (its OutputPath is
  /// OutputPath, its Kernel the generated one).
  std::optional<OptimizeOptions> Optimize;
};

struct UseCacheOptions {
  std::string SpecPath; ///< Empty: the marks and <file>.optiml.json.
  std::string Arch;     ///< Empty: the GPU's own, else the parse default.
  std::vector<std::string> NvccFlags; ///< Part of the key.
  std::string DbPath;     ///< Empty: Database::defaultPath().
  std::string ImportPath; ///< A cache file imported first; may be empty.
  std::string OutputPath; ///< Empty or "-": stdout; never the input.
};

class Driver {
public:
  Driver(const char *ToolPath, const clang::tooling::CompilationDatabase &DB,
         CudaToolchain Toolchain, llvm::raw_ostream &Out,
         llvm::raw_ostream &Err)
      : ToolPath(ToolPath), DB(DB), Toolchain(std::move(Toolchain)), Out(Out),
        Err(Err) {}

  /// Parses \p File and lists its kernels; \p Kernel, when not empty,
  /// selects one. A file without kernels or an unknown kernel is BadInput.
  llvm::Error listKernels(llvm::StringRef File, llvm::StringRef Kernel,
                          OutputFormat Format);

  /// Loads the spec of every kernel of \p File (or \p Kernel) that has
  /// one, its mark or its sidecar entry: every error goes to the error
  /// stream with its position, a verdict per kernel to the output (one
  /// JSON document with --format=json). Returns how many errors there were.
  llvm::Expected<unsigned> check(llvm::StringRef File, llvm::StringRef Kernel,
                                 llvm::StringRef SpecPath, OutputFormat Format);

  /// The kernels of \p File that have a spec, in the file's order; a spec
  /// that does not load is an error.
  llvm::Expected<std::vector<std::string>>
  specifiedKernels(llvm::StringRef File, llvm::StringRef SpecPath);

  /// --evaluate of every kernel of \p File that has a spec, one report
  /// each and a summary line, when Options.Kernel is empty and there are
  /// several; else evaluate(). Returns the worst exit code.
  llvm::Expected<int> evaluateEach(llvm::StringRef File,
                                   const EvaluateOptions &Options,
                                   OutputFormat Format);

  /// --optimize of every kernel of \p File that has a spec, each search
  /// starting from the file as the ones before left it, so that
  /// Options.OutputPath ends with every kernel's best version; one report
  /// each (`<prefix>.<kernel>.md`), then a summary line. One kernel (or
  /// Options.Kernel): optimize().
  llvm::Expected<int> optimizeEach(llvm::StringRef File,
                                   const OptimizeOptions &Options);

  /// Builds, verifies and times a kernel (or a candidate file against it)
  /// on the GPU. Returns the exit code: ExitOK when the candidate is
  /// accepted, ExitRejected when it is not; tool failures and a missing GPU
  /// are errors.
  llvm::Expected<int> evaluate(llvm::StringRef File,
                               const EvaluateOptions &Options,
                               OutputFormat Format);

  /// --time-rewrites (hidden): applies every legal move of \p File's kernel
  /// and of its first child the way the search does, and prints each one's
  /// seconds (the step and the re-parse) with their median; no GPU needed.
  llvm::Error timeRewrites(llvm::StringRef File, llvm::StringRef Kernel);

  /// Lists the registered transforms with their parameters and domains.
  llvm::Error listTransforms(OutputFormat Format);

  /// Parses \p File and tells, for each kernel (or \p Kernel), where each
  /// transform applies (with the --apply spelling of its default
  /// parameters) and why not elsewhere; \p Choice limits the transforms.
  llvm::Error listSites(llvm::StringRef File, llvm::StringRef Kernel,
                        OutputFormat Format,
                        const TransformChoice &Choice = TransformChoice());

  /// Applies \p Steps (`name(site=...,p=v)`) in order, each on the re-parsed
  /// result of the previous one, and writes the result to \p OutputPath
  /// (never the input file) or, when empty, to the output stream. A refused
  /// step is an Illegal or NotApplicable error naming its reason. The
  /// lines the steps changed are formatted in \p FormatStyle (as
  /// OptimizeOptions::FormatStyle, for the input's path).
  llvm::Error applySteps(llvm::StringRef File,
                         llvm::ArrayRef<std::string> Steps,
                         llvm::StringRef OutputPath,
                         llvm::StringRef FormatStyle = "file");

  /// Searches rewrites of one kernel for the fastest verified one (build,
  /// verify and time on the GPU, remembered in the database), writes it to
  /// Options.OutputPath (the original when nothing beats it) and the
  /// trajectory report next to it. A missing GPU is a NoGPU error, before
  /// anything is built.
  llvm::Expected<int> optimize(llvm::StringRef File,
                               const OptimizeOptions &Options);

  /// Asks the model for Options.Count proposals on one kernel, validates
  /// each statically (apply, re-parse, the edit checks, an nvcc build) and
  /// lists them; accepted edits go to Options.OutputDir. ExitOK when the
  /// model answered, whatever it proposed; no answer is an error.
  llvm::Expected<int> propose(llvm::StringRef File,
                              const ProposeOptions &Options,
                              OutputFormat Format);

  /// Asks the model for a kernel's interface (signature and spec), for
  /// Options.Thoughts strategies, one kernel each and a simple reference;
  /// checks each statically (one repair round), cross-checks them on the
  /// GPU when there is one and writes the fastest verified kernel with the
  /// reference beside it, and a report. ExitOK when a kernel was written,
  /// ExitRejected when the reference could not be trusted.
  llvm::Expected<int> fromPrompt(const FromPromptOptions &Options);

  /// The drop-in step: writes \p File with each marked kernel that has a
  /// cached result replaced by it (its steps replayed and checked) and
  /// every other byte as it was; one line per marked kernel on the error
  /// stream says hit or miss, and why. Misses are not errors.
  llvm::Error useCache(llvm::StringRef File, const UseCacheOptions &Options);
  /// Adds the results of the cache file \p Path to the database; a result
  /// never replaces a faster one of the same key.
  llvm::Error importCache(llvm::StringRef Path, llvm::StringRef DbPath);
  /// Writes every cached result of the database to \p Path.
  llvm::Error exportCache(llvm::StringRef Path, llvm::StringRef DbPath);

private:
  /// What --evaluate and --optimize work on: the file's inventory, the
  /// chosen kernel, its spec and its source.
  struct Target {
    KernelInventory Inventory;
    size_t Index;
    KernelSpec Spec;
    KernelSource Source;
    const KernelInfo &kernel() const { return Inventory.Kernels[Index]; }
  };
  llvm::Expected<Target> loadTarget(llvm::StringRef File,
                                    llvm::StringRef Kernel,
                                    llvm::StringRef SpecPath,
                                    llvm::StringRef StartText = "");

  llvm::Expected<KernelInventory> inventoryOf(llvm::StringRef File);
  llvm::Expected<KernelInventory> inventoryOfText(const KernelSource &Source);
  /// The spec errors of \p Kernels as warnings ("file:l:c: warning: ..."),
  /// also printed on the error stream: a listing shows a mark that does
  /// not check instead of accepting it silently.
  std::vector<std::string>
  specWarnings(const std::vector<const KernelInfo *> &Kernels,
               llvm::StringRef File);
  llvm::Error checkCandidateFile(const KernelSource &Original,
                                 const KernelSource &Candidate,
                                 const KernelInfo &Kernel);
  llvm::Expected<const KernelInfo *> selectOne(const KernelInventory &Inv,
                                               llvm::StringRef Kernel);
  llvm::Expected<std::vector<const KernelInfo *>>
  select(const KernelInventory &Inv, llvm::StringRef Kernel);

  const char *ToolPath;
  const clang::tooling::CompilationDatabase &DB;
  CudaToolchain Toolchain;
  llvm::raw_ostream &Out;
  llvm::raw_ostream &Err;
};

} // namespace optiml

#endif // OPTIML_DRIVER_DRIVER_H
