//===- GeneratedKernelChecker.h - checks of written kernels -*- C++ -*-===//
//
// Everything a model writes for --from-prompt is checked before it runs,
// with the checks the rest of the tool already trusts: the interface (the
// spec's mark and the kernel's declaration) is parsed by Clang and its spec
// checked by the spec checker (roles, lengths, launch, every instance);
// each kernel is put into that interface as a free-form edit
// (ProposalValidator: KernelEdit, KernelEditChecker with HarnessEscapes, an
// nvcc build) under its own launch, which the spec checker judges too. A
// refusal is an error whose one-line message is fit to show the model.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DRIVER_GENERATEDKERNELCHECKER_H
#define OPTIML_DRIVER_GENERATEDKERNELCHECKER_H

#include "optiml/IR/KernelInfo.h"
#include "optiml/IR/KernelSource.h"
#include "optiml/LLM/FromPromptAnswer.h"
#include "optiml/LLM/ProposalValidator.h"
#include "optiml/Rewrite/SourceParser.h"
#include "optiml/Spec/KernelSpec.h"

namespace optiml {

/// A file that passed the checks, with what evaluating it needs.
struct CheckedKernel {
  KernelSource Source;
  KernelInfo Kernel;
  KernelSpec Spec;
  std::string Launch; ///< Its grid(...) block(...) [shmem(...)].
};

class GeneratedKernelChecker {
public:
  GeneratedKernelChecker(const SourceParser &Parser,
                         const ProposalValidator &Validator)
      : Parser(Parser), Validator(Validator) {}

  /// The interface \p Code as the file \p Path: one kernel, named \p Name
  /// unless that is empty, with a mark whose spec checks.
  llvm::Expected<CheckedKernel> interface(llvm::StringRef Code,
                                          llvm::StringRef Path,
                                          llvm::StringRef Name) const;
  /// \p Answer's kernel in \p Interface as the file \p Path, launched as
  /// it says: the edit checks, the spec and an nvcc build.
  llvm::Expected<CheckedKernel> kernel(const CheckedKernel &Interface,
                                       const KernelAnswer &Answer,
                                       llvm::StringRef Path) const;

private:
  /// \p Keep, when set, receives the parse (for the edit that follows).
  llvm::Expected<CheckedKernel>
  checkInterface(KernelSource Source, llvm::StringRef Name,
                 std::unique_ptr<ParsedSource> *Keep = nullptr) const;

  const SourceParser &Parser;
  const ProposalValidator &Validator;
};

} // namespace optiml

#endif // OPTIML_DRIVER_GENERATEDKERNELCHECKER_H
