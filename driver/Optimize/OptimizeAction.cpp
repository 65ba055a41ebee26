//===- OptimizeAction.cpp - --optimize -----------------------------------===//
//
// Wires the Search layer to real sources and the GPU: SearchExpander (moves),
// EvaluatorMeasurer (build, verify, time), the database memo, the strategy
// and the loop; then writes the best verified source and the report.
//
//===----------------------------------------------------------------------===//

#include "driver/Optimize/OptimizeAction.h"
#include "driver/Cache/ResultCache.h"
#include "driver/Optimize/CompareStrategies.h"
#include "driver/Optimize/OptimizeSearch.h"
#include "driver/Search/CommandMeasurer.h"
#include "driver/Search/EvaluatorMeasurer.h"
#include "driver/Search/LlmSession.h"
#include "driver/Search/SearchExpander.h"
#include "optiml/DB/Database.h"
#include "optiml/Eval/GpuProbe.h"
#include "optiml/Eval/Runner.h"
#include "optiml/Rewrite/ChangedLinesFormatter.h"
#include "optiml/Rewrite/SourceParser.h"
#include "optiml/Search/HistoryPriors.h"
#include "optiml/Search/HtmlReport.h"
#include "optiml/Search/RecordingMeasurer.h"
#include "optiml/Search/StrategyFactory.h"
#include "optiml/Search/TrajectoryReport.h"
#include "optiml/Support/Error.h"
#include "optiml/Support/Interrupt.h"
#include "optiml/Support/JsonText.h"
#include "optiml/Support/OutputPath.h"
#include "optiml/Support/Subprocess.h"
#include "transforms/RegisterTransforms.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Threading.h"

#include <nlohmann/json.hpp>

using namespace optiml;

//===----------------------------------------------------------------------===//
// OptimizeAction::optimize
//===----------------------------------------------------------------------===//

/// The report's three files can be written, and none is the input or -o:
/// found out before the search, not after it.
static llvm::Error checkReportPaths(llvm::StringRef Input,
                                    const OptimizeOptions &O) {
  std::string Prefix = reportPrefix(O);
  for (const char *Ext : {".md", ".json", ".html"}) {
    std::string Path = Prefix + Ext;
    if (llvm::Error E = refuseOverwrite(Input, Path, "--report"))
      return E;
    if (llvm::Error E = refuseOverwrite(O.OutputPath, Path)) {
      llvm::consumeError(std::move(E));
      return makeError(ErrorKind::BadInput, "--report " + Prefix +
                                                " would write " + Path +
                                                ", which is -o");
    }
    if (llvm::Error E = checkOutputFile(Path, "--report"))
      return E;
  }
  return llvm::Error::success();
}

/// What makes measurements comparable: the instantiated problem (sizes,
/// arguments, launch, tolerances), as the runner's plan spells it (keys
/// sorted, so that only the content counts).
static llvm::Expected<std::string> specKey(const KernelSpec &Spec,
                                           const KernelInfo &Kernel,
                                           const MeasureOptions &M) {
  auto Instances = Spec.instantiate(Kernel);
  if (!Instances)
    return Instances.takeError();
  auto Plan = makeRunPlan(Spec, *Instances, "", "", M);
  if (!Plan)
    return Plan.takeError();
  return jsonText(nlohmann::json(protocol::Json(*Plan)), -1);
}

static llvm::Expected<int64_t>
problemId(Database &Db, const KernelSource &Src, const KernelInfo &Kernel,
          const KernelSpec &Spec, const GpuInfo &Gpu, llvm::StringRef Toolchain,
          const MeasureOptions &M) {
  auto Key = specKey(Spec, Kernel, M);
  if (!Key)
    return Key.takeError();
  return Db.kernelId({0, Src.hash().str(), Kernel.QualifiedName, *Key, Gpu.Name,
                      Toolchain.str()});
}

namespace {
/// What measures the candidates: the GPUs with the builder and the runner,
/// or the program of --measure-with in their place (nothing is built).
struct MeasuringSetup {
  std::vector<GpuInfo> Gpus; ///< At least one; a stand-in for the program.
  std::optional<Builder> B;
  std::optional<Runner> R;
  std::string Program; ///< --measure-with's, found; empty: the GPUs.
  BuildOptions Build;

  /// What else makes measurements comparable: the compiler and its flags,
  /// or the program.
  std::string toolchain() const {
    if (!B)
      return "--measure-with " + Program;
    return B->nvccRelease() + "; " + Build.Arch + " " +
           llvm::join(Build.ExtraFlags, " ");
  }
};
} // namespace

/// --measure-with's program: a path, or a name on $PATH.
static llvm::Expected<std::string> measuringProgram(llvm::StringRef Name) {
  std::string Path = Name.contains('/') ? Name.str() : findProgram(Name);
  if (Path.empty() || !llvm::sys::fs::can_execute(Path) ||
      llvm::sys::fs::is_directory(Path))
    return makeError(ErrorKind::BadInput,
                     "--measure-with " + Name +
                         ": not a program that can be run");
  return Path;
}

/// The GPUs (NoGPU without one), the builder and the runner; or, with
/// --measure-with, its program and a stand-in GPU named after it.
static llvm::Expected<MeasuringSetup> prepareMeasuring(const char *ToolPath,
                                                       const OptimizeOptions &O,
                                                       llvm::raw_ostream &Log) {
  MeasuringSetup M;
  M.Build.Arch = O.Arch;
  M.Build.ExtraFlags = O.NvccFlags;
  if (!O.MeasureWith.empty()) {
    if (!O.Gpus.empty())
      return makeError(ErrorKind::BadInput,
                       "--gpus names GPUs to measure on, and --measure-with "
                       "measures without one: choose one");
    auto Program = measuringProgram(O.MeasureWith);
    if (!Program)
      return Program.takeError();
    M.Program = std::move(*Program);
    if (M.Build.Arch.empty())
      M.Build.Arch = "sm_90";
    GpuInfo StandIn;
    StandIn.Name =
        "--measure-with " + llvm::sys::path::filename(M.Program).str();
    StandIn.Arch = M.Build.Arch;
    M.Gpus.push_back(std::move(StandIn));
    return M;
  }
  auto Found = probeGpus(ToolPath);
  if (!Found)
    return Found.takeError();
  auto Gpus = selectGpus(O.Gpus, *Found);
  if (!Gpus)
    return Gpus.takeError();
  M.Gpus = std::move(*Gpus);
  if (M.Build.Arch.empty())
    M.Build.Arch = M.Gpus.front().Arch;
  auto B = Builder::create(M.Build);
  if (!B)
    return B.takeError();
  M.B.emplace(std::move(*B));
  auto R = Runner::prepare(ToolPath, M.Build.Arch, &Log);
  if (!R)
    return R.takeError();
  M.R.emplace(std::move(*R));
  return M;
}

/// What ptxas makes of candidates, built on every core as the measurer
/// builds them (same kernel, same cache): one the search then measures is
/// not compiled again.
static UsageProbe usageProbe(const Builder &B, const KernelInfo &Kernel) {
  return [&B, &Kernel](llvm::ArrayRef<const KernelSource *> Sources) {
    std::vector<BuildRequest> Requests;
    for (const KernelSource *S : Sources)
      Requests.push_back({S, &Kernel});
    std::vector<std::optional<ResourceUsage>> Out;
    unsigned Jobs = llvm::hardware_concurrency().compute_thread_count();
    for (auto &R : B.buildAll(Requests, Jobs)) {
      if (!R) {
        llvm::consumeError(R.takeError());
        Out.emplace_back();
        continue;
      }
      Out.push_back(R->Succeeded ? R->Usage : std::nullopt);
    }
    return Out;
  };
}

/// The options of the model's part, checked before the GPU is looked for.
static llvm::Error checkLlmOptions(const OptimizeOptions &O) {
  if (!O.ProposalsFrom.empty() && O.Llm.enabled())
    return makeError(ErrorKind::BadInput,
                     "--proposals-from and --llm both name where proposals "
                     "come from: choose one");
  if (O.LlmSamples < 1 || O.LlmSamples > 8)
    return makeError(ErrorKind::BadInput,
                     "--llm-samples=" + llvm::Twine(O.LlmSamples) +
                         " is outside 1..8");
  return parseLlmPolicy(O.LlmPolicy).takeError();
}

llvm::Expected<int> OptimizeAction::optimize(llvm::StringRef File,
                                             const OptimizeOptions &Options) {
  if (llvm::Error E = checkOutputPath(File, Options.OutputPath))
    return E;
  if (llvm::Error E = checkReportPaths(File, Options))
    return E;
  if (llvm::Error E = checkStrategyName(Options.Strategy))
    return E;
  if (!Options.Compare.empty()) {
    if (llvm::Error E = checkCompareOptions(Options))
      return E;
    for (const ComparedRun &R : comparedRuns(Options)) {
      OptimizeOptions One = runOptions(Options, R);
      if (llvm::Error E = refuseOverwrite(File, One.OutputPath))
        return E;
      if (llvm::Error E = checkReportPaths(File, One))
        return E;
    }
  }
  if (Options.BatchSize < 1 || Options.BatchSize > 64)
    return makeError(ErrorKind::BadInput,
                     "--jobs=" + llvm::Twine(Options.BatchSize) +
                         " is outside 1..64");
  if (auto Ordinals = parseGpuList(Options.Gpus); !Ordinals)
    return Ordinals.takeError();
  TransformRegistry Registry = makeTransformRegistry();
  if (llvm::Error E = Options.Transforms.check(Registry))
    return E;
  auto T =
      loadTarget(File, Options.Kernel, Options.SpecPath, Options.StartText);
  if (!T)
    return T.takeError();
  const KernelInfo &Kernel = T->kernel();
  const KernelSpec &Spec = T->Spec;
  const KernelSource &Original = T->Source;
  auto Instances = Spec.instantiate(Kernel);
  if (!Instances)
    return Instances.takeError();
  bool IntegerOnly = llvm::none_of(Instances->front().Args, [](const auto &A) {
    return protocol::isFloatType(A.Type) ||
           llvm::any_of(A.Fields, [](const ConcreteField &F) {
             return protocol::isFloatType(F.Type);
           });
  });
  auto Searched = Options.Transforms.select(Registry, Spec.RTol, IntegerOnly);
  if (!Searched)
    return Searched.takeError();
  for (const std::string &Note : Searched->Notes)
    Err << "clang-optiml: note: " << Note << "\n";

  if (llvm::Error E = checkLlmOptions(Options))
    return E;
  SourceParser Parser(DB, Toolchain);
  // Recorded proposals are read before the GPU is looked for: a bad
  // folder is the user's to fix first.
  std::unique_ptr<LlmSession> Llm;
  if (!Options.ProposalsFrom.empty()) {
    auto S = LlmSession::fromDirectory(Options.ProposalsFrom,
                                       Kernel.QualifiedName, Registry, Parser);
    if (!S)
      return S.takeError();
    Llm = std::move(*S);
  }

  // Without a GPU there is nothing to measure: say so before compiling.
  auto Setup = prepareMeasuring(ToolPath, Options, Err);
  if (!Setup)
    return Setup.takeError();
  const GpuInfo *Gpu = &Setup->Gpus.front();
  const BuildOptions &BO = Setup->Build;

  auto Db = openDatabaseAt(Options.DbPath);
  if (!Db)
    return Db.takeError();
  if (Options.Llm.enabled()) {
    auto S = LlmSession::forEndpoint(Options.Llm, *Db, Registry, Parser,
                                     nullptr, ToolPath);
    if (!S)
      return S.takeError();
    Llm = std::move(*S);
  }
  auto Parsed = Parser.parse(Original);
  if (!Parsed)
    return Parsed.takeError();
  SearchExpander Expand(Registry, Parser, std::move(*Parsed),
                        Kernel.QualifiedName, Options.SpecPath, BO.Arch);
  Expand.limitTo(Searched->Names);
  if (Setup->B)
    Expand.setUsageProbe(usageProbe(*Setup->B, Kernel));
  LlmGuide *Guide = nullptr;
  if (Llm) {
    LlmGuideOptions GO;
    GO.Policy = *parseLlmPolicy(Options.LlmPolicy);
    GO.Samples = Options.LlmSamples;
    GO.Count = Options.LlmCount;
    Guide = &Llm->guide(Kernel.QualifiedName,
                        writtenSpec(Kernel, File, Options.SpecPath), GO, Err);
    Expand.setGuide(Guide);
  }
  MeasureOptions MO = Options.Measure;
  MO.Metrics = true; // Counters feed the next proposal.
  Screening Screen = Options.Screen;
  if (Options.Goal != Objective::Time) {
    MO.Energy = true;
    // Screening cuts candidates that cannot be the fastest; under another
    // objective a slower one may still be the best.
    Screen.Enabled = false;
  }
  // Every GPU gets a candidate of each batch (in flight, when pipelined).
  unsigned Batch = std::max<unsigned>(Options.BatchSize, Setup->Gpus.size());
  std::unique_ptr<Measurer> Measure;
  if (Setup->R) {
    std::vector<Runner> Runners;
    for (const GpuInfo &G : Setup->Gpus) {
      Runner OnGpu = Setup->R->onDevice(G.Ordinal);
      Runners.push_back(Options.PersistentRunner ? OnGpu.persistent() : OnGpu);
    }
    if (Runners.size() > 1)
      Err << "clang-optiml: measuring on " << Runners.size() << " GPUs ("
          << Gpu->Name << "), " << Batch << " candidates a batch\n";
    Measure = std::make_unique<EvaluatorMeasurer>(
        Expand, *Setup->B, std::move(Runners), Original, Kernel, Spec, MO,
        Options.TimeoutSeconds, Batch, Screen);
  } else {
    Measure = std::make_unique<CommandMeasurer>(
        Expand, Setup->Program, MO.NoiseTarget, Options.TimeoutSeconds);
  }

  auto Id =
      problemId(*Db, Original, Kernel, Spec, *Gpu, Setup->toolchain(), MO);
  if (!Id)
    return Id.takeError();
  // Earlier searches of other kernels on this GPU weigh the priors; a
  // database that cannot say only costs that.
  if (auto History = HistoryPriors::learn(*Db, Gpu->Name, *Id))
    Expand.setHistory(std::move(*History));
  else
    Err << "clang-optiml: warning: no priors from earlier searches: "
        << llvm::toString(History.takeError()) << "\n";
  bool Interactive = llvm::sys::Process::StandardErrIsDisplayed();
  // From here on Ctrl-C stops the search rather than the process: the best
  // verified kernel so far and the reports are still written.
  OptimizeOptions Run = Options;
  Run.BatchSize = Batch;
  Run.StylePath = File.str();
  if (Setup->B)
    Run.Provenance.Nvcc = Setup->B->nvccRelease();
  if (!Run.StopRequested) {
    stopOnInterrupt();
    Run.StopRequested = stopRequested;
  }
  auto Outcome =
      Run.Compare.empty()
          ? runOptimizeSearch(Expand, *Measure, *Db, *Id, Kernel.QualifiedName,
                              Run, Err, Interactive, Guide)
          : compareStrategies(Expand, *Measure, *Db, *Id, Kernel.QualifiedName,
                              Run, Err, Interactive);
  if (!Outcome)
    return Outcome.takeError();
  // What a program measured (--measure-with) is no GPU's result: the
  // results cache, which builds take kernels from, never holds it.
  if (!Setup->B)
    return Outcome->Why == StopReason::Interrupted ? ExitInterrupted : ExitOK;
  ResultRecord Origin;
  Origin.Arch = BO.Arch;
  Origin.Gpu = Gpu->Name;
  Origin.Cuda = cudaRelease(Setup->B->nvccRelease());
  Origin.Flags = flagsKey(BO.ExtraFlags);
  Origin.Steps = Outcome->Improved ? Outcome->BestTrace : "";
  Origin.Speedup = Outcome->Improved ? Outcome->BestSpeedup : 1.0;
  // The results cache holds the fastest verified version: a build takes it
  // for speed. What another objective found is in -o and the reports.
  if (Options.Goal == Objective::Time)
    recordCachedResult(*Db, Parser, Original, Kernel, Options.SpecPath, Origin,
                       Outcome->BestSource, Err);
  else
    Err << "clang-optiml: the results cache keeps searches for time only; "
           "this one (--objective="
        << toString(Options.Goal) << ") is not cached\n";
  return Outcome->Why == StopReason::Interrupted ? ExitInterrupted : ExitOK;
}

//===----------------------------------------------------------------------===//
// OptimizeAction::optimizeEach
//===----------------------------------------------------------------------===//

// A file with several marked kernels is optimized like --evaluate handles
// them, each kernel in turn, a report each, one summary at the end, but
// chained: each search starts from the file as the searches before it left
// it, so that -o ends with every kernel's best version.

/// A kernel's name as part of a file name ("ns::k" -> "ns_k").
static std::string fileNamePart(llvm::StringRef Kernel) {
  std::string Out;
  for (char C : Kernel)
    Out += llvm::isAlnum(C) || C == '_' || C == '-' ? C : '_';
  return Out;
}

llvm::Expected<int>
OptimizeAction::optimizeEach(llvm::StringRef File,
                             const OptimizeOptions &Options) {
  auto Names = kernelsToRun(File, Options.Kernel, Options.SpecPath);
  if (!Names)
    return Names.takeError();
  if (Names->empty())
    return optimize(File, Options);
  std::string Prefix = reportPrefix(Options);
  int Code = ExitOK;
  std::string Text;
  size_t I = 0;
  for (; I < Names->size() && Code != ExitInterrupted; ++I) {
    const std::string &Name = (*Names)[I];
    Err << "clang-optiml: optimizing " << Name << " (" << I + 1 << " of "
        << Names->size() << " kernels of " << File << ")\n";
    OptimizeOptions One = Options;
    One.Kernel = Name;
    One.StartText = Text;
    One.ReportPrefix = Prefix + "." + fileNamePart(Name);
    auto C = optimize(File, One);
    if (!C)
      return C.takeError();
    Code = worseExitCode(Code, *C);
    // -o holds the file with this kernel's best version: the next search
    // starts there.
    auto Written = KernelSource::fromFile(Options.OutputPath);
    if (!Written)
      return Written.takeError();
    Text = Written->text().str();
  }
  Err << "clang-optiml: " << File << ": " << I << " of " << Names->size()
      << " kernels optimized in turn; " << Options.OutputPath
      << " has each one's best version, the reports are " << Prefix
      << ".<kernel>.md\n";
  return Code;
}
