//===- LegalityError.h - why a transform may not run at a site -*- C++ -*-===//
//
// A refusal is a value the search prunes with and a user reads, so it
// carries the reason on its own (for listings) and the place in the source
// that causes it (for clang-style diagnostics), apart from each other.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_LEGALITY_LEGALITYERROR_H
#define OPTIML_ANALYSIS_LEGALITY_LEGALITYERROR_H

#include "optiml/IR/KernelInfo.h"
#include "optiml/Support/Error.h"

#include "clang/AST/ASTContext.h"

namespace optiml {

/// An OptimlError of kind Illegal or NotApplicable with the position that
/// decided it; its message() is "file:line:col: reason".
class LegalityError : public llvm::ErrorInfo<LegalityError, OptimlError> {
public:
  static char ID;

  LegalityError(ErrorKind Kind, SourcePos Where, std::string Reason);

  const SourcePos &where() const { return Where; }
  const std::string &reason() const { return Reason; }

private:
  SourcePos Where;
  std::string Reason;
};

/// The transform would change the kernel's meaning at \p Loc.
llvm::Error illegalAt(clang::SourceLocation Loc, const clang::ASTContext &Ctx,
                      const llvm::Twine &Reason);

/// The transform has nothing to act on at \p Loc.
llvm::Error notApplicableAt(clang::SourceLocation Loc,
                            const clang::ASTContext &Ctx,
                            const llvm::Twine &Reason);

} // namespace optiml

#endif // OPTIML_ANALYSIS_LEGALITY_LEGALITYERROR_H
