//===- ClangOptiml.cpp - the clang-optiml command-line tool --------------===//
//
// Thin on purpose: parses options the way every clang tool does, picks the
// action and maps errors to one line on stderr and a distinct exit code.
//
//===----------------------------------------------------------------------===//

#include "optiml/Driver/Driver.h"
#include "optiml/Frontend/NvccFlags.h"
#include "optiml/Support/Error.h"

#include "OptimlVersion.inc"

#include "clang/Tooling/CommonOptionsParser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/WithColor.h"

using namespace optiml;
using namespace llvm;

static cl::OptionCategory OptimlCategory("clang-optiml options");

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
static cl::list<std::string>
    ApplySteps("apply",
               cl::desc("Apply a transform, e.g. "
                        "'unroll(site=sgemm/for#0,factor=4)'; repeat to "
                        "chain"),
               cl::value_desc("step"), cl::cat(OptimlCategory));
static cl::opt<std::string>
    OutputFile("o",
               cl::desc("With --apply: write the result here (default: "
                        "stdout); with --optimize (required): the fastest "
                        "verified kernel; never the input file; with "
                        "--propose: a folder for the accepted edits and "
                        "proposals.json"),
               cl::value_desc("file.cu"), cl::cat(OptimlCategory));
static cl::opt<bool>
    Evaluate("evaluate",
             cl::desc("Build, verify and time the kernel (or --candidate "
                      "against it) on the GPU"),
             cl::cat(OptimlCategory));
static cl::opt<std::string>
    CandidateFile("candidate",
                  cl::desc("With --evaluate: a rewritten copy of the file "
                           "to compare against it"),
                  cl::value_desc("file.cu"), cl::cat(OptimlCategory));
static cl::opt<std::string>
    SpecFile("spec",
             cl::desc("Kernel spec (JSON); default: the #pragma optiml mark "
                      "and <file>.optiml.json"),
             cl::value_desc("file.json"), cl::cat(OptimlCategory));
static cl::opt<bool> Metrics("metrics",
                             cl::desc("With --evaluate: also collect hardware "
                                      "counters (CUPTI Range Profiler)"),
                             cl::cat(OptimlCategory));
static cl::opt<bool>
    BuildOnly("build-only",
              cl::desc("With --evaluate: compile the launchers with nvcc and "
                       "report resource usage, without a GPU"),
              cl::cat(OptimlCategory));
static cl::opt<unsigned>
    RunTimeout("timeout",
               cl::desc("With --evaluate: seconds before the runner is "
                        "killed (default 300)"),
               cl::init(300), cl::cat(OptimlCategory));
static cl::opt<double>
    NoiseTarget("noise-target",
                cl::desc("With --evaluate: relative spread of the median at "
                         "which timing stops (default 0.01)"),
                cl::init(0.01), cl::cat(OptimlCategory));
static cl::opt<std::string>
    SavePlan("save-plan",
             cl::desc("With --evaluate: write the runner's plan (JSON) here, "
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
    Strategy("strategy",
             cl::desc("With --optimize: mcts (default), greedy or random"),
             cl::init("mcts"), cl::cat(OptimlCategory));
static cl::opt<unsigned>
    Budget("budget",
           cl::desc("With --optimize: candidates to measure, the original "
                    "included (default 64)"),
           cl::init(64), cl::cat(OptimlCategory));
static cl::opt<unsigned>
    Jobs("jobs",
         cl::desc("With --optimize: candidates proposed per iteration and "
                  "built by nvcc in parallel (1..64, default 4); they are "
                  "still timed one at a time"),
         cl::init(4), cl::cat(OptimlCategory));
static cl::alias JobsShort("j", cl::desc("Alias for --jobs"),
                           cl::aliasopt(Jobs));
static cl::opt<double>
    TimeLimit("time-limit",
              cl::desc("With --optimize: stop after this many seconds "
                       "(default: no limit)"),
              cl::init(0), cl::cat(OptimlCategory));
static cl::opt<std::string>
    DbPath("db",
           cl::desc("With --optimize, --propose and the cache options: "
                    "the database of measurements, LLM calls and results "
                    "(default: "
                    "<cache>/search.sqlite)"),
           cl::value_desc("file.sqlite"), cl::cat(OptimlCategory));
static cl::opt<bool>
    Resume("resume",
           cl::desc("With --optimize: start from what earlier runs on this "
                    "kernel learned (failing transforms)"),
           cl::cat(OptimlCategory));
static cl::opt<std::string>
    ReportPrefix("report",
                 cl::desc("With --optimize: write the report to PREFIX.md, "
                          "PREFIX.json and PREFIX.html (a page with a plot of "
                          "the best speedup over evaluations; default: "
                          "OUT.report)"),
                 cl::value_desc("prefix"), cl::cat(OptimlCategory));
static cl::opt<uint64_t>
    SearchSeed("search-seed",
               cl::desc("With --optimize: seed of the strategy's random "
                        "choices (random's; mcts and greedy make none), so a "
                        "run can be repeated (default 1)"),
               cl::init(1), cl::value_desc("N"), cl::cat(OptimlCategory));

static cl::opt<bool>
    Propose("propose",
            cl::desc("Ask the model (--llm) for changes to the kernel and "
                     "validate each without a GPU (apply, re-parse, edit "
                     "checks, nvcc build)"),
            cl::cat(OptimlCategory));
static cl::opt<unsigned>
    ProposalCount("n",
                  cl::desc("With --propose: proposals to ask for "
                           "(1..32, default 3)"),
                  cl::init(3), cl::value_desc("N"), cl::cat(OptimlCategory));

static cl::opt<std::string>
    LlmProviderName("llm",
                    cl::desc("The model's protocol: none (default), openai "
                             "(any OpenAI-compatible endpoint: OpenAI, vLLM, "
                             "llama.cpp, Ollama) or anthropic. Every --llm* "
                             "option is also read from OPTIML_<NAME> "
                             "(OPTIML_LLM_MODEL, ...) and from the "
                             "--llm-config file; the key only from "
                             "OPTIML_LLM_API_KEY, else OPENAI_API_KEY or "
                             "ANTHROPIC_API_KEY"),
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
    LlmConfigFile("llm-config",
                  cl::desc("A JSON file of these settings "
                           "({\"llm\": \"openai\", \"llm-model\": ...})"),
                  cl::value_desc("file.json"), cl::cat(OptimlCategory));
static cl::opt<std::string>
    PromptsDir("prompts-dir",
               cl::desc("Folder of *.prompt templates (default: the "
                        "installed prompts/)"),
               cl::value_desc("dir"), cl::cat(OptimlCategory));

static cl::opt<std::string>
    LlmPolicyName("llm-policy",
                  cl::desc("With --optimize and a model: expand (the model's "
                           "proposals become extra moves), prior (its picks "
                           "weigh the listed moves) or both (default)"),
                  cl::init("both"), cl::value_desc("expand|prior|both"),
                  cl::cat(OptimlCategory));
static cl::opt<unsigned>
    LlmSamples("llm-samples",
               cl::desc("With --optimize and a model: rounds of proposals "
                        "per state, each at a higher temperature (1..8, "
                        "default 1)"),
               cl::init(1), cl::value_desc("N"), cl::cat(OptimlCategory));
static cl::opt<std::string> ProposalsFrom(
    "proposals-from",
    cl::desc("With --optimize: take the proposals that --propose -o DIR "
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
                  cl::desc("With --from-prompt: the kernel's name (default: "
                           "the model's choice)"),
                  cl::value_desc("name"), cl::cat(OptimlCategory));
static cl::opt<unsigned>
    Thoughts("thoughts",
             cl::desc("With --from-prompt: implementation strategies, one "
                      "candidate kernel each (2..8, default 3)"),
             cl::init(3), cl::value_desc("K"), cl::cat(OptimlCategory));
static cl::opt<unsigned> ReferenceAttempts(
    "reference-attempts",
    cl::desc("With --from-prompt: references written, at most, before the "
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
  for (cl::opt<bool> *A : {&ListKernels, &ListTransforms, &ListSites,
                           &Evaluate, &Optimize, &Propose, &UseCache})
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

/// Options that only one action reads, by the actions that read them.
static Error checkOptionsFit(StringRef Action, StringRef Also = "") {
  struct Owned {
    cl::Option *O;
    std::vector<StringRef> Actions;
  };
  const Owned Table[] = {
      {&CandidateFile, {"evaluate"}},
      {&Metrics, {"evaluate"}},
      {&BuildOnly, {"evaluate"}},
      {&SavePlan, {"evaluate"}},
      {&Strategy, {"optimize"}},
      {&Budget, {"optimize"}},
      {&Jobs, {"optimize"}},
      {&TimeLimit, {"optimize"}},
      {&Resume, {"optimize"}},
      {&ReportPrefix, {"optimize"}},
      {&SearchSeed, {"optimize"}},
      {&LlmPolicyName, {"optimize"}},
      {&LlmSamples, {"optimize"}},
      {&ProposalsFrom, {"optimize"}},
      {&ProposalCount, {"propose", "optimize"}},
      {&DbPath, {"optimize", "propose", "use-cache", "from-prompt"}},
      {&RunTimeout, {"evaluate", "optimize", "from-prompt"}},
      {&NoiseTarget, {"evaluate", "optimize", "from-prompt"}},
      {&GeneratedName, {"from-prompt"}},
      {&Thoughts, {"from-prompt"}},
      {&ReferenceAttempts, {"from-prompt"}},
  };
  for (const Owned &T : Table)
    if (T.O->getNumOccurrences() && !llvm::is_contained(T.Actions, Action) &&
        !llvm::is_contained(T.Actions, Also))
      return makeError(ErrorKind::BadInput,
                       "--" + T.O->ArgStr + " applies to --" +
                           join(T.Actions, " and --") +
                           (Action.empty() ? ", and no action was given"
                                           : ", not to --" + Action.str()));
  if (Format == OutputFormat::JSON && (Action == "apply" || Action == "optimize"))
    return makeError(ErrorKind::BadInput,
                     "--format=json does not apply to --" + Action +
                         (Action == "optimize"
                              ? " (it writes OUT.report.json; see --report)"
                              : " (its output is CUDA source)"));
  if (Budget.getNumOccurrences() && Budget == 0)
    return makeError(ErrorKind::BadInput,
                     "--budget=0 measures nothing: give 1 or more (the "
                     "original counts as one)");
  return Error::success();
}

/// The LLM settings the user gave on the command line, by name.
static std::map<std::string, std::string> llmFlags() {
  std::map<std::string, std::string> Given;
  for (cl::opt<std::string> *O :
       {&LlmProviderName, &LlmBaseUrl, &LlmModel, &LlmTemperature,
        &LlmMaxTokens, &LlmTimeout, &LlmRetries, &LlmMaxCalls, &LlmMaxCost,
        &LlmPriceIn, &LlmPriceOut, &LlmConfigFile, &PromptsDir})
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
    if (Error E = D.importCache(ImportCache, DbPath))
      return fail(std::move(E));
  if (!ExportCache.empty())
    if (Error E = D.exportCache(ExportCache, DbPath))
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

static OptimizeOptions optimizeOptions(LlmConfig Llm) {
  OptimizeOptions O;
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
  O.TimeLimit = TimeLimit;
  O.DbPath = DbPath;
  O.Resume = Resume;
  O.OutputPath = OutputFile;
  O.ReportPrefix = ReportPrefix;
  O.Seed = SearchSeed;
  O.Measure.NoiseTarget = NoiseTarget;
  O.TimeoutSeconds = RunTimeout;
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
  clang::tooling::FixedCompilationDatabase NoDB(".", {});
  Driver D(Argv0, NoDB, CudaToolchain::detect(Argv0, CudaPath, GpuArch), outs(),
           errs());
  auto Code = D.fromPrompt(O);
  return Code ? *Code : fail(Code.takeError());
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

int main(int Argc, const char **Argv) {
  InitLLVM X(Argc, Argv);
  ProgramPath = Argv[0];
  cl::SetVersionPrinter(printVersion);
  std::vector<const char *> Args = withQuietDefaultDatabase(Argc, Argv);
  int ArgCount = static_cast<int>(Args.size());
  if (wantsFromPrompt(Argc, Argv))
    return runFromPrompt(ArgCount, Args.data(), Argv[0]);
  if (wantsTransformListOnly(Argc, Argv)) {
    if (!cl::ParseCommandLineOptions(ArgCount, Args.data(), Overview, &errs()))
      return ExitBadInput;
    clang::tooling::FixedCompilationDatabase NoDB(".", {});
    Driver D(Argv[0], NoDB, CudaToolchain::detect(Argv[0], CudaPath, GpuArch),
             outs(), errs());
    if (Error E = D.listTransforms(Format))
      return fail(std::move(E));
    return ExitOK;
  }
  if (wantsCacheFilesOnly(Argc, Argv)) {
    if (!cl::ParseCommandLineOptions(ArgCount, Args.data(), Overview, &errs()))
      return ExitBadInput;
    clang::tooling::FixedCompilationDatabase NoDB(".", {});
    Driver D(Argv[0], NoDB, CudaToolchain::detect(Argv[0], CudaPath, GpuArch),
             outs(), errs());
    return runCacheFiles(D);
  }
  auto Parser = clang::tooling::CommonOptionsParser::create(
      ArgCount, Args.data(), OptimlCategory, cl::OneOrMore, Overview);
  if (!Parser)
    return fail(makeError(ErrorKind::BadInput,
                          oneLine(toString(Parser.takeError()), Argv[0])));

  const auto &Sources = Parser->getSourcePathList();
  if (Sources.size() != 1)
    return fail(makeError(ErrorKind::BadInput,
                          "expected exactly one source file, got " +
                              Twine(Sources.size())));
  if (!sys::fs::exists(Sources[0]))
    return fail(makeError(ErrorKind::BadInput, Sources[0] + ": no such file"));

  auto Action = chosenAction();
  if (!Action)
    return fail(Action.takeError());
  // Checked first: its message names what to change, where --db's would not.
  if (!UseCache && (!ImportCache.empty() || !ExportCache.empty()))
    return fail(makeError(ErrorKind::BadInput,
                          "--import-cache and --export-cache take no source "
                          "file, except with --use-cache"));
  if (Error E = checkOptionsFit(*Action))
    return fail(std::move(E));
  CudaToolchain Toolchain = CudaToolchain::detect(Argv[0], CudaPath, GpuArch);
  ProjectNvccFlags = projectNvccFlags(Parser->getCompilations(), Sources[0]);
  Driver D(Argv[0], Parser->getCompilations(), Toolchain, outs(), errs());
  if (UseCache) {
    UseCacheOptions O;
    O.SpecPath = SpecFile;
    O.Arch = GpuArch;
    O.NvccFlags = nvccFlags();
    O.DbPath = DbPath;
    O.ImportPath = ImportCache;
    O.OutputPath = OutputFile;
    if (Error E = D.useCache(Sources[0], O))
      return fail(std::move(E));
    ImportCache.setValue(""); // Done.
    return runCacheFiles(D);
  }
  if (ListKernels) {
    if (Error E = D.listKernels(Sources[0], KernelName, Format))
      return fail(std::move(E));
    return ExitOK;
  }
  if (ListTransforms) {
    if (Error E = D.listTransforms(Format))
      return fail(std::move(E));
    return ExitOK;
  }
  if (ListSites) {
    if (Error E = D.listSites(Sources[0], KernelName, Format))
      return fail(std::move(E));
    return ExitOK;
  }
  if (!ApplySteps.empty()) {
    if (Error E = D.applySteps(Sources[0], ApplySteps, OutputFile))
      return fail(std::move(E));
    return ExitOK;
  }
  if (Propose) {
    auto Llm = LlmConfig::resolve(llmFlags());
    if (!Llm)
      return fail(Llm.takeError());
    ProposeOptions O;
    O.Kernel = KernelName;
    O.SpecPath = SpecFile;
    O.Arch = GpuArch;
    O.NvccFlags = nvccFlags();
    O.Count = ProposalCount;
    O.OutputDir = OutputFile;
    O.DbPath = DbPath;
    O.Llm = std::move(*Llm);
    auto Code = D.propose(Sources[0], O, Format);
    return Code ? *Code : fail(Code.takeError());
  }
  if (Optimize) {
    auto Llm = LlmConfig::resolve(llmFlags());
    if (!Llm)
      return fail(Llm.takeError());
    OptimizeOptions O = optimizeOptions(std::move(*Llm));
    auto Code = D.optimize(Sources[0], O);
    return Code ? *Code : fail(Code.takeError());
  }
  if (Evaluate) {
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
    auto Code = D.evaluate(Sources[0], O, Format);
    return Code ? *Code : fail(Code.takeError());
  }
  return fail(
      makeError(ErrorKind::BadInput,
                "nothing to do: pass --list-kernels, --list-sites, "
                "--apply, --evaluate, --optimize, --propose, --from-prompt or "
                "--use-cache (see --help)"));
}
