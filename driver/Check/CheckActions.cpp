//===- CheckActions.cpp - --check and --list-kernels ---------------------===//
//
// A user fixing marks wants every error in one run, with its position, and
// wants it before anything is built: --check loads the spec of each kernel
// of the file (its mark, its sidecar entry) the way --evaluate would, and
// the listings show the same errors as warnings.
//
//===----------------------------------------------------------------------===//

#include "driver/Check/CheckActions.h"
#include "driver/Check/KernelListing.h"
#include "driver/Session/SpecCheck.h"
#include "optiml/Support/ErrorMessages.h"
#include "optiml/Support/JsonText.h"

#include <nlohmann/json.hpp>

using namespace optiml;

static std::string verdict(const KernelCheck &C) {
  if (!C.HasSpec)
    return "no spec (not measured; mark it with #pragma optiml kernel)";
  if (!C.Errors.empty())
    return std::to_string(C.Errors.size()) + " error" +
           (C.Errors.size() == 1 ? "" : "s");
  return "ok (" + std::to_string(C.Instances + 1) + " instance" +
         (C.Instances == 0 ? "" : "s") + ")";
}

static nlohmann::json checkJSON(const KernelCheck &C) {
  return {{"kernel", C.Kernel->QualifiedName},
          {"spec", !C.HasSpec         ? "none"
                   : C.Errors.empty() ? "ok"
                                      : "error"},
          {"errors", C.Errors}};
}

llvm::Expected<unsigned> CheckActions::check(llvm::StringRef File,
                                             llvm::StringRef Kernel,
                                             llvm::StringRef SpecPath,
                                             OutputFormat Format) {
  auto Inv = inventoryOf(File);
  if (!Inv)
    return Inv.takeError();
  auto Selected = select(*Inv, Kernel);
  if (!Selected)
    return Selected.takeError();
  unsigned Errors = 0;
  nlohmann::json Kernels = nlohmann::json::array();
  for (const KernelInfo *K : *Selected) {
    KernelCheck C = checkKernelSpec(*K, File, SpecPath);
    // A kernel named on the command line is one the user means to measure.
    if (!C.HasSpec && !Kernel.empty())
      C.Errors = messagesOf(loadKernelSpec(*K, File, SpecPath).takeError());
    for (const std::string &E : C.Errors)
      Err << E << "\n";
    Errors += C.Errors.size();
    if (Format == OutputFormat::JSON)
      Kernels.push_back(checkJSON(C));
    else
      Out << File << ": " << K->QualifiedName << ": " << verdict(C) << "\n";
  }
  if (Format == OutputFormat::JSON)
    Out << jsonText(nlohmann::json{{"file", Inv->File},
                                   {"kernels", Kernels},
                                   {"errors", Errors},
                                   {"warnings", Inv->Warnings}},
                    -1)
        << "\n";
  return Errors;
}

llvm::Error CheckActions::listKernels(llvm::StringRef File,
                                      llvm::StringRef Kernel,
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
