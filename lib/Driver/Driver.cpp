//===- Driver.cpp - the actions of clang-optiml --------------------------===//

#include "optiml/Driver/Driver.h"
#include "optiml/Analysis/KernelFinder.h"
#include "optiml/Driver/KernelListing.h"
#include "optiml/Frontend/ParsedTU.h"
#include "optiml/Support/Error.h"

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
  if (Format == OutputFormat::Text) {
    printKernelListing(*Inv, *Selected, Out);
    return llvm::Error::success();
  }
  nlohmann::json Kernels = nlohmann::json::array();
  for (const KernelInfo *K : *Selected)
    Kernels.push_back(toJSON(*K));
  nlohmann::json J = {
      {"file", Inv->File}, {"kernels", Kernels}, {"warnings", Inv->Warnings}};
  Out << J.dump(2) << "\n";
  return llvm::Error::success();
}
