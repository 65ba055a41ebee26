//===- GeneratedKernelChecker.cpp - static checks of written kernels -----===//

#include "driver/FromPrompt/GeneratedKernelChecker.h"
#include "optiml/Analysis/KernelFinder.h"
#include "optiml/Spec/LaunchClauses.h"
#include "optiml/Support/Error.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

using namespace optiml;

/// Every generated file starts so; the model is told not to include
/// anything, and the edit checks refuse an include it adds to a kernel.
static const char Header[] = "#include <cuda_runtime.h>\n\n";

static llvm::Error refused(const llvm::Twine &Why) {
  return makeError(ErrorKind::BadInput, Why);
}

llvm::Expected<CheckedKernel> GeneratedKernelChecker::checkInterface(
    KernelSource Source, llvm::StringRef Name,
    std::unique_ptr<ParsedSource> *Keep) const {
  auto Parsed = Parser.parseQuietly(Source, ErrorKind::BadInput);
  if (!Parsed)
    return refused("it does not parse: " + llvm::toString(Parsed.takeError()));
  KernelInventory Inv = KernelFinder::find((*Parsed)->context());
  if (Inv.Kernels.size() != 1)
    return refused("it defines " + llvm::Twine(Inv.Kernels.size()) +
                   " __global__ functions; expected exactly one");
  KernelInfo &K = Inv.Kernels.front();
  if (!Name.empty() && K.QualifiedName != Name)
    return refused("the kernel is named '" + K.QualifiedName + "'; expected '" +
                   Name + "'");
  if (!K.Mark)
    return refused("no '#pragma optiml kernel ...' line precedes the kernel");
  auto Spec = loadKernelSpec(K, Source.path(), "");
  if (!Spec) {
    // The model sees the file's name, not where this run writes it.
    std::string Why = llvm::toString(Spec.takeError());
    llvm::StringRef Dir = llvm::sys::path::parent_path(Source.path());
    if (llvm::StringRef(Why).starts_with(Dir))
      Why = Why.substr(Dir.size() + 1);
    return refused("its spec is wrong: " + Why);
  }
  K.Specialization = Spec->specialization();
  K.Companions = Spec->Companions;
  std::string Launch = launchOf(K.Mark->Clauses);
  if (Keep)
    *Keep = std::move(*Parsed);
  return CheckedKernel{std::move(Source), std::move(K), std::move(*Spec),
                       std::move(Launch)};
}

llvm::Expected<CheckedKernel>
GeneratedKernelChecker::interface(llvm::StringRef Code, llvm::StringRef Path,
                                  llvm::StringRef Name) const {
  return checkInterface(KernelSource(Path.str(), Header + Code.str()), Name);
}

llvm::Expected<CheckedKernel>
GeneratedKernelChecker::kernel(const CheckedKernel &Interface,
                               const KernelAnswer &Answer,
                               llvm::StringRef Path) const {
  const KernelMark &Mark = *Interface.Kernel.Mark;
  std::string Clauses = Mark.Clauses;
  if (!Answer.Launch.empty()) {
    auto C = withLaunch(Mark.Clauses, Answer.Launch);
    if (!C)
      return refused("its launch is wrong: " + llvm::toString(C.takeError()));
    Clauses = std::move(*C);
  }
  std::unique_ptr<ParsedSource> Parsed;
  auto Shell = checkInterface(
      KernelSource(Path.str(), withMarkClauses(Interface.Source.text(),
                                               Mark.Pos.Line, Clauses)),
      Interface.Kernel.QualifiedName, &Parsed);
  if (!Shell)
    return Shell.takeError();
  RawProposal Edit;
  Edit.Kind = ProposalKind::Edit;
  Edit.Code = Answer.Code;
  Proposal P = Validator.validate(Edit, *Parsed, Shell->Kernel.QualifiedName);
  if (!P.Accepted)
    return refused(P.Reason);
  Shell->Source = std::move(*P.Result);
  return Shell;
}
