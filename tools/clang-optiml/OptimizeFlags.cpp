//===- OptimizeFlags.cpp - the options of --optimize and --propose -------===//
//
// The search's options (docs/Optimize.md), the model's proposals it
// weighs, and --propose's count, with the checks that refuse a search
// that would do nothing or ignore what it was told.
//
//===----------------------------------------------------------------------===//

#include "Flags.h"

#include "optiml/Rewrite/ChangedLinesFormatter.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace optiml;
using namespace llvm;

static cl::OptionCategory OptimizeHeading("Options of --optimize");
static cl::OptionCategory ProposeHeading("Options of --propose");

static cl::opt<std::string>
    Strategy("strategy", cl::desc("One of mcts (default), greedy or random"),
             cl::init("mcts"), cl::cat(optimlCategory()));
static cl::opt<unsigned> Budget("budget",
                                cl::desc("Candidates to measure, the original "
                                         "included (default 64)"),
                                cl::init(64), cl::cat(optimlCategory()));
static cl::opt<unsigned>
    Jobs("jobs",
         cl::desc("Candidates in flight (or per batch), built by nvcc in "
                  "parallel (1..64, default 4); each GPU times one at a "
                  "time; -j N for short"),
         cl::init(4), cl::cat(optimlCategory()));
static cl::opt<std::string>
    GpuList("gpus",
            cl::desc("GPUs to measure candidates on, in parallel: 'all' or "
                     "numbers such as 0,1 (default: the first GPU); each "
                     "speedup is against the original on the same GPU"),
            cl::value_desc("all|N,N,..."), cl::init(""),
            cl::cat(optimlCategory()));
static cl::alias JobsShort("j", cl::desc("Alias for --jobs"),
                           cl::cat(optimlCategory()), cl::aliasopt(Jobs));
enum class MeasureMode { Adaptive, Full };
static cl::opt<MeasureMode> Measure(
    "measure", cl::desc("How candidates are measured"),
    cl::values(clEnumValN(MeasureMode::Adaptive, "adaptive",
                          "one that cannot be the best stops after a first "
                          "batch of pairs and gets no counters (default)"),
               clEnumValN(MeasureMode::Full, "full",
                          "every candidate timed to convergence and "
                          "profiled with counters")),
    cl::init(MeasureMode::Adaptive), cl::cat(optimlCategory()));
enum class RunnerMode { Worker, Process };
static cl::opt<RunnerMode> RunnerKind(
    "runner", cl::desc("How --optimize runs candidates on a GPU"),
    cl::values(clEnumValN(RunnerMode::Worker, "worker",
                          "one runner process per GPU serves the whole "
                          "search, keeping its context and the original's "
                          "outputs (default)"),
               clEnumValN(RunnerMode::Process, "process",
                          "a fresh runner process for every candidate")),
    cl::init(RunnerMode::Worker), cl::cat(optimlCategory()));
static cl::opt<std::string> MeasureWith(
    "measure-with",
    cl::desc("Measure each candidate by running this program instead of "
             "building it and timing it on a GPU, for tests: it gets the "
             "candidate's file and steps and prints its speedup on its "
             "last line (exit 0), or fails for a wrong result"),
    cl::value_desc("program"), cl::Hidden, cl::cat(optimlCategory()));
static cl::opt<bool> Pipeline(
    "pipeline",
    cl::desc("Keep -j candidates in flight and propose a new one as each "
             "comes back, so that nvcc builds while the GPU measures "
             "(default); --pipeline=false measures in batches, each built "
             "and then measured"),
    cl::init(true), cl::cat(optimlCategory()));
static cl::opt<bool> BudgetCountsDatabase(
    "budget-counts-database",
    cl::desc("Candidates answered from the database count against --budget "
             "as if measured, so that strategies compared on one database "
             "get the same number of candidates (default: only measured "
             "ones count)"),
    cl::init(false), cl::cat(optimlCategory()));
static cl::opt<Objective> Goal(
    "objective", cl::desc("What the search minimizes"),
    cl::values(clEnumValN(Objective::Time, "time",
                          "the kernel's time (default)"),
               clEnumValN(Objective::Energy, "energy",
                          "its energy per launch (NVML), whatever its speed"),
               clEnumValN(Objective::Edp, "edp",
                          "the product of the two (energy-delay product)")),
    cl::init(Objective::Time), cl::cat(optimlCategory()));
static cl::opt<double> TimeLimit("time-limit",
                                 cl::desc("Stop after this many seconds "
                                          "(default: no limit)"),
                                 cl::init(0), cl::cat(optimlCategory()));
static cl::opt<bool> Resume("resume",
                            cl::desc("Start from what earlier runs on this "
                                     "kernel learned (failing transforms)"),
                            cl::cat(optimlCategory()));
static cl::opt<std::string> FormatStyle(
    "format-style",
    cl::desc("How the lines a rewrite changed are laid out in the written "
             "source: file (the input's .clang-format, LLVM's without one), "
             "none (as the rewrite wrote them) or a clang-format style "
             "(LLVM, Google, \"{BasedOnStyle: LLVM, ColumnLimit: 100}\"); "
             "default: file"),
    cl::init("file"), cl::value_desc("style"), cl::cat(optimlCategory()));
static cl::opt<std::string>
    ReportPrefix("report",
                 cl::desc("Write the report to PREFIX.md, "
                          "PREFIX.json and PREFIX.html (a page with a plot of "
                          "the best speedup over evaluations; default: "
                          "OUT.report)"),
                 cl::value_desc("prefix"), cl::cat(optimlCategory()));
static cl::opt<uint64_t>
    SearchSeed("search-seed",
               cl::desc("Seed of the strategy's random "
                        "choices (random's; mcts and greedy make none), so a "
                        "run can be repeated (default 1)"),
               cl::init(1), cl::value_desc("N"), cl::cat(optimlCategory()));
static cl::list<std::string> Compare(
    "compare",
    cl::desc("Run these strategies one after the other at --budget, on one "
             "database (a candidate one measured counts for the others as "
             "if measured) and one runner per GPU, and write a table of "
             "what each found to PREFIX.compare.md and .json; -o gets the "
             "best kernel of any, each search its own report at "
             "PREFIX.<strategy>"),
    cl::CommaSeparated, cl::value_desc("mcts,greedy,random"),
    cl::cat(optimlCategory()));
static cl::opt<unsigned> CompareSeeds(
    "compare-seeds",
    cl::desc("Searches of the random strategy under --compare, seeded "
             "--search-seed, +1, ... (default 5); mcts and greedy make no "
             "random choice and run once"),
    cl::init(5), cl::value_desc("N"), cl::cat(optimlCategory()));
static cl::list<std::string> TransformNames(
    "transforms",
    cl::desc("Search only these transforms (comma-separated, see "
             "--list-transforms); a transform that changes numerics is "
             "searched when named here even if the spec's tolerance is "
             "tight"),
    cl::CommaSeparated, cl::value_desc("a,b"), cl::cat(optimlCategory()));
static cl::list<std::string> ExcludedNames(
    "exclude", cl::desc("Never these transforms (comma-separated)"),
    cl::CommaSeparated, cl::value_desc("c,d"), cl::cat(optimlCategory()));
static cl::opt<unsigned>
    ProposalCount("n",
                  cl::desc("Proposals to ask for (1..32, default 3); with "
                           "--optimize and a model, at every state"),
                  cl::init(3), cl::value_desc("N"), cl::cat(optimlCategory()));
static cl::opt<std::string> LlmPolicyName(
    "llm-policy",
    cl::desc("With a model (--llm or --proposals-from): expand (the model's "
             "proposals become extra moves), prior (its picks "
             "weigh the listed moves) or both (default)"),
    cl::init("both"), cl::value_desc("expand|prior|both"),
    cl::cat(optimlCategory()));
static cl::opt<unsigned>
    LlmSamples("llm-samples",
               cl::desc("With a model (--llm): rounds of proposals "
                        "per state, each at a higher temperature (1..8, "
                        "default 1)"),
               cl::init(1), cl::value_desc("N"), cl::cat(optimlCategory()));
static cl::opt<std::string> ProposalsFrom(
    "proposals-from",
    cl::desc("Take the proposals that --propose -o DIR "
             "wrote (on a machine that reached the model) as extra moves "
             "from the original kernel; no endpoint needed"),
    cl::value_desc("dir"), cl::cat(optimlCategory()));

TransformChoice optiml::transformChoice() {
  return TransformChoice(TransformNames, ExcludedNames);
}

std::string optiml::formatStyle() { return FormatStyle; }

OptimizeOptions optiml::optimizeOptions(const TargetFlags &T, LlmConfig Llm,
                                        const ReportProvenance &Provenance) {
  OptimizeOptions O;
  O.Provenance = Provenance;
  O.Llm = std::move(Llm);
  O.LlmPolicy = LlmPolicyName;
  O.LlmSamples = LlmSamples;
  O.LlmCount = ProposalCount;
  O.ProposalsFrom = ProposalsFrom;
  O.Kernel = T.Kernel;
  O.SpecPath = T.SpecPath;
  O.Arch = T.Arch;
  O.NvccFlags = T.NvccFlags;
  O.Strategy = Strategy;
  O.Budget = Budget;
  O.BatchSize = Jobs;
  O.Gpus = GpuList;
  O.TimeLimit = TimeLimit;
  O.Screen.Enabled = Measure == MeasureMode::Adaptive;
  O.PersistentRunner = RunnerKind == RunnerMode::Worker;
  O.MeasureWith = MeasureWith;
  O.Pipeline = Pipeline;
  O.BudgetCountsDatabase = BudgetCountsDatabase;
  O.Goal = Goal;
  O.DbPath = T.DbPath;
  O.Resume = Resume;
  O.OutputPath = T.Output;
  O.ReportPrefix = ReportPrefix;
  O.FormatStyle = FormatStyle;
  O.Seed = SearchSeed;
  O.Compare.assign(Compare.begin(), Compare.end());
  O.CompareSeeds = CompareSeeds;
  O.Measure.NoiseTarget = T.NoiseTarget;
  O.TimeoutSeconds = T.TimeoutSeconds;
  O.Transforms = transformChoice();
  return O;
}

ProposeOptions optiml::proposeOptions(const TargetFlags &T, LlmConfig Llm) {
  ProposeOptions O;
  O.Kernel = T.Kernel;
  O.SpecPath = T.SpecPath;
  O.Arch = T.Arch;
  O.NvccFlags = T.NvccFlags;
  O.Count = ProposalCount;
  O.OutputDir = T.Output;
  O.DbPath = T.DbPath;
  O.Llm = std::move(Llm);
  return O;
}

Error optiml::checkSearchFlags() {
  if (Error E = checkFormatStyle(FormatStyle))
    return E;
  if (Budget.getNumOccurrences() && Budget == 0)
    return makeError(ErrorKind::BadInput,
                     "--budget=0 measures nothing: give 1 or more (the "
                     "original counts as one)");
  if (TimeLimit < 0)
    return makeError(ErrorKind::BadInput,
                     "--time-limit is negative: give seconds, or leave it "
                     "out for no limit");
  return Error::success();
}

/// --optimize asks a model only when one is configured (--llm, its
/// variable or the --llm-config file): settings for a model it will not
/// ask, or for proposals it will not have, are errors.
static Error checkModelUsed(const LlmConfig &Llm) {
  if (Llm.enabled())
    return Error::success();
  if (const cl::Option *O = givenModelSetting())
    return makeError(ErrorKind::BadInput,
                     OptionTable::flag(*O) +
                         " is set but no model is used: add --llm=openai "
                         "or --llm=anthropic");
  if (!ProposalsFrom.empty())
    return Error::success();
  for (cl::Option *O : std::initializer_list<cl::Option *>{
           &LlmPolicyName, &LlmSamples, &ProposalCount})
    if (O->getNumOccurrences())
      return makeError(ErrorKind::BadInput,
                       OptionTable::flag(*O) +
                           " weighs a model's proposals, and there are none: "
                           "add --llm or --proposals-from");
  return Error::success();
}

Error optiml::checkOptimizeFlags(const LlmConfig &Llm) {
  if (Error E = checkModelUsed(Llm))
    return E;
  if (!Compare.empty() && Strategy.getNumOccurrences())
    return makeError(ErrorKind::BadInput,
                     "--strategy and --compare both choose the strategy: "
                     "choose one");
  if (Compare.empty() && CompareSeeds.getNumOccurrences())
    return makeError(ErrorKind::BadInput, "--compare-seeds needs --compare");
  return Error::success();
}

Error optiml::checkOutputFolder(ArrayRef<std::string> Sources,
                                const TargetFlags &T) {
  if (T.Output.empty())
    return Error::success(); // --optimize says -o is required.
  if (!ReportPrefix.empty())
    return makeError(ErrorKind::BadInput,
                     "--report names one report, and there are " +
                         Twine(Sources.size()) +
                         " sources: leave it out (each report goes beside "
                         "its kernel in the -o folder)");
  if (sys::fs::exists(T.Output) && !sys::fs::is_directory(T.Output))
    return makeError(ErrorKind::BadInput,
                     "-o " + T.Output + " is a file; with " +
                         Twine(Sources.size()) +
                         " sources -o names a folder for the results");
  StringSet<> Names;
  for (const std::string &S : Sources)
    if (!Names.insert(sys::path::filename(S)).second)
      return makeError(ErrorKind::BadInput,
                       "two sources are named " + sys::path::filename(S) +
                           ": their results would meet in -o " + T.Output +
                           "; optimize them one at a time");
  if (std::error_code EC = sys::fs::create_directories(T.Output))
    return makeError(ErrorKind::BadInput,
                     "-o " + T.Output + ": " + EC.message());
  return Error::success();
}

std::vector<OptionTable::Row> optiml::optimizeRows() {
  static const OptionGroup OptimizeOnly{OptimizeHeading, {"optimize"}};
  return {
      {Strategy, OptimizeOnly},
      {Budget, OptimizeOnly},
      {Jobs, OptimizeOnly},
      {JobsShort, OptimizeOnly},
      {GpuList, OptimizeOnly},
      {TimeLimit, OptimizeOnly},
      {Measure, OptimizeOnly},
      {RunnerKind, OptimizeOnly},
      {MeasureWith, OptimizeOnly},
      {Pipeline, OptimizeOnly},
      {BudgetCountsDatabase, OptimizeOnly},
      {Goal, OptimizeOnly},
      {Resume, OptimizeOnly},
      {ReportPrefix, OptimizeOnly},
      {FormatStyle, OptimizeOnly, {"apply", "optimize"}},
      {SearchSeed, OptimizeOnly},
      {Compare, OptimizeOnly},
      {CompareSeeds, OptimizeOnly},
      {TransformNames, OptimizeOnly, {"optimize", "list-sites"}},
      {ExcludedNames, OptimizeOnly, {"optimize", "list-sites"}},
      {LlmPolicyName, OptimizeOnly},
      {LlmSamples, OptimizeOnly},
      {ProposalsFrom, OptimizeOnly},
  };
}

std::vector<OptionTable::Row> optiml::proposeRows() {
  static const OptionGroup ProposeOnly{ProposeHeading, {"propose"}};
  return {{ProposalCount, ProposeOnly, {"propose", "optimize"}}};
}
