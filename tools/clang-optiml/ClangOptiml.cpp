//===- ClangOptiml.cpp - the clang-optiml command-line tool --------------===//
//
// Thin on purpose: parses the options once, the way every clang tool does,
// picks the action, builds its options record (the *Flags.cpp files) and
// calls it, and maps errors to one line on stderr and a distinct exit code.
// Which options go with which action is one table (optionTable()), read by
// the check that refuses an option the action would ignore and by --help.
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"
#include "Flags.h"

#include "driver/Cache/CacheActions.h"
#include "driver/Check/CheckActions.h"
#include "driver/Check/TransformActions.h"
#include "driver/Evaluate/EvaluateAction.h"
#include "driver/FromPrompt/FromPromptAction.h"
#include "driver/Optimize/OptimizeAction.h"
#include "driver/Optimize/ProposeAction.h"
#include "driver/Optimize/RewriteTiming.h"
#include "optiml/Support/Error.h"
#include "optiml/Support/Interrupt.h"

#include "OptimlVersion.inc"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"

using namespace optiml;
using namespace llvm;

/// What the reports say made them: this tool and the command line.
static ReportProvenance Provenance;

/// --import-cache, then --export-cache, either of which may be empty.
static int runCacheFiles(Driver &D, const CacheFileFlags &Files,
                         StringRef DbPath) {
  if (!Files.Import.empty())
    if (Error E = CacheActions(D).importCache(Files.Import, DbPath))
      return fail(std::move(E));
  if (!Files.Export.empty())
    if (Error E = CacheActions(D).exportCache(Files.Export, DbPath))
      return fail(std::move(E));
  return ExitOK;
}

/// Errors --check found, over every file.
static unsigned SpecErrors = 0;

/// The chosen action on one source file, with its target \p T.
static Expected<int> runOn(Driver &D, StringRef Source, StringRef Action,
                           const TargetFlags &T) {
  auto Done = [](Error E) -> Expected<int> {
    if (E)
      return std::move(E);
    return ExitOK;
  };
  if (Action == "check") {
    auto Errors = CheckActions(D).check(Source, T.Kernel, T.SpecPath, T.Format);
    if (!Errors)
      return Errors.takeError();
    SpecErrors += *Errors;
    return *Errors ? ExitBadInput : ExitOK;
  }
  if (Action == "use-cache") {
    if (Error E = CacheActions(D).useCache(Source, useCacheOptions(T)))
      return E;
    // The import came first, with the source's.
    return runCacheFiles(D, {"", cacheFileFlags().Export}, T.DbPath);
  }
  if (Action == "list-kernels")
    return Done(CheckActions(D).listKernels(Source, T.Kernel, T.Format));
  if (Action == "list-sites")
    return Done(TransformActions(D).listSites(Source, T.Kernel, T.Format,
                                              transformChoice()));
  if (Action == "time-rewrites")
    return Done(RewriteTiming(D).timeRewrites(Source, T.Kernel));
  if (Action == "apply")
    return Done(TransformActions(D).applySteps(Source, applySteps(), T.Output,
                                               formatStyle()));
  if (Action == "propose" || Action == "optimize") {
    auto Llm = llmConfig();
    if (!Llm)
      return Llm.takeError();
    if (Action == "propose")
      return ProposeAction(D).propose(Source, proposeOptions(T, *Llm),
                                      T.Format);
    if (Error E = checkOptimizeFlags(*Llm))
      return E;
    return OptimizeAction(D).optimizeEach(
        Source, optimizeOptions(T, std::move(*Llm), Provenance));
  }
  if (Action == "evaluate")
    return EvaluateAction(D).evaluateEach(Source, evaluateOptions(T), T.Format);
  return makeError(ErrorKind::BadInput,
                   "nothing to do: pass --check, --list-kernels, --list-sites, "
                   "--apply, --evaluate, --optimize, --propose, --from-prompt "
                   "or --use-cache (see --help)");
}

/// --from-prompt (alone, or with --optimize to continue): no source file.
static int runFromPrompt(const char *Argv0) {
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
  TargetFlags T = targetFlags();
  auto O = fromPromptOptions(T, *Action == "optimize", Provenance);
  if (!O)
    return fail(O.takeError());
  CudaToolchain Toolchain = CudaToolchain::detect(Argv0, T.CudaPath, T.Arch);
  if (Error E = Toolchain.check(T.CudaPath, T.Arch))
    return fail(std::move(E));
  clang::tooling::FixedCompilationDatabase NoDB(".", {});
  Driver D(Argv0, NoDB, Toolchain, outs(), errs());
  auto Code = FromPromptAction(D).fromPrompt(*O);
  return Code ? *Code : fail(Code.takeError());
}

/// --list-transforms alone (\p ListTransforms), or --import-cache and
/// --export-cache alone: no source file.
static int runWithoutSource(const char *Argv0, bool ListTransforms) {
  std::string First, Then;
  CacheFileFlags Files = cacheFileFlags();
  if (ListTransforms) {
    auto Action = chosenAction();
    if (!Action)
      return fail(Action.takeError());
    First = *Action;
  } else {
    First = Files.Import.empty() ? "export-cache" : "import-cache";
    if (!Files.Import.empty() && !Files.Export.empty())
      Then = "export-cache";
  }
  if (Error E = checkOptionsFit(First, Then))
    return fail(std::move(E));
  TargetFlags T = targetFlags();
  clang::tooling::FixedCompilationDatabase NoDB(".", {});
  Driver D(Argv0, NoDB, CudaToolchain::detect(Argv0, T.CudaPath, T.Arch),
           outs(), errs());
  if (!ListTransforms)
    return runCacheFiles(D, Files, T.DbPath);
  if (Error E = TransformActions(D).listTransforms(T.Format))
    return fail(std::move(E));
  return ExitOK;
}

/// The options fit the action; the hidden --time-rewrites reads what
/// --list-sites reads, but the option table, which --help and its messages
/// show, leaves it out, so its messages name --time-rewrites where the
/// table says --list-sites.
static Error checkActionOptions(StringRef Action) {
  if (Action != "time-rewrites")
    return checkOptionsFit(Action);
  Error E = checkOptionsFit("list-sites");
  if (!E)
    return E;
  ErrorSummary Why = summarize(std::move(E));
  constexpr StringLiteral Shown = "--list-sites";
  std::string Message = Why.Message;
  for (size_t At; (At = Message.find(Shown.str())) != std::string::npos;)
    Message.replace(At, Shown.size(), "--time-rewrites");
  return makeError(Why.Kind, Message);
}

int main(int Argc, const char **Argv) {
  InitLLVM X(Argc, Argv);
  Provenance.Tool = std::string("OptiML ") + OPTIML_VERSION + " (git " +
                    OPTIML_GIT_HASH + ")";
  Provenance.CommandLine = commandLineOf(Argc, Argv);
  setVersionPrinter(Argv[0]);
  std::vector<const char *> Args = withQuietDefaultDatabase(Argc, Argv);
  int ArgCount = static_cast<int>(Args.size());
  if (wantsHelp(Argc, Argv))
    return printHelp(ArgCount, Args.data());
  // The paths that take no source file, which CommonOptionsParser would
  // demand.
  bool FromPrompt = wantsFromPrompt(Argc, Argv);
  bool ListOnly = !FromPrompt && wantsTransformListOnly(Argc, Argv);
  if (FromPrompt || ListOnly || wantsCacheFilesOnly(Argc, Argv)) {
    if (!cl::ParseCommandLineOptions(ArgCount, Args.data(), Overview, &errs()))
      return ExitBadInput;
    return FromPrompt ? runFromPrompt(Argv[0])
                      : runWithoutSource(Argv[0], ListOnly);
  }
  auto Parsed =
      parseWithSources(ArgCount, Args.data(), hasFlag(Argc, Argv, "all"));
  if (!Parsed)
    return fail(Parsed.takeError());
  auto Action = chosenAction();
  if (!Action)
    return fail(Action.takeError());
  // Checked first: its message names what to change, where --db's would not.
  CacheFileFlags Files = cacheFileFlags();
  if (*Action != "use-cache" &&
      (!Files.Import.empty() || !Files.Export.empty()))
    return fail(makeError(ErrorKind::BadInput,
                          "--import-cache and --export-cache take no source "
                          "file, except with --use-cache"));
  if (Error E = checkActionOptions(*Action))
    return fail(std::move(E));
  TargetFlags Target = targetFlags();
  auto Sources = sourcesToRun(*Parsed, Target, *Action);
  if (!Sources)
    return fail(Sources.takeError());
  CudaToolchain Toolchain =
      CudaToolchain::detect(Argv[0], Target.CudaPath, Target.Arch);
  if (Error E = Toolchain.check(Target.CudaPath, Target.Arch))
    return fail(std::move(E));
  Driver D(Argv[0], *Sources->DB, Toolchain, outs(), errs());
  if (*Action == "list-transforms") {
    if (Error E = TransformActions(D).listTransforms(Target.Format))
      return fail(std::move(E));
    return ExitOK;
  }
  size_t Count = Sources->Sources.size();
  int Code = ExitOK;
  for (const std::string &Source : Sources->Sources) {
    TargetFlags T = targetFlags(projectNvccFlags(*Sources->DB, Source));
    T.Output = outputFor(Source, Target, Count);
    auto C = runOn(D, Source, *Action, T);
    int Done = C ? *C : fail(C.takeError());
    // Every file would meet the same missing GPU or bug.
    if (Done == ExitNoGPU || Done == ExitInternal)
      return Done;
    Code = worseExitCode(Code, Done);
    if (Code == ExitInterrupted)
      break;
  }
  if (*Action == "check" && SpecErrors)
    return fail(
        makeError(ErrorKind::BadInput, Twine(SpecErrors) + " error" +
                                           (SpecErrors == 1 ? "" : "s") +
                                           " in the specs of " + Twine(Count) +
                                           " file" + (Count == 1 ? "" : "s")));
  return Code;
}
