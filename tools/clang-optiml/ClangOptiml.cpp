//===- ClangOptiml.cpp - the clang-optiml command-line tool --------------===//
//
// Thin on purpose: parses options the way every clang tool does, picks the
// action and maps errors to one line on stderr and a distinct exit code.
// Which options go with which action is one table (optionTable()), read by
// the check that refuses an option the action would ignore and by --help.
//
//===----------------------------------------------------------------------===//

#include "OptionTable.h"

#include "driver/Cache/CacheActions.h"
#include "driver/Check/CheckActions.h"
#include "driver/Check/TransformActions.h"
#include "driver/Evaluate/EvaluateAction.h"
#include "driver/FromPrompt/FromPromptAction.h"
#include "driver/Optimize/OptimizeAction.h"
#include "driver/Optimize/ProposeAction.h"
#include "driver/Optimize/RewriteTiming.h"
#include "optiml/Frontend/NvccFlags.h"
#include "optiml/Rewrite/ChangedLinesFormatter.h"
#include "optiml/Support/Error.h"
#include "optiml/Support/Interrupt.h"

#include "OptimlVersion.inc"

#include "clang/Tooling/CommonOptionsParser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/WithColor.h"

#include <unistd.h>

using namespace optiml;
using namespace llvm;

/// The one category the parser knows (CommonOptionsParser hides the rest,
/// and LLVM suggests no hidden option for a misspelt one); --help regroups
/// the options under the headings below (OptionTable::groupForHelp).
static cl::OptionCategory OptimlCategory("clang-optiml options");

// --help lists the headings in alphabetical order.
static cl::OptionCategory ActionsHeading("Actions (one at a time)");
static cl::OptionCategory CommonHeading(
    "Common options",
    "Each goes with the actions named in brackets (every action when none "
    "are).");
static cl::OptionCategory EvaluateHeading("Options of --evaluate");
static cl::OptionCategory OptimizeHeading("Options of --optimize");
static cl::OptionCategory ProposeHeading("Options of --propose");
static cl::OptionCategory FromPromptHeading("Options of --from-prompt");
static cl::OptionCategory ModelHeading(
    "Options of the model (--propose, --optimize, --from-prompt)",
    "Each is also read from OPTIML_<NAME> (OPTIML_LLM_MODEL, ...) and from "
    "the --llm-config file; the key only from OPTIML_LLM_API_KEY, else "
    "OPENAI_API_KEY or ANTHROPIC_API_KEY.");

static cl::opt<bool>
    CheckSpecs("check",
               cl::desc("Check the spec of every kernel of the files (marks "
                        "and sidecars) and print every error with its "
                        "position; nothing is built"),
               cl::cat(OptimlCategory));
static cl::opt<bool>
    ListKernels("list-kernels",
                cl::desc("List the kernels defined in the file"),
                cl::cat(OptimlCategory));
static cl::opt<bool>
    ListTransforms("list-transforms",
                   cl::desc("List the transforms, their parameters and "
                            "domains (no source file needed)"),
                   cl::cat(OptimlCategory));
static cl::opt<bool>
    ListSites("list-sites",
              cl::desc("Tell, per kernel, where each transform applies and "
                       "why not elsewhere"),
              cl::cat(OptimlCategory));
static cl::opt<bool> TimeRewrites(
    "time-rewrites",
    cl::desc("Time the search's rewrites of the kernel (each legal move of "
             "the original and of its first child: the step and the "
             "re-parse); no GPU needed"),
    cl::Hidden, cl::cat(OptimlCategory));
static cl::list<std::string>
    ApplySteps("apply",
               cl::desc("Apply a transform, e.g. "
                        "'unroll(site=sgemm/for#0,factor=4)'; repeat to "
                        "chain"),
               cl::value_desc("step"), cl::cat(OptimlCategory));
static cl::opt<std::string>
    OutputFile("o",
               cl::desc("Where the result goes, never the input file: "
                        "--apply's and --use-cache's rewritten file "
                        "(default: stdout), --optimize's and --from-prompt's "
                        "kernel (required), --propose's folder for the "
                        "accepted edits and proposals.json"),
               cl::value_desc("file.cu"), cl::cat(OptimlCategory));
static cl::opt<bool>
    Evaluate("evaluate",
             cl::desc("Build, verify and time the kernel (or --candidate "
                      "against it) on the GPU"),
             cl::cat(OptimlCategory));
static cl::opt<std::string>
    CandidateFile("candidate",
                  cl::desc("A rewritten copy of the file "
                           "to compare against it"),
                  cl::value_desc("file.cu"), cl::cat(OptimlCategory));
static cl::opt<std::string>
    SpecFile("spec",
             cl::desc("Kernel spec (JSON); default: the #pragma optiml mark "
                      "and <file>.optiml.json"),
             cl::value_desc("file.json"), cl::cat(OptimlCategory));
static cl::opt<bool> Metrics("metrics",
                             cl::desc("Also collect hardware "
                                      "counters (CUPTI Range Profiler)"),
                             cl::cat(OptimlCategory));
static cl::opt<bool> BuildOnly("build-only",
                               cl::desc("Compile the launchers with nvcc and "
                                        "report resource usage, without a GPU"),
                               cl::cat(OptimlCategory));
static cl::opt<unsigned> RunTimeout("timeout",
                                    cl::desc("Seconds before the runner is "
                                             "killed (default 300)"),
                                    cl::init(300), cl::cat(OptimlCategory));
static cl::opt<double>
    NoiseTarget("noise-target",
                cl::desc("Relative spread of the median at "
                         "which timing stops (default 0.01)"),
                cl::init(0.01), cl::cat(OptimlCategory));
static cl::opt<std::string>
    SavePlan("save-plan",
             cl::desc("Write the runner's plan (JSON) here, "
                      "to rerun optiml-runner by hand or under a profiler"),
             cl::value_desc("file.json"), cl::cat(OptimlCategory));
static cl::list<std::string>
    NvccFlags("Xnvcc", cl::desc("Pass a flag to nvcc when building candidates"),
              cl::value_desc("flag"), cl::cat(OptimlCategory));
static cl::opt<std::string>
    KernelName("kernel", cl::desc("Select one kernel by (qualified) name"),
               cl::value_desc("name"), cl::cat(OptimlCategory));
static cl::opt<OutputFormat> Format(
    "format", cl::desc("Output format"),
    cl::values(clEnumValN(OutputFormat::Text, "text", "for people (default)"),
               clEnumValN(OutputFormat::JSON, "json", "for tools")),
    cl::init(OutputFormat::Text), cl::cat(OptimlCategory));
static cl::opt<std::string>
    GpuArch("arch", cl::desc("GPU architecture to parse for (default sm_90)"),
            cl::value_desc("sm_NN"), cl::cat(OptimlCategory));
static cl::opt<std::string>
    CudaPath("cuda-path",
             cl::desc("CUDA toolkit root (default: $CUDA_PATH, the one found "
                      "at build time, /usr/local/cuda)"),
             cl::value_desc("dir"), cl::cat(OptimlCategory));

static cl::opt<bool>
    Optimize("optimize",
             cl::desc("Search verified rewrites of the kernel on the GPU and "
                      "write the fastest to -o (with a report)"),
             cl::cat(OptimlCategory));
static cl::opt<std::string>
    Strategy("strategy", cl::desc("One of mcts (default), greedy or random"),
             cl::init("mcts"), cl::cat(OptimlCategory));
static cl::opt<unsigned> Budget("budget",
                                cl::desc("Candidates to measure, the original "
                                         "included (default 64)"),
                                cl::init(64), cl::cat(OptimlCategory));
static cl::opt<unsigned>
    Jobs("jobs",
         cl::desc("Candidates in flight (or per batch), built by nvcc in "
                  "parallel (1..64, default 4); each GPU times one at a "
                  "time; -j N for short"),
         cl::init(4), cl::cat(OptimlCategory));
static cl::opt<std::string>
    GpuList("gpus",
            cl::desc("GPUs to measure candidates on, in parallel: 'all' or "
                     "numbers such as 0,1 (default: the first GPU); each "
                     "speedup is against the original on the same GPU"),
            cl::value_desc("all|N,N,..."), cl::init(""),
            cl::cat(OptimlCategory));
static cl::alias JobsShort("j", cl::desc("Alias for --jobs"),
                           cl::cat(OptimlCategory), cl::aliasopt(Jobs));
enum class MeasureMode { Adaptive, Full };
static cl::opt<MeasureMode> Measure(
    "measure", cl::desc("How candidates are measured"),
    cl::values(clEnumValN(MeasureMode::Adaptive, "adaptive",
                          "one that cannot be the best stops after a first "
                          "batch of pairs and gets no counters (default)"),
               clEnumValN(MeasureMode::Full, "full",
                          "every candidate timed to convergence and "
                          "profiled with counters")),
    cl::init(MeasureMode::Adaptive), cl::cat(OptimlCategory));
enum class RunnerMode { Worker, Process };
static cl::opt<RunnerMode> RunnerKind(
    "runner", cl::desc("How --optimize runs candidates on a GPU"),
    cl::values(clEnumValN(RunnerMode::Worker, "worker",
                          "one runner process per GPU serves the whole "
                          "search, keeping its context and the original's "
                          "outputs (default)"),
               clEnumValN(RunnerMode::Process, "process",
                          "a fresh runner process for every candidate")),
    cl::init(RunnerMode::Worker), cl::cat(OptimlCategory));
static cl::opt<std::string> MeasureWith(
    "measure-with",
    cl::desc("Measure each candidate by running this program instead of "
             "building it and timing it on a GPU, for tests: it gets the "
             "candidate's file and steps and prints its speedup on its "
             "last line (exit 0), or fails for a wrong result"),
    cl::value_desc("program"), cl::Hidden, cl::cat(OptimlCategory));
static cl::opt<bool> Pipeline(
    "pipeline",
    cl::desc("Keep -j candidates in flight and propose a new one as each "
             "comes back, so that nvcc builds while the GPU measures "
             "(default); --pipeline=false measures in batches, each built "
             "and then measured"),
    cl::init(true), cl::cat(OptimlCategory));
static cl::opt<bool> BudgetCountsDatabase(
    "budget-counts-database",
    cl::desc("Candidates answered from the database count against --budget "
             "as if measured, so that strategies compared on one database "
             "get the same number of candidates (default: only measured "
             "ones count)"),
    cl::init(false), cl::cat(OptimlCategory));
static cl::opt<Objective> Goal(
    "objective", cl::desc("What the search minimizes"),
    cl::values(clEnumValN(Objective::Time, "time",
                          "the kernel's time (default)"),
               clEnumValN(Objective::Energy, "energy",
                          "its energy per launch (NVML), whatever its speed"),
               clEnumValN(Objective::Edp, "edp",
                          "the product of the two (energy-delay product)")),
    cl::init(Objective::Time), cl::cat(OptimlCategory));
static cl::opt<double> TimeLimit("time-limit",
                                 cl::desc("Stop after this many seconds "
                                          "(default: no limit)"),
                                 cl::init(0), cl::cat(OptimlCategory));
static cl::opt<std::string>
    DbPath("db",
           cl::desc("The database of measurements, LLM calls and results "
                    "(default: <cache>/search.sqlite)"),
           cl::value_desc("file.sqlite"), cl::cat(OptimlCategory));
static cl::opt<bool> Resume("resume",
                            cl::desc("Start from what earlier runs on this "
                                     "kernel learned (failing transforms)"),
                            cl::cat(OptimlCategory));
static cl::opt<std::string> FormatStyle(
    "format-style",
    cl::desc("How the lines a rewrite changed are laid out in the written "
             "source: file (the input's .clang-format, LLVM's without one), "
             "none (as the rewrite wrote them) or a clang-format style "
             "(LLVM, Google, \"{BasedOnStyle: LLVM, ColumnLimit: 100}\"); "
             "default: file"),
    cl::init("file"), cl::value_desc("style"), cl::cat(OptimlCategory));
static cl::opt<std::string>
    ReportPrefix("report",
                 cl::desc("Write the report to PREFIX.md, "
                          "PREFIX.json and PREFIX.html (a page with a plot of "
                          "the best speedup over evaluations; default: "
                          "OUT.report)"),
                 cl::value_desc("prefix"), cl::cat(OptimlCategory));
static cl::opt<uint64_t>
    SearchSeed("search-seed",
               cl::desc("Seed of the strategy's random "
                        "choices (random's; mcts and greedy make none), so a "
                        "run can be repeated (default 1)"),
               cl::init(1), cl::value_desc("N"), cl::cat(OptimlCategory));
static cl::list<std::string> Compare(
    "compare",
    cl::desc("Run these strategies one after the other at --budget, on one "
             "database (a candidate one measured counts for the others as "
             "if measured) and one runner per GPU, and write a table of "
             "what each found to PREFIX.compare.md and .json; -o gets the "
             "best kernel of any, each search its own report at "
             "PREFIX.<strategy>"),
    cl::CommaSeparated, cl::value_desc("mcts,greedy,random"),
    cl::cat(OptimlCategory));
static cl::opt<unsigned> CompareSeeds(
    "compare-seeds",
    cl::desc("Searches of the random strategy under --compare, seeded "
             "--search-seed, +1, ... (default 5); mcts and greedy make no "
             "random choice and run once"),
    cl::init(5), cl::value_desc("N"), cl::cat(OptimlCategory));
static cl::list<std::string> TransformNames(
    "transforms",
    cl::desc("Search only these transforms (comma-separated, see "
             "--list-transforms); a transform that changes numerics is "
             "searched when named here even if the spec's tolerance is "
             "tight"),
    cl::CommaSeparated, cl::value_desc("a,b"), cl::cat(OptimlCategory));
static cl::list<std::string> ExcludedNames(
    "exclude", cl::desc("Never these transforms (comma-separated)"),
    cl::CommaSeparated, cl::value_desc("c,d"), cl::cat(OptimlCategory));

static cl::opt<bool>
    Propose("propose",
            cl::desc("Ask the model (--llm) for changes to the kernel and "
                     "validate each without a GPU (apply, re-parse, edit "
                     "checks, nvcc build)"),
            cl::cat(OptimlCategory));
static cl::opt<unsigned>
    ProposalCount("n",
                  cl::desc("Proposals to ask for (1..32, default 3); with "
                           "--optimize and a model, at every state"),
                  cl::init(3), cl::value_desc("N"), cl::cat(OptimlCategory));

static cl::opt<std::string>
    LlmProviderName("llm",
                    cl::desc("The model's protocol: none (default), openai "
                             "(any OpenAI-compatible endpoint: OpenAI, vLLM, "
                             "llama.cpp, Ollama) or anthropic"),
                    cl::value_desc("none|openai|anthropic"),
                    cl::cat(OptimlCategory));
static cl::opt<std::string>
    LlmBaseUrl("llm-base-url",
               cl::desc("Endpoint base URL (default: the provider's; "
                        "http://127.0.0.1:8080/v1 for scripts/llm-server.sh)"),
               cl::value_desc("url"), cl::cat(OptimlCategory));
static cl::opt<std::string> LlmModel("llm-model", cl::desc("Model name"),
                                     cl::value_desc("name"),
                                     cl::cat(OptimlCategory));
static cl::opt<std::string>
    LlmTemperature("llm-temperature",
                   cl::desc("Sampling temperature (default 0.2)"),
                   cl::value_desc("t"), cl::cat(OptimlCategory));
static cl::opt<std::string>
    LlmMaxTokens("llm-max-tokens",
                 cl::desc("Most tokens in one answer (default 2048)"),
                 cl::value_desc("n"), cl::cat(OptimlCategory));
static cl::opt<std::string>
    LlmTimeout("llm-timeout",
               cl::desc("Seconds one request may take (default 120)"),
               cl::value_desc("s"), cl::cat(OptimlCategory));
static cl::opt<std::string>
    LlmRetries("llm-retries",
               cl::desc("Retries on 429, 5xx and time-outs, with "
                        "exponential backoff (default 3)"),
               cl::value_desc("n"), cl::cat(OptimlCategory));
static cl::opt<std::string>
    LlmMaxCalls("llm-max-calls",
                cl::desc("Stop asking after this many calls in one run "
                         "(default: no cap)"),
                cl::value_desc("n"), cl::cat(OptimlCategory));
static cl::opt<std::string>
    LlmMaxCost("llm-max-cost",
               cl::desc("Stop asking once the estimated cost reaches this "
                        "(default: no cap)"),
               cl::value_desc("amount"), cl::cat(OptimlCategory));
static cl::opt<std::string>
    LlmPriceIn("llm-price-in",
               cl::desc("Price of a million input tokens, for the cost "
                        "estimate (default 0: unknown)"),
               cl::value_desc("amount"), cl::cat(OptimlCategory));
static cl::opt<std::string>
    LlmPriceOut("llm-price-out", cl::desc("Price of a million output tokens"),
                cl::value_desc("amount"), cl::cat(OptimlCategory));
static cl::opt<bool>
    LlmReplay("llm-replay",
              cl::desc("Answer from the database's recorded calls only: "
                       "offline and deterministic; a prompt never asked "
                       "before is an error"),
              cl::cat(OptimlCategory));
static cl::opt<std::string>
    LlmSchema("llm-schema",
              cl::desc("auto (default): requests carry the answer's JSON "
                       "schema for the endpoint to enforce, and go without "
                       "one where the endpoint refused it; off: never"),
              cl::value_desc("auto|off"), cl::cat(OptimlCategory));
static cl::opt<std::string>
    LlmConfigFile("llm-config",
                  cl::desc("A JSON file of these settings "
                           "({\"llm\": \"openai\", \"llm-model\": ...})"),
                  cl::value_desc("file.json"), cl::cat(OptimlCategory));
static cl::opt<std::string>
    PromptsDir("prompts-dir",
               cl::desc("Folder of *.prompt templates (default: the "
                        "installed prompts/)"),
               cl::value_desc("dir"), cl::cat(OptimlCategory));

static cl::opt<std::string> LlmPolicyName(
    "llm-policy",
    cl::desc("With a model (--llm or --proposals-from): expand (the model's "
             "proposals become extra moves), prior (its picks "
             "weigh the listed moves) or both (default)"),
    cl::init("both"), cl::value_desc("expand|prior|both"),
    cl::cat(OptimlCategory));
static cl::opt<unsigned>
    LlmSamples("llm-samples",
               cl::desc("With a model (--llm): rounds of proposals "
                        "per state, each at a higher temperature (1..8, "
                        "default 1)"),
               cl::init(1), cl::value_desc("N"), cl::cat(OptimlCategory));
static cl::opt<std::string> ProposalsFrom(
    "proposals-from",
    cl::desc("Take the proposals that --propose -o DIR "
             "wrote (on a machine that reached the model) as extra moves "
             "from the original kernel; no endpoint needed"),
    cl::value_desc("dir"), cl::cat(OptimlCategory));
// --from-prompt (docs/FromPrompt.md).
static cl::opt<std::string>
    FromPrompt("from-prompt",
               cl::desc("Write a kernel from this description with the model "
                        "(--llm): strategies, candidates, a reference and a "
                        "spec, checked statically and cross-checked on the "
                        "GPU; the fastest verified one goes to -o (no source "
                        "file)"),
               cl::value_desc("text"), cl::cat(OptimlCategory));
static cl::opt<std::string>
    FromPromptFile("from-prompt-file",
                   cl::desc("As --from-prompt, the description read from a "
                            "file"),
                   cl::value_desc("file.md"), cl::cat(OptimlCategory));
static cl::opt<std::string>
    GeneratedName("name",
                  cl::desc("The kernel's name (default: "
                           "the model's choice)"),
                  cl::value_desc("name"), cl::cat(OptimlCategory));
static cl::opt<unsigned>
    Thoughts("thoughts",
             cl::desc("Implementation strategies, one "
                      "candidate kernel each (2..8, default 3)"),
             cl::init(3), cl::value_desc("K"), cl::cat(OptimlCategory));
static cl::opt<unsigned> ReferenceAttempts(
    "reference-attempts",
    cl::desc("References written, at most, before the "
             "run stops with the agreement matrix (1..4, default 2)"),
    cl::init(2), cl::value_desc("N"), cl::cat(OptimlCategory));
// The results cache (docs/CMake.md).
static cl::opt<bool>
    UseCache("use-cache",
             cl::desc("Replace each marked kernel that has a cached result "
                      "(its steps replayed and checked) and write the file "
                      "to -o (default: stdout; never the input); one line "
                      "per kernel on stderr says hit or miss"),
             cl::cat(OptimlCategory));
static cl::opt<bool> AllMarked(
    "all",
    cl::desc("Every source of the compilation database (-p) with a marked "
             "kernel, in turn (--optimize: -o names a folder)"),
    cl::cat(OptimlCategory));
static cl::opt<std::string>
    ImportCache("import-cache",
                cl::desc("Add the results of a cache file to the database "
                         "(first, before --use-cache; no source needed)"),
                cl::value_desc("file.json"), cl::cat(OptimlCategory));
static cl::opt<std::string>
    ExportCache("export-cache",
                cl::desc("Write every cached result of the database to a "
                         "cache file (last; no source needed)"),
                cl::value_desc("file.json"), cl::cat(OptimlCategory));

/// The action the command line asks for; several at once, or an option of
/// another action, is an error rather than something silently ignored.
static Expected<std::string> chosenAction() {
  std::vector<std::string> Given;
  for (cl::opt<bool> *A :
       {&CheckSpecs, &ListKernels, &ListTransforms, &ListSites, &Evaluate,
        &Optimize, &Propose, &UseCache, &TimeRewrites})
    if (*A)
      Given.push_back(A->ArgStr.str());
  if (!ApplySteps.empty())
    Given.push_back("apply");
  if (Given.size() > 1)
    return makeError(ErrorKind::BadInput,
                     "one action at a time: --" + Given[0] + " and --" +
                         Given[1] + " were both given");
  return Given.empty() ? std::string() : Given.front();
}

/// --help's headings, each with the actions all of its options go with
/// (none: each row names its own).
static const OptionGroup Actions{ActionsHeading, {}};
static const OptionGroup Common{CommonHeading, {}};
static const OptionGroup EvaluateOnly{EvaluateHeading, {"evaluate"}};
static const OptionGroup OptimizeOnly{OptimizeHeading, {"optimize"}};
static const OptionGroup ProposeOnly{ProposeHeading, {"propose"}};
static const OptionGroup FromPromptOnly{FromPromptHeading, {"from-prompt"}};
static const OptionGroup Model{ModelHeading,
                               {"propose", "optimize", "from-prompt"}};

/// Where an option goes (its --help heading) and which actions read it.
/// Options of the parser itself (-p, --extra-arg) and an option with no row
/// are common to every action.
static const OptionTable &optionTable() {
  static const std::vector<StringRef> SourceActions = {
      "check",    "list-kernels", "list-sites", "apply",      "evaluate",
      "optimize", "propose",      "use-cache",  "from-prompt"};
  static const std::vector<StringRef> Builders = {
      "evaluate", "optimize", "propose", "from-prompt", "use-cache"};
  static const std::vector<StringRef> Measurers = {"evaluate", "optimize",
                                                   "from-prompt"};
  static const OptionTable Table({
      {CheckSpecs, Actions},
      {ListKernels, Actions},
      {ListTransforms, Actions},
      {ListSites, Actions},
      {ApplySteps, Actions},
      {Evaluate, Actions},
      {Optimize, Actions},
      {Propose, Actions},
      {FromPrompt, Actions},
      {FromPromptFile, Actions},
      {UseCache, Actions},
      {ImportCache, Actions},
      {ExportCache, Actions},

      {OutputFile,
       Common,
       {"apply", "optimize", "propose", "from-prompt", "use-cache"}},
      {KernelName,
       Common,
       {"check", "list-kernels", "list-sites", "evaluate", "optimize",
        "propose"}},
      {SpecFile,
       Common,
       {"check", "evaluate", "optimize", "propose", "use-cache"}},
      {Format,
       Common,
       {"check", "list-kernels", "list-transforms", "list-sites", "evaluate",
        "propose"},
       [] { return Format == OutputFormat::JSON; }},
      {AllMarked,
       Common,
       {"check", "list-kernels", "list-sites", "evaluate", "optimize"}},
      {GpuArch, Common, SourceActions},
      {CudaPath, Common, SourceActions},
      {NvccFlags, Common, Builders},
      {DbPath,
       Common,
       {"optimize", "propose", "use-cache", "from-prompt", "import-cache",
        "export-cache"}},
      {RunTimeout, Common, Measurers},
      {NoiseTarget, Common, Measurers},

      {CandidateFile, EvaluateOnly},
      {Metrics, EvaluateOnly},
      {BuildOnly, EvaluateOnly},
      {SavePlan, EvaluateOnly},

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

      {ProposalCount, ProposeOnly, {"propose", "optimize"}},

      {GeneratedName, FromPromptOnly},
      {Thoughts, FromPromptOnly},
      {ReferenceAttempts, FromPromptOnly},

      {LlmProviderName, Model},
      {LlmBaseUrl, Model},
      {LlmModel, Model},
      {LlmTemperature, Model},
      {LlmMaxTokens, Model},
      {LlmTimeout, Model},
      {LlmRetries, Model},
      {LlmMaxCalls, Model},
      {LlmMaxCost, Model},
      {LlmPriceIn, Model},
      {LlmPriceOut, Model},
      {LlmReplay, Model},
      {LlmSchema, Model},
      {LlmConfigFile, Model},
      {PromptsDir, Model},
  });
  return Table;
}

/// Why an action has no JSON output, for --format=json.
static StringRef whyNoJson(StringRef Action) {
  if (Action == "optimize")
    return " (it writes OUT.report.json; see --report)";
  if (Action == "from-prompt")
    return " (it writes OUT.fromprompt.json)";
  if (Action == "apply" || Action == "use-cache")
    return " (its output is CUDA source)";
  return "";
}

/// Nothing the command line says is silently ignored: an option the action
/// does not read, JSON where there is none, or a number that would make
/// the action do nothing is an error. \p Also is an action that runs along
/// (--from-prompt under --optimize).
static Error checkOptionsFit(StringRef Action, StringRef Also = "") {
  if (Format == OutputFormat::JSON && !Action.empty() &&
      !whyNoJson(Action).empty())
    return makeError(ErrorKind::BadInput, "--format=json does not apply to --" +
                                              Action + whyNoJson(Action));
  if (Error E = optionTable().check(Action, Also))
    return E;
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
  // The runner refuses a target of 0 or less, but only on the GPU machine,
  // after every build; 1 or more would call any speedup below 2x noise.
  if (NoiseTarget.getNumOccurrences() && !(NoiseTarget > 0 && NoiseTarget < 1))
    return makeError(ErrorKind::BadInput,
                     "--noise-target is a relative spread: give a fraction "
                     "above 0 and below 1 (0.01 is 1%)");
  if (RunTimeout.getNumOccurrences() && RunTimeout == 0)
    return makeError(ErrorKind::BadInput,
                     "--timeout=0 would kill every run: give 1 second or "
                     "more");
  return Error::success();
}

/// The model's settings on the command line, less --llm itself.
static std::vector<cl::Option *> modelSettings() {
  return {&LlmBaseUrl,    &LlmModel,    &LlmTemperature, &LlmMaxTokens,
          &LlmTimeout,    &LlmRetries,  &LlmMaxCalls,    &LlmMaxCost,
          &LlmPriceIn,    &LlmPriceOut, &LlmReplay,      &LlmSchema,
          &LlmConfigFile, &PromptsDir};
}

/// --optimize asks a model only when one is configured (--llm, its
/// variable or the --llm-config file): settings for a model it will not
/// ask, or for proposals it will not have, are errors.
static Error checkModelUsed(const LlmConfig &Llm) {
  if (Llm.enabled())
    return Error::success();
  for (cl::Option *O : modelSettings())
    if (O->getNumOccurrences())
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

/// The LLM settings the user gave on the command line, by name.
static std::map<std::string, std::string> llmFlags() {
  std::map<std::string, std::string> Given;
  for (cl::opt<std::string> *O :
       {&LlmProviderName, &LlmBaseUrl, &LlmModel, &LlmTemperature,
        &LlmMaxTokens, &LlmTimeout, &LlmRetries, &LlmMaxCalls, &LlmMaxCost,
        &LlmPriceIn, &LlmPriceOut, &LlmSchema, &LlmConfigFile, &PromptsDir})
    if (O->getNumOccurrences())
      Given[O->ArgStr.str()] = *O;
  if (LlmReplay.getNumOccurrences())
    Given["llm-replay"] = LlmReplay ? "1" : "0";
  return Given;
}

static const char Overview[] =
    "clang-optiml: verified, profile-guided optimization of CUDA kernels.\n\n"
    "Without a compilation database (-p, or compile_commands.json above the\n"
    "source) a .cu file is parsed as CUDA for --arch with the toolkit's\n"
    "headers; add compiler flags after --.\n";

/// The end of --help.
static const char ExitCodesAndExamples[] = R"(
EXIT CODES:
  0   done (--evaluate: the candidate was accepted)
  1   bad input: a missing or unparsable file, an unknown kernel, a bad or
      misplaced option, a spec that does not check
  2   a transform step is illegal or not applicable (--apply)
  3   a GPU is needed and none is usable
  4   --evaluate: the candidate was rejected (wrong, faulting or hanging);
      --from-prompt: the reference was not trusted (no two strategies'
      kernels agreed with it), so no kernel was written
  70  an internal error (a bug in OptiML: please report it)
  130 --optimize was interrupted (Ctrl-C, SIGTERM); the best verified kernel
      so far and the reports were written (interrupt twice to quit at once)

EXAMPLES:
  clang-optiml saxpy.cu --list-sites --kernel=saxpy
  clang-optiml saxpy.cu --apply='unroll(site=saxpy/for#0,factor=4)' -o out.cu
  clang-optiml saxpy.cu --optimize --budget=32 --exclude=fast-math -o opt.cu
)";

/// One line on stderr. A message that already carries its source position
/// in clang's form (`file:line:col: error: ...`) is printed as it is.
static int fail(Error E) {
  ErrorSummary S = summarize(std::move(E));
  if (Regex("^[^ ]+:[0-9]+:[0-9]+: error: ").match(S.Message))
    errs() << S.Message << "\n";
  else
    WithColor::error(errs(), "clang-optiml") << S.Message << "\n";
  return exitCodeFor(S.Kind);
}

/// \p Arg is an option whose value is the next argument (`-o out.cu`), so
/// that argument is not a source file.
static bool takesValue(StringRef Arg) {
  if (!Arg.starts_with("-") || Arg.contains('='))
    return false;
  auto &Options = cl::getRegisteredOptions();
  auto It = Options.find(Arg.ltrim('-'));
  return It != Options.end() &&
         It->second->getValueExpectedFlag() == cl::ValueRequired;
}

/// Without "--" or -p, and with no compile_commands.json to find above the
/// source, CommonOptionsParser would print a warning and run without flags;
/// an empty "--" gives the same database quietly, and our CUDA defaults fill
/// it in.
static std::vector<const char *> withQuietDefaultDatabase(int Argc,
                                                          const char **Argv) {
  std::vector<const char *> Args(Argv, Argv + Argc);
  for (int I = 1; I < Argc; ++I) {
    StringRef A = Argv[I];
    if (A == "--" || A == "-p" || A.starts_with("-p=") || A == "--p" ||
        A.starts_with("--p="))
      return Args;
  }
  for (int I = 1; I < Argc; ++I) {
    StringRef A = Argv[I];
    if (A.starts_with("-") || takesValue(Argv[I - 1]) ||
        !sys::fs::is_regular_file(A))
      continue;
    std::string Ignored;
    if (clang::tooling::CompilationDatabase::autoDetectFromSource(A, Ignored))
      return Args;
  }
  Args.push_back("--");
  return Args;
}

/// `clang-optiml --list-transforms` needs no source file, which
/// CommonOptionsParser would demand.
static bool wantsTransformListOnly(int Argc, const char **Argv) {
  bool List = false;
  for (int I = 1; I < Argc; ++I) {
    StringRef A = Argv[I];
    if (A == "--")
      break;
    if (A == "--list-transforms" || A == "-list-transforms")
      List = true;
    else if (!A.starts_with("-"))
      return false; // A source file: the usual path handles it.
  }
  return List;
}

/// --import-cache and --export-cache alone need no source file, which
/// CommonOptionsParser would demand.
static bool wantsCacheFilesOnly(int Argc, const char **Argv) {
  bool CacheFile = false;
  for (int I = 1; I < Argc; ++I) {
    StringRef A = Argv[I];
    if (A == "--")
      break;
    if (A.contains("-import-cache") || A.contains("-export-cache"))
      CacheFile = true;
    else if (!A.starts_with("-") && !takesValue(Argv[I - 1]))
      return false; // A source file.
  }
  return CacheFile;
}

static int runCacheFiles(Driver &D) {
  if (!ImportCache.empty())
    if (Error E = CacheActions(D).importCache(ImportCache, DbPath))
      return fail(std::move(E));
  if (!ExportCache.empty())
    if (Error E = CacheActions(D).exportCache(ExportCache, DbPath))
      return fail(std::move(E));
  return ExitOK;
}

/// --optimize's options from the command line, with the model \p Llm.
/// What the source's compile command says its build needs (include paths,
/// definitions, standard), set once the compilation database is known.
static std::vector<std::string> ProjectNvccFlags;

/// The nvcc flags of every candidate build: the project's, then the user's
/// -Xnvcc flags, which may override them.
static std::vector<std::string> nvccFlags() {
  std::vector<std::string> Flags = ProjectNvccFlags;
  Flags.insert(Flags.end(), NvccFlags.begin(), NvccFlags.end());
  return Flags;
}

/// The flags nvcc needs from \p Source's compile command in \p DB.
static std::vector<std::string>
projectNvccFlags(const clang::tooling::CompilationDatabase &DB,
                 StringRef Source) {
  SmallString<256> Path(Source);
  sys::fs::make_absolute(Path);
  std::vector<clang::tooling::CompileCommand> Commands =
      DB.getCompileCommands(Path);
  if (Commands.empty())
    return {};
  return buildFlagsOf(Commands.front().CommandLine, Commands.front().Directory);
}

/// The command line as typed, for the reports: each argument quoted for a
/// POSIX shell when it needs to be.
static std::string CommandLine;

static std::string shellQuoted(StringRef Arg) {
  if (!Arg.empty() && Arg.find_first_not_of(
                          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                          "0123456789-_=./:,+@%") == StringRef::npos)
    return Arg.str();
  std::string Out = "'";
  for (char C : Arg)
    Out += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Out + "'";
}

static OptimizeOptions optimizeOptions(LlmConfig Llm) {
  OptimizeOptions O;
  O.Provenance.Tool = std::string("OptiML ") + OPTIML_VERSION + " (git " +
                      OPTIML_GIT_HASH + ")";
  O.Provenance.CommandLine = CommandLine;
  O.Llm = std::move(Llm);
  O.LlmPolicy = LlmPolicyName;
  O.LlmSamples = LlmSamples;
  O.LlmCount = ProposalCount;
  O.ProposalsFrom = ProposalsFrom;
  O.Kernel = KernelName;
  O.SpecPath = SpecFile;
  O.Arch = GpuArch;
  O.NvccFlags = nvccFlags();
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
  O.DbPath = DbPath;
  O.Resume = Resume;
  O.OutputPath = OutputFile;
  O.ReportPrefix = ReportPrefix;
  O.FormatStyle = FormatStyle;
  O.Seed = SearchSeed;
  O.Compare.assign(Compare.begin(), Compare.end());
  O.CompareSeeds = CompareSeeds;
  O.Measure.NoiseTarget = NoiseTarget;
  O.TimeoutSeconds = RunTimeout;
  O.Transforms = TransformChoice(TransformNames, ExcludedNames);
  return O;
}

/// The description of --from-prompt, or of --from-prompt-file.
static Expected<std::string> description() {
  if (FromPromptFile.empty())
    return FromPrompt.getValue();
  if (!FromPrompt.empty())
    return makeError(ErrorKind::BadInput,
                     "--from-prompt and --from-prompt-file both give the "
                     "description: choose one");
  auto Buffer = MemoryBuffer::getFile(FromPromptFile);
  if (!Buffer)
    return makeError(ErrorKind::BadInput,
                     FromPromptFile + ": " + Buffer.getError().message());
  return (*Buffer)->getBuffer().str();
}

/// --from-prompt takes no source file: the kernel is what it writes.
static bool wantsFromPrompt(int Argc, const char **Argv) {
  for (int I = 1; I < Argc; ++I) {
    StringRef A = Argv[I];
    if (A == "--")
      break;
    if (A.ltrim('-').starts_with("from-prompt"))
      return true;
  }
  return false;
}

static int runFromPrompt(int Argc, const char **Argv, const char *Argv0) {
  if (!cl::ParseCommandLineOptions(Argc, Argv, Overview, &errs()))
    return ExitBadInput;
  auto Action = chosenAction();
  if (!Action)
    return fail(Action.takeError());
  if (!Action->empty() && *Action != "optimize")
    return fail(makeError(ErrorKind::BadInput,
                          "one action at a time: --from-prompt and --" +
                              *Action + " were both given"));
  if (Error E = checkOptionsFit(Action->empty() ? "from-prompt" : *Action,
                                "from-prompt"))
    return fail(std::move(E));
  auto Text = description();
  if (!Text)
    return fail(Text.takeError());
  auto Llm = LlmConfig::resolve(llmFlags());
  if (!Llm)
    return fail(Llm.takeError());
  FromPromptOptions O;
  O.Description = std::move(*Text);
  O.DescriptionFile = FromPromptFile;
  O.Name = GeneratedName;
  O.Thoughts = Thoughts;
  O.ReferenceAttempts = ReferenceAttempts;
  O.OutputPath = OutputFile;
  O.Arch = GpuArch;
  O.NvccFlags = nvccFlags();
  O.DbPath = DbPath;
  O.Measure.NoiseTarget = NoiseTarget;
  O.TimeoutSeconds = RunTimeout;
  if (Optimize)
    O.Optimize = optimizeOptions(*Llm);
  O.Llm = std::move(*Llm);
  CudaToolchain Toolchain = CudaToolchain::detect(Argv0, CudaPath, GpuArch);
  if (Error E = Toolchain.check(CudaPath, GpuArch))
    return fail(std::move(E));
  clang::tooling::FixedCompilationDatabase NoDB(".", {});
  Driver D(Argv0, NoDB, Toolchain, outs(), errs());
  auto Code = FromPromptAction(D).fromPrompt(O);
  return Code ? *Code : fail(Code.takeError());
}

/// --help (-h, --help-hidden, --help-list), which LLVM prints while
/// parsing, then exits.
static bool wantsHelp(int Argc, const char **Argv) {
  for (int I = 1; I < Argc; ++I) {
    StringRef A = Argv[I];
    if (A == "--")
      break;
    StringRef Name = A.ltrim('-');
    if (A.starts_with("-") && (Name == "h" || Name.starts_with("help")))
      return true;
  }
  return false;
}

/// The options by action, the exit codes and examples. CommonOptionsParser
/// registers -p, --extra-arg and the source list at its first parse, which
/// a parse of no argument at all does without needing a file.
static int printHelp(int Argc, const char **Argv) {
  int Bare = 1;
  auto Registered = clang::tooling::CommonOptionsParser::create(
      Bare, Argv, OptimlCategory, cl::ZeroOrMore, Overview);
  if (!Registered)
    return fail(
        makeError(ErrorKind::Internal, toString(Registered.takeError())));
  optionTable().groupForHelp(OptimlCategory, CommonHeading);
  // Added after that parse, which forgets the extra help it was given.
  static cl::extrahelp More(ExitCodesAndExamples);
  if (!cl::ParseCommandLineOptions(Argc, Argv, Overview, &errs()))
    return ExitBadInput;
  return ExitOK; // Not reached: printing the help exits.
}

/// The toolkit's version from the CUDA_VERSION its cuda.h defines (13000
/// is "13.0"), or "of unknown version".
static std::string cudaVersion(StringRef CudaPath) {
  auto Header = MemoryBuffer::getFile(CudaPath + "/include/cuda.h");
  SmallVector<StringRef, 2> Match;
  if (!Header || !Regex("#define CUDA_VERSION ([0-9]+)")
                      .match((*Header)->getBuffer(), &Match))
    return "of unknown version";
  unsigned V = 0;
  Match[1].getAsInteger(10, V);
  return std::to_string(V / 1000) + "." + std::to_string(V % 1000 / 10);
}

/// LLVM's command-line errors as one line: each of its lines starts with
/// the program's name, which fail() writes once already.
static std::string oneLine(StringRef Message, StringRef Program) {
  SmallVector<StringRef, 4> Lines;
  Message.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  std::vector<std::string> Kept;
  for (StringRef L : Lines) {
    L = L.trim();
    for (StringRef Name : {Program, sys::path::filename(Program)})
      if (L.consume_front((Name + ": ").str()))
        break;
    if (!L.empty())
      Kept.push_back(L.str());
  }
  return join(Kept, " ");
}

/// Runs \p Parse with file descriptor 2 sent to a temporary file and
/// returns what was written there: LLVM's parser prints a bad value of an
/// option with named values (`--format=xml`) to stderr itself, where the
/// one-line error could not include it.
static std::string capturingStderr(function_ref<void()> Parse) {
  errs().flush();
  SmallString<64> Path;
  int FD = -1;
  int Saved = ::dup(2);
  if (Saved < 0 ||
      sys::fs::createTemporaryFile("optiml-options", "txt", FD, Path)) {
    if (Saved >= 0)
      ::close(Saved);
    Parse();
    return "";
  }
  // Unlinked at once: --version exits inside the parse, and leaves nothing.
  sys::fs::remove(Path);
  ::dup2(FD, 2);
  Parse();
  errs().flush();
  ::dup2(Saved, 2);
  ::close(Saved);
  std::string Written;
  char Chunk[4096];
  ::lseek(FD, 0, SEEK_SET);
  for (ssize_t N; (N = ::read(FD, Chunk, sizeof Chunk)) > 0;)
    Written.append(Chunk, static_cast<size_t>(N));
  ::close(FD);
  return Written;
}

/// The program's path, for --version's toolkit search.
static const char *ProgramPath = "clang-optiml";

/// --version: OptiML's version and commit, then what it parses and builds
/// with.
static void printVersion(raw_ostream &OS) {
  CudaToolchain T = CudaToolchain::detect(ProgramPath, CudaPath, "");
  OS << "OptiML " << OPTIML_VERSION << " (git " << OPTIML_GIT_HASH << ")\n"
     << "  LLVM/Clang " << LLVM_VERSION_STRING << "\n"
     << "  CUDA " << cudaVersion(T.CudaPath) << " at " << T.CudaPath << "\n";
}

/// Whether \p Name (`--all`, `-all`) is among the options.
static bool hasFlag(int Argc, const char **Argv, StringRef Name) {
  for (int I = 1; I < Argc; ++I) {
    StringRef A = Argv[I];
    if (A == "--")
      break;
    if (A.starts_with("-") && A.ltrim('-') == Name)
      return true;
  }
  return false;
}

/// Errors --check found, over every file.
static unsigned SpecErrors = 0;

/// The actions that take several source files (or --all), each in turn.
static bool takesSeveralSources(StringRef Action) {
  return is_contained(std::initializer_list<StringRef>{"check", "list-kernels",
                                                       "list-sites", "evaluate",
                                                       "optimize"},
                      Action);
}

/// A source with a `#pragma optiml` mark, or a sidecar spec beside it.
static bool isMarked(StringRef Source) {
  if (sys::fs::exists(Source + ".optiml.json"))
    return true;
  auto Text = MemoryBuffer::getFile(Source, /*IsText=*/true);
  static const Regex Mark("^[ \t]*#[ \t]*pragma[ \t]+optiml", Regex::Newline);
  return Text && Mark.match((*Text)->getBuffer());
}

/// --all: the sources of the compilation database that have a mark.
static Expected<std::vector<std::string>>
markedSources(const clang::tooling::CompilationDatabase &DB) {
  std::vector<std::string> All = DB.getAllFiles();
  if (All.empty())
    return makeError(ErrorKind::BadInput,
                     "--all: the compilation database lists no source");
  std::vector<std::string> Marked;
  for (std::string &F : All)
    if (isMarked(F))
      Marked.push_back(std::move(F));
  if (Marked.empty())
    return makeError(ErrorKind::BadInput,
                     "--all: none of the " + Twine(All.size()) +
                         " sources of the compilation database has a "
                         "'#pragma optiml' mark or a <file>.optiml.json");
  return Marked;
}

/// With several sources, --optimize's -o is a folder: each result goes
/// there under its source's name.
static Error prepareOutputFolder(ArrayRef<std::string> Sources) {
  if (OutputFile.empty())
    return Error::success(); // --optimize says -o is required.
  if (!ReportPrefix.empty())
    return makeError(ErrorKind::BadInput,
                     "--report names one report, and there are " +
                         Twine(Sources.size()) +
                         " sources: leave it out (each report goes beside "
                         "its kernel in the -o folder)");
  if (sys::fs::exists(OutputFile) && !sys::fs::is_directory(OutputFile))
    return makeError(ErrorKind::BadInput,
                     "-o " + OutputFile + " is a file; with " +
                         Twine(Sources.size()) +
                         " sources -o names a folder for the results");
  StringSet<> Names;
  for (const std::string &S : Sources)
    if (!Names.insert(sys::path::filename(S)).second)
      return makeError(ErrorKind::BadInput,
                       "two sources are named " + sys::path::filename(S) +
                           ": their results would meet in -o " + OutputFile +
                           "; optimize them one at a time");
  if (std::error_code EC = sys::fs::create_directories(OutputFile))
    return makeError(ErrorKind::BadInput,
                     "-o " + OutputFile + ": " + EC.message());
  return Error::success();
}

/// The database of -p when --all comes without a source file, which the
/// parser loads none for.
static std::unique_ptr<clang::tooling::CompilationDatabase> BuildPathDB;

/// The compilation database: the parser's, or with --all and no source
/// file the one of -p.
static Expected<const clang::tooling::CompilationDatabase *>
compilationsOf(clang::tooling::CommonOptionsParser &Parsed) {
  if (!Parsed.getSourcePathList().empty())
    return &Parsed.getCompilations();
  auto &Options = cl::getRegisteredOptions();
  auto *BuildPath = Options.count("p")
                        ? static_cast<cl::opt<std::string> *>(Options["p"])
                        : nullptr;
  if (!BuildPath || BuildPath->empty())
    return makeError(ErrorKind::BadInput,
                     "--all takes the sources of a compilation database: "
                     "give -p BUILD_DIR (the folder of compile_commands.json)");
  std::string Why;
  BuildPathDB = clang::tooling::CompilationDatabase::autoDetectFromDirectory(
      BuildPath->getValue(), Why);
  if (!BuildPathDB)
    return makeError(ErrorKind::BadInput,
                     "-p " + BuildPath->getValue() + ": " + Why);
  return BuildPathDB.get();
}

/// The source files to run on: the command line's and, with --all, the
/// marked ones of the compilation database \p DB; several only for the
/// actions that take several.
static Expected<std::vector<std::string>>
sourcesToRun(clang::tooling::CommonOptionsParser &Parsed,
             const clang::tooling::CompilationDatabase &DB, StringRef Action) {
  std::vector<std::string> Sources = Parsed.getSourcePathList();
  if (AllMarked) {
    auto Marked = markedSources(DB);
    if (!Marked)
      return Marked.takeError();
    for (std::string &M : *Marked)
      if (!is_contained(Sources, M))
        Sources.push_back(std::move(M));
  }
  if (Sources.empty())
    return makeError(ErrorKind::BadInput, "no source file given");
  for (const std::string &S : Sources) {
    if (!sys::fs::exists(S))
      return makeError(ErrorKind::BadInput, S + ": no such file");
    if (sys::fs::is_directory(S))
      return makeError(ErrorKind::BadInput,
                       S + ": a folder, not a source file");
  }
  if (Sources.size() == 1)
    return Sources;
  if (!Action.empty() && !takesSeveralSources(Action))
    return makeError(ErrorKind::BadInput, "--" + Action +
                                              " takes one source file, got " +
                                              Twine(Sources.size()));
  if (Action == "optimize")
    if (Error E = prepareOutputFolder(Sources))
      return E;
  return Sources;
}

/// Where the result of \p Source goes: -o, or with several sources the -o
/// folder's file of the same name.
static std::string outputFor(StringRef Source, size_t SourceCount) {
  if (SourceCount == 1 || OutputFile.empty())
    return OutputFile;
  SmallString<256> Path(OutputFile.getValue());
  sys::path::append(Path, sys::path::filename(Source));
  return std::string(Path);
}

static EvaluateOptions evaluateOptions() {
  EvaluateOptions O;
  O.Kernel = KernelName;
  O.Candidate = CandidateFile;
  O.SpecPath = SpecFile;
  O.Arch = GpuArch;
  O.NvccFlags = nvccFlags();
  O.Measure.Metrics = Metrics;
  O.Measure.NoiseTarget = NoiseTarget;
  O.Measure.SavePlanPath = SavePlan;
  O.TimeoutSeconds = RunTimeout;
  O.BuildOnly = BuildOnly;
  return O;
}

static Expected<int> runPropose(Driver &D, StringRef Source) {
  auto Llm = LlmConfig::resolve(llmFlags());
  if (!Llm)
    return Llm.takeError();
  ProposeOptions O;
  O.Kernel = KernelName;
  O.SpecPath = SpecFile;
  O.Arch = GpuArch;
  O.NvccFlags = nvccFlags();
  O.Count = ProposalCount;
  O.OutputDir = OutputFile;
  O.DbPath = DbPath;
  O.Llm = std::move(*Llm);
  return ProposeAction(D).propose(Source, O, Format);
}

static Expected<int> runOptimize(Driver &D, StringRef Source,
                                 StringRef Output) {
  auto Llm = LlmConfig::resolve(llmFlags());
  if (!Llm)
    return Llm.takeError();
  if (Error E = checkModelUsed(*Llm))
    return E;
  if (!Compare.empty() && Strategy.getNumOccurrences())
    return makeError(ErrorKind::BadInput,
                     "--strategy and --compare both choose the strategy: "
                     "choose one");
  if (Compare.empty() && CompareSeeds.getNumOccurrences())
    return makeError(ErrorKind::BadInput, "--compare-seeds needs --compare");
  OptimizeOptions O = optimizeOptions(std::move(*Llm));
  O.OutputPath = Output.str();
  return OptimizeAction(D).optimizeEach(Source, O);
}

static Expected<int> runUseCache(Driver &D, StringRef Source) {
  UseCacheOptions O;
  O.SpecPath = SpecFile;
  O.Arch = GpuArch;
  O.NvccFlags = nvccFlags();
  O.DbPath = DbPath;
  O.ImportPath = ImportCache;
  O.OutputPath = OutputFile;
  if (Error E = CacheActions(D).useCache(Source, O))
    return E;
  ImportCache.setValue(""); // Done.
  return runCacheFiles(D);
}

/// The chosen action on one source file; \p Output is where its result
/// goes.
static Expected<int> runOn(Driver &D, StringRef Source, StringRef Output) {
  auto Done = [](Error E) -> Expected<int> {
    if (E)
      return std::move(E);
    return ExitOK;
  };
  if (CheckSpecs) {
    auto Errors = CheckActions(D).check(Source, KernelName, SpecFile, Format);
    if (!Errors)
      return Errors.takeError();
    SpecErrors += *Errors;
    return *Errors ? ExitBadInput : ExitOK;
  }
  if (UseCache)
    return runUseCache(D, Source);
  if (ListKernels)
    return Done(CheckActions(D).listKernels(Source, KernelName, Format));
  if (ListSites)
    return Done(TransformActions(D).listSites(
        Source, KernelName, Format,
        TransformChoice(TransformNames, ExcludedNames)));
  if (TimeRewrites)
    return Done(RewriteTiming(D).timeRewrites(Source, KernelName));
  if (!ApplySteps.empty())
    return Done(TransformActions(D).applySteps(Source, ApplySteps, Output,
                                               FormatStyle));
  if (Propose)
    return runPropose(D, Source);
  if (Optimize)
    return runOptimize(D, Source, Output);
  if (Evaluate)
    return EvaluateAction(D).evaluateEach(Source, evaluateOptions(), Format);
  return makeError(ErrorKind::BadInput,
                   "nothing to do: pass --check, --list-kernels, --list-sites, "
                   "--apply, --evaluate, --optimize, --propose, --from-prompt "
                   "or --use-cache (see --help)");
}

int main(int Argc, const char **Argv) {
  InitLLVM X(Argc, Argv);
  ProgramPath = Argv[0];
  for (int I = 0; I < Argc; ++I)
    CommandLine += (I ? " " : "") + shellQuoted(Argv[I]);
  cl::SetVersionPrinter(printVersion);
  std::vector<const char *> Args = withQuietDefaultDatabase(Argc, Argv);
  int ArgCount = static_cast<int>(Args.size());
  if (wantsHelp(Argc, Argv))
    return printHelp(ArgCount, Args.data());
  if (wantsFromPrompt(Argc, Argv))
    return runFromPrompt(ArgCount, Args.data(), Argv[0]);
  if (wantsTransformListOnly(Argc, Argv)) {
    if (!cl::ParseCommandLineOptions(ArgCount, Args.data(), Overview, &errs()))
      return ExitBadInput;
    auto Action = chosenAction();
    if (!Action)
      return fail(Action.takeError());
    if (Error E = checkOptionsFit(*Action))
      return fail(std::move(E));
    clang::tooling::FixedCompilationDatabase NoDB(".", {});
    Driver D(Argv[0], NoDB, CudaToolchain::detect(Argv[0], CudaPath, GpuArch),
             outs(), errs());
    if (Error E = TransformActions(D).listTransforms(Format))
      return fail(std::move(E));
    return ExitOK;
  }
  if (wantsCacheFilesOnly(Argc, Argv)) {
    if (!cl::ParseCommandLineOptions(ArgCount, Args.data(), Overview, &errs()))
      return ExitBadInput;
    StringRef First = ImportCache.empty() ? "export-cache" : "import-cache";
    StringRef Then =
        ImportCache.empty() || ExportCache.empty() ? "" : "export-cache";
    if (Error E = checkOptionsFit(First, Then))
      return fail(std::move(E));
    clang::tooling::FixedCompilationDatabase NoDB(".", {});
    Driver D(Argv[0], NoDB, CudaToolchain::detect(Argv[0], CudaPath, GpuArch),
             outs(), errs());
    return runCacheFiles(D);
  }
  std::optional<Expected<clang::tooling::CommonOptionsParser>> Parser;
  std::string Printed = capturingStderr([&] {
    Parser.emplace(clang::tooling::CommonOptionsParser::create(
        ArgCount, Args.data(), OptimlCategory,
        hasFlag(Argc, Argv, "all") ? cl::ZeroOrMore : cl::OneOrMore, Overview));
  });
  if (!*Parser)
    return fail(makeError(
        ErrorKind::BadInput,
        oneLine(Printed + "\n" + toString(Parser->takeError()), Argv[0])));
  errs() << Printed;

  auto &Parsed = **Parser;
  auto Action = chosenAction();
  if (!Action)
    return fail(Action.takeError());
  // Checked first: its message names what to change, where --db's would not.
  if (!UseCache && (!ImportCache.empty() || !ExportCache.empty()))
    return fail(makeError(ErrorKind::BadInput,
                          "--import-cache and --export-cache take no source "
                          "file, except with --use-cache"));
  // The hidden --time-rewrites reads what --list-sites reads; the option
  // table, which --help and its messages show, leaves it out, so its
  // messages name --list-sites where the user wrote --time-rewrites.
  if (*Action == "time-rewrites") {
    if (Error E = checkOptionsFit("list-sites")) {
      ErrorSummary Why = summarize(std::move(E));
      constexpr llvm::StringLiteral Shown = "--list-sites";
      std::string Message = Why.Message;
      for (size_t At; (At = Message.find(Shown.str())) != std::string::npos;)
        Message.replace(At, Shown.size(), "--time-rewrites");
      return fail(makeError(Why.Kind, Message));
    }
  } else if (Error E = checkOptionsFit(*Action)) {
    return fail(std::move(E));
  }
  auto Compilations = compilationsOf(Parsed);
  if (!Compilations)
    return fail(Compilations.takeError());
  const clang::tooling::CompilationDatabase &DB = **Compilations;
  auto Sources = sourcesToRun(Parsed, DB, *Action);
  if (!Sources)
    return fail(Sources.takeError());
  CudaToolchain Toolchain = CudaToolchain::detect(Argv[0], CudaPath, GpuArch);
  if (Error E = Toolchain.check(CudaPath, GpuArch))
    return fail(std::move(E));
  Driver D(Argv[0], DB, Toolchain, outs(), errs());
  if (ListTransforms) {
    if (Error E = TransformActions(D).listTransforms(Format))
      return fail(std::move(E));
    return ExitOK;
  }
  int Code = ExitOK;
  for (const std::string &Source : *Sources) {
    ProjectNvccFlags = projectNvccFlags(DB, Source);
    auto C = runOn(D, Source, outputFor(Source, Sources->size()));
    int Done = C ? *C : fail(C.takeError());
    // Every file would meet the same missing GPU or bug.
    if (Done == ExitNoGPU || Done == ExitInternal)
      return Done;
    Code = worseExitCode(Code, Done);
    if (Code == ExitInterrupted)
      break;
  }
  if (CheckSpecs && SpecErrors)
    return fail(makeError(ErrorKind::BadInput,
                          Twine(SpecErrors) + " error" +
                              (SpecErrors == 1 ? "" : "s") +
                              " in the specs of " + Twine(Sources->size()) +
                              " file" + (Sources->size() == 1 ? "" : "s")));
  return Code;
}
