//===- KernelEditChecker.h - may this candidate be run? --------*- C++ -*-===//
//
// A candidate translation unit that did not come from a structured
// transform (a model's edit, a user's --candidate) is run inside OptiML's
// harness next to the original, so it may only change the kernel being
// optimized (and add `__device__` helpers): its signature, the file's
// macros and includes, host code, globals and `__constant__` data stay as
// they were, and it must not name the CUDA runtime or driver API, `main`,
// or the harness's reserved `optiml_` names. The checks are static; a
// build with nvcc is the caller's next step.
//
// A whole candidate file (`--evaluate --candidate`, the output of --apply
// or of a user's hand) is checked more loosely (EditScope::File): host code
// and other kernels may change, includes and the mark may change, but it
// may not add or change a macro or `#line`, name `main`, the harness's entry
// points or a CUDA runtime or driver API function that the original did
// not, add a conditional that tells Clang from nvcc's compilers
// (`#ifdef __clang__`: the checker would see other code than the build), or
// add or change anything that runs when the library is loaded (a host
// global's dynamic initializer, also a class's static member, a constructor
// function, an ifunc, file-scope assembly): the runner loads the candidate
// into its own process.
//
// In both scopes, a candidate may not call what ends, forks or replaces the
// process or starts a thread, nor launch a kernel from device code
// (HarnessEscapes.h).
//
// Names and directives are read from the changed text with the raw lexer
// before anything is parsed, so an edit that calls cudaLaunchKernel is
// refused for that and not for the parse error it also causes.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_REWRITE_KERNELEDITCHECKER_H
#define OPTIML_REWRITE_KERNELEDITCHECKER_H

#include "optiml/Rewrite/RawTokens.h"
#include "optiml/Rewrite/SourceParser.h"

#include "llvm/ADT/StringSet.h"

#include <memory>
#include <string>

namespace optiml {

/// What a candidate may change.
enum class EditScope {
  Kernel, ///< The kernel and new __device__ helpers only (a model's edit).
  File,   ///< Anything that does not run at load time (a whole candidate).
};

class KernelEditChecker {
public:
  /// Checks candidates of \p Original in which kernel \p Kernel (qualified
  /// name) is edited.
  KernelEditChecker(const SourceParser &Parser, ParsedSource &Original,
                    std::string Kernel, EditScope Scope = EditScope::Kernel)
      : Parser(Parser), Original(Original), Kernel(std::move(Kernel)),
        Scope(Scope) {}

  /// \p Candidate, parsed, when it passes every check; otherwise an Illegal
  /// error whose message is the first reason found, one line.
  llvm::Expected<std::unique_ptr<ParsedSource>>
  check(const KernelSource &Candidate) const;

private:
  llvm::Error checkChangedText(llvm::StringRef Candidate) const;
  llvm::Error checkName(llvm::StringRef Name,
                        const llvm::StringSet<> &OriginalNames) const;
  llvm::Expected<std::unique_ptr<ParsedSource>>
  parse(const KernelSource &Candidate) const;
  llvm::Error checkSignature(ParsedSource &Candidate) const;
  llvm::Error checkOutsideKernel(ParsedSource &Candidate) const;
  llvm::Error checkLoadTimeCode(ParsedSource &Candidate) const;
  bool isScopedDirective(const RawDirective &D) const;

  const SourceParser &Parser;
  ParsedSource &Original;
  std::string Kernel;
  EditScope Scope;
};

} // namespace optiml

#endif // OPTIML_REWRITE_KERNELEDITCHECKER_H
