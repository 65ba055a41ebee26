//===- Driver.cpp - what every action of clang-optiml shares -------------===//

#include "driver/Session/Driver.h"
#include "driver/Session/SpecCheck.h"
#include "optiml/Analysis/KernelFinder.h"
#include "optiml/Frontend/ParsedTU.h"
#include "optiml/Rewrite/SourceParser.h"
#include "optiml/Support/Error.h"

#include "llvm/ADT/StringExtras.h"

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

llvm::Expected<Database> optiml::openDatabaseAt(llvm::StringRef Path) {
  if (!Path.empty())
    return Database::open(Path);
  auto Default = Database::defaultPath();
  if (!Default)
    return Default.takeError();
  return Database::open(*Default);
}

std::vector<std::string>
Driver::specWarnings(const std::vector<const KernelInfo *> &Kernels,
                     llvm::StringRef File) {
  std::vector<std::string> Warnings;
  for (const KernelInfo *K : Kernels)
    for (std::string &E : checkKernelSpec(*K, File, "").Errors) {
      size_t At = E.find(": error: ");
      if (At != std::string::npos)
        E.replace(At, 9, ": warning: ");
      Err << E << " (the kernel cannot be measured until it is fixed)\n";
      Warnings.push_back(std::move(E));
    }
  return Warnings;
}

llvm::Expected<std::vector<std::string>>
Driver::specifiedKernels(llvm::StringRef File, llvm::StringRef SpecPath) {
  auto Inv = inventoryOf(File);
  if (!Inv)
    return Inv.takeError();
  std::vector<std::string> Names;
  for (const KernelInfo &K : Inv->Kernels) {
    // The first error, and how many more (summarize()): --check has them.
    auto Spec = findKernelSpec(K, File, SpecPath);
    if (!Spec)
      return Spec.takeError();
    if (*Spec)
      Names.push_back(K.QualifiedName);
  }
  return Names;
}

llvm::Expected<std::vector<std::string>>
Driver::kernelsToRun(llvm::StringRef File, llvm::StringRef Kernel,
                     llvm::StringRef SpecPath) {
  if (!Kernel.empty())
    return std::vector<std::string>();
  auto Names = specifiedKernels(File, SpecPath);
  if (!Names)
    return Names.takeError();
  if (Names->size() < 2)
    Names->clear();
  return Names;
}
