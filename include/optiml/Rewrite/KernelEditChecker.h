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
// Names and directives are read from the changed text with the raw lexer
// before anything is parsed, so an edit that calls cudaLaunchKernel is
// refused for that and not for the parse error it also causes.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_REWRITE_KERNELEDITCHECKER_H
#define OPTIML_REWRITE_KERNELEDITCHECKER_H

#include "optiml/Rewrite/SourceParser.h"

#include "llvm/ADT/StringSet.h"

#include <memory>
#include <string>

namespace optiml {

class KernelEditChecker {
public:
  /// Checks candidates of \p Original in which kernel \p Kernel (qualified
  /// name) is edited.
  KernelEditChecker(const SourceParser &Parser, ParsedSource &Original,
                    std::string Kernel)
      : Parser(Parser), Original(Original), Kernel(std::move(Kernel)) {}

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

  const SourceParser &Parser;
  ParsedSource &Original;
  std::string Kernel;
};

} // namespace optiml

#endif // OPTIML_REWRITE_KERNELEDITCHECKER_H
