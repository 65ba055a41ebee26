//===- CheckAction.cpp - --check: every spec of a file at once -----------===//
//
// A user fixing marks wants every error in one run, with its position, and
// wants it before anything is built: --check loads the spec of each kernel
// of the file (its mark, its sidecar entry) the way --evaluate would, and
// the listings show the same errors as warnings.
//
//===----------------------------------------------------------------------===//

#include "optiml/Driver/Driver.h"
#include "optiml/Support/ErrorMessages.h"
#include "optiml/Support/JsonText.h"

#include <nlohmann/json.hpp>

using namespace optiml;

namespace {
/// What --check found for one kernel.
struct KernelCheck {
  const KernelInfo *Kernel;
  bool HasSpec = false;
  size_t Instances = 0; ///< Besides the default one.
  std::vector<std::string> Errors;
};
} // namespace

static KernelCheck checkKernel(const KernelInfo &K, llvm::StringRef File,
                               llvm::StringRef SpecPath) {
  KernelCheck C{&K, false, 0, {}};
  auto Spec = findKernelSpec(K, File, SpecPath);
  if (!Spec) {
    C.HasSpec = true;
    C.Errors = messagesOf(Spec.takeError());
  } else if (*Spec) {
    C.HasSpec = true;
    C.Instances = (*Spec)->Instances.size();
  }
  return C;
}

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

llvm::Expected<unsigned> Driver::check(llvm::StringRef File,
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
    KernelCheck C = checkKernel(*K, File, SpecPath);
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

std::vector<std::string>
Driver::specWarnings(const std::vector<const KernelInfo *> &Kernels,
                     llvm::StringRef File) {
  std::vector<std::string> Warnings;
  for (const KernelInfo *K : Kernels)
    for (std::string &E : checkKernel(*K, File, "").Errors) {
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
