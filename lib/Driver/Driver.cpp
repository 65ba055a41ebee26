//===- Driver.cpp - the actions of clang-optiml --------------------------===//

#include "optiml/Driver/Driver.h"
#include "optiml/Analysis/KernelFinder.h"
#include "optiml/Driver/EvaluationReport.h"
#include "optiml/Driver/KernelListing.h"
#include "optiml/Eval/Evaluator.h"
#include "optiml/Eval/GpuProbe.h"
#include "optiml/Frontend/ParsedTU.h"
#include "optiml/Rewrite/KernelEditChecker.h"
#include "optiml/Rewrite/SourceParser.h"
#include "optiml/Support/Error.h"
#include "optiml/Support/JsonText.h"
#include "optiml/Support/OutputPath.h"

#include "llvm/ADT/StringExtras.h"

#include <nlohmann/json.hpp>

using namespace optiml;

llvm::Expected<KernelInventory> Driver::inventoryOf(llvm::StringRef File) {
  auto TU = ParsedTU::parse(DB, File, Toolchain);
  if (!TU)
    return TU.takeError();
  KernelInventory Inv = KernelFinder::find((*TU)->context());
  for (const std::string &W : Inv.Warnings)
    Err << W << "\n";
  if (Inv.Kernels.empty())
    return makeError(ErrorKind::BadInput,
                     File + ": no __global__ function is defined in this file");
  return Inv;
}

/// The kernels of \p Source parsed from its text rather than its file (a
/// file whose earlier kernels a search already rewrote).
llvm::Expected<KernelInventory>
Driver::inventoryOfText(const KernelSource &Source) {
  auto Parsed = SourceParser(DB, Toolchain).parse(Source);
  if (!Parsed)
    return Parsed.takeError();
  return KernelFinder::find((*Parsed)->context());
}

llvm::Expected<std::vector<const KernelInfo *>>
Driver::select(const KernelInventory &Inv, llvm::StringRef Kernel) {
  std::vector<const KernelInfo *> Selected;
  if (Kernel.empty()) {
    for (const KernelInfo &K : Inv.Kernels)
      Selected.push_back(&K);
    return Selected;
  }
  if (const KernelInfo *K = Inv.find(Kernel.str())) {
    Selected.push_back(K);
    return Selected;
  }
  std::vector<std::string> Names;
  for (const KernelInfo &K : Inv.Kernels)
    Names.push_back(K.QualifiedName);
  return makeError(ErrorKind::BadInput,
                   "no kernel named '" + Kernel + "' in " + Inv.File +
                       " (kernels: " + llvm::join(Names, ", ") + ")");
}

llvm::Error Driver::listKernels(llvm::StringRef File, llvm::StringRef Kernel,
                                OutputFormat Format) {
  auto Inv = inventoryOf(File);
  if (!Inv)
    return Inv.takeError();
  auto Selected = select(*Inv, Kernel);
  if (!Selected)
    return Selected.takeError();
  for (std::string &W : specWarnings(*Selected, File))
    Inv->Warnings.push_back(std::move(W));
  if (Format == OutputFormat::Text) {
    printKernelListing(*Inv, *Selected, Out);
    return llvm::Error::success();
  }
  nlohmann::json Kernels = nlohmann::json::array();
  for (const KernelInfo *K : *Selected)
    Kernels.push_back(toJSON(*K));
  nlohmann::json J = {
      {"file", Inv->File}, {"kernels", Kernels}, {"warnings", Inv->Warnings}};
  Out << jsonText(J) << "\n";
  return llvm::Error::success();
}

llvm::Expected<const KernelInfo *> Driver::selectOne(const KernelInventory &Inv,
                                                     llvm::StringRef Kernel) {
  if (Kernel.empty() && Inv.Kernels.size() > 1)
    return makeError(ErrorKind::BadInput,
                     Inv.File + " defines " + llvm::Twine(Inv.Kernels.size()) +
                         " kernels; choose one with --kernel=NAME");
  auto Selected = select(Inv, Kernel);
  if (!Selected)
    return Selected.takeError();
  return Selected->front();
}

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

llvm::Expected<Driver::Target> Driver::loadTarget(llvm::StringRef File,
                                                  llvm::StringRef Kernel,
                                                  llvm::StringRef SpecPath,
                                                  llvm::StringRef StartText) {
  auto Source = StartText.empty() ? KernelSource::fromFile(File)
                                  : llvm::Expected<KernelSource>(KernelSource(
                                        File.str(), StartText.str()));
  if (!Source)
    return Source.takeError();
  auto Inv = StartText.empty() ? inventoryOf(File) : inventoryOfText(*Source);
  if (!Inv)
    return Inv.takeError();
  auto Chosen = selectOne(*Inv, Kernel);
  if (!Chosen)
    return Chosen.takeError();
  size_t Index = *Chosen - Inv->Kernels.data();
  auto Spec = loadKernelSpec(**Chosen, File, SpecPath);
  if (!Spec)
    return Spec.takeError();
  // A template kernel is built and launched with its spec's arguments.
  Inv->Kernels[Index].Specialization = Spec->specialization();
  // And with the other kernels its sequence launches exported.
  Inv->Kernels[Index].Companions = Spec->Companions;
  return Target{std::move(*Inv), Index, std::move(*Spec), std::move(*Source)};
}

/// The runner loads the candidate into its own process: refuse, before
/// building, a file that shadows the harness's or CUDA's names, adds macros
/// or runs code when it is loaded.
llvm::Error Driver::checkCandidateFile(const KernelSource &Original,
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
  return makeError(Why.Kind, Candidate.path() + ": the candidate is refused: " +
                                 Why.Message);
}

llvm::Expected<int> Driver::evaluate(llvm::StringRef File,
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
