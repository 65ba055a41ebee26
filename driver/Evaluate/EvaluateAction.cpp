//===- EvaluateAction.cpp - --evaluate: build, verify, time --------------===//
//
// One kernel (or a candidate file against it) built, verified and timed on
// the GPU; a file with several marked kernels is handled like
// run-clang-tidy handles a project: each kernel in turn, a report each, one
// summary at the end.
//
//===----------------------------------------------------------------------===//

#include "driver/Evaluate/EvaluateAction.h"
#include "driver/Evaluate/EvaluationReport.h"
#include "optiml/Eval/Builder.h"
#include "optiml/Eval/Evaluator.h"
#include "optiml/Eval/GpuProbe.h"
#include "optiml/Eval/Runner.h"
#include "optiml/Rewrite/KernelEditChecker.h"
#include "optiml/Rewrite/SourceParser.h"
#include "optiml/Support/Error.h"
#include "optiml/Support/Interrupt.h"
#include "optiml/Support/JsonText.h"
#include "optiml/Support/OutputPath.h"

#include "llvm/ADT/StringExtras.h"

#include <optional>

using namespace optiml;

/// The candidate must define the same kernel with the same parameters: the
/// runner passes it the reference's arguments.
static llvm::Error checkSameSignature(const KernelInfo &Ref,
                                      const KernelInventory &CandInv,
                                      llvm::StringRef CandFile) {
  const KernelInfo *Cand = CandInv.find(Ref.QualifiedName);
  if (!Cand)
    return makeError(ErrorKind::BadInput,
                     CandFile + ": the candidate does not define kernel '" +
                         Ref.QualifiedName + "'");
  bool Same = Cand->Params.size() == Ref.Params.size();
  for (size_t I = 0; Same && I < Ref.Params.size(); ++I)
    Same = Cand->Params[I].IsPointer == Ref.Params[I].IsPointer &&
           Cand->Params[I].PointeeType == Ref.Params[I].PointeeType;
  if (!Same)
    return makeError(ErrorKind::BadInput,
                     CandFile + ": kernel '" + Ref.QualifiedName +
                         "' has different parameters than in the reference");
  return llvm::Error::success();
}

/// The runner loads the candidate into its own process: refuse, before
/// building, a file that shadows the harness's or CUDA's names, adds macros
/// or runs code when it is loaded.
llvm::Error EvaluateAction::checkCandidateFile(const KernelSource &Original,
                                               const KernelSource &Candidate,
                                               const KernelInfo &Kernel) {
  SourceParser Parser(DB, Toolchain);
  auto Parsed = Parser.parse(Original);
  if (!Parsed)
    return Parsed.takeError();
  KernelEditChecker Checker(Parser, **Parsed, Kernel.QualifiedName,
                            EditScope::File);
  auto Checked = Checker.check(Candidate);
  if (Checked)
    return llvm::Error::success();
  ErrorSummary Why = summarize(Checked.takeError());
  return makeError(Why.Kind, Candidate.path() +
                                 ": the candidate is refused: " + Why.Message);
}

llvm::Expected<int> EvaluateAction::evaluate(llvm::StringRef File,
                                             const EvaluateOptions &Options,
                                             OutputFormat Format) {
  const std::string &Plan = Options.Measure.SavePlanPath;
  if (llvm::Error E = refuseOverwrite(File, Plan, "--save-plan"))
    return E;
  if (llvm::Error E = checkOutputFile(Plan, "--save-plan"))
    return E;
  auto T = loadTarget(File, Options.Kernel, Options.SpecPath);
  if (!T)
    return T.takeError();
  const KernelInfo &Kernel = T->kernel();
  std::optional<KernelSource> Candidate;
  std::optional<KernelSpec> CandidateSpec;
  if (!Options.Candidate.empty()) {
    // The static check comes first: it refuses what the candidate must not
    // do by name, a launch from device code too, which does not parse as
    // anything but relocatable device code.
    auto Text = KernelSource::fromFile(Options.Candidate);
    if (!Text)
      return Text.takeError();
    if (llvm::Error E = checkCandidateFile(T->Source, *Text, Kernel))
      return E;
    auto CandInv = inventoryOf(Options.Candidate);
    if (!CandInv)
      return CandInv.takeError();
    if (llvm::Error E = checkSameSignature(Kernel, *CandInv, Options.Candidate))
      return E;
    // A rewrite of the launch geometry rewrites the candidate's mark too.
    const KernelInfo *CandKernel = CandInv->find(Kernel.QualifiedName);
    if (CandKernel->Mark) {
      auto CS =
          loadKernelSpec(*CandKernel, Options.Candidate, Options.SpecPath);
      if (!CS)
        return CS.takeError();
      CandidateSpec.emplace(std::move(*CS));
    }
    Candidate.emplace(std::move(*Text));
  }

  // Without a GPU there is nothing to measure: say so before compiling.
  std::string Arch = Options.Arch;
  if (!Options.BuildOnly) {
    auto Gpu = probeGpu(ToolPath);
    if (!Gpu)
      return Gpu.takeError();
    if (Arch.empty())
      Arch = Gpu->Arch;
  }
  BuildOptions BO;
  BO.Arch = Arch.empty() ? "sm_90" : Arch;
  BO.ExtraFlags = Options.NvccFlags;
  auto B = Builder::create(BO);
  if (!B)
    return B.takeError();
  std::optional<Runner> R;
  if (!Options.BuildOnly) {
    auto Prepared = Runner::prepare(ToolPath, BO.Arch, &Err);
    if (!Prepared)
      return Prepared.takeError();
    R.emplace(std::move(*Prepared));
  }

  Evaluator Eval(*B, Options.Measure, Options.TimeoutSeconds);
  Eval.setLog(&Err);
  auto E = Eval.evaluate(T->Source, Candidate ? &*Candidate : nullptr, Kernel,
                         T->Spec, R ? &*R : nullptr,
                         CandidateSpec ? &*CandidateSpec : nullptr);
  if (!E)
    return E.takeError();
  if (Format == OutputFormat::JSON)
    Out << jsonText(toJSON(*E)) << "\n";
  else
    printEvaluation(*E, Kernel.QualifiedName, Out);
  if (Options.BuildOnly)
    return E->status() == "built" ? ExitOK : ExitRejected;
  return E->accepted() ? ExitOK : ExitRejected;
}

llvm::Expected<int> EvaluateAction::evaluateEach(llvm::StringRef File,
                                                 const EvaluateOptions &Options,
                                                 OutputFormat Format) {
  auto Names = kernelsToRun(File, Options.Kernel, Options.SpecPath);
  if (!Names)
    return Names.takeError();
  if (Names->empty())
    return evaluate(File, Options, Format);
  int Code = ExitOK;
  std::vector<std::string> Rejected;
  for (const std::string &Name : *Names) {
    Err << "clang-optiml: evaluating " << Name << " (" << File << ")\n";
    EvaluateOptions One = Options;
    One.Kernel = Name;
    auto C = evaluate(File, One, Format);
    if (!C)
      return C.takeError();
    if (*C != ExitOK)
      Rejected.push_back(Name);
    Code = worseExitCode(Code, *C);
  }
  Err << "clang-optiml: " << File << ": " << Names->size() << " kernels, "
      << Names->size() - Rejected.size()
      << (Options.BuildOnly ? " built" : " accepted");
  if (!Rejected.empty())
    Err << "; " << (Options.BuildOnly ? "not built: " : "rejected: ")
        << llvm::join(Rejected, ", ");
  Err << "\n";
  return Code;
}
