//===- LegalityError.cpp - why a transform may not run at a site ---------===//

#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/SourceText.h"

using namespace optiml;

char LegalityError::ID = 0;

static std::string withPosition(const SourcePos &Where,
                                const std::string &Reason) {
  if (Where.File.empty())
    return Reason;
  return Where.str() + ": " + Reason;
}

LegalityError::LegalityError(ErrorKind Kind, SourcePos Where,
                             std::string Reason)
    : ErrorInfo(Kind, withPosition(Where, Reason)), Where(std::move(Where)),
      Reason(std::move(Reason)) {}

static llvm::Error make(ErrorKind Kind, clang::SourceLocation Loc,
                        const clang::ASTContext &Ctx,
                        const llvm::Twine &Reason) {
  SourcePos Where;
  if (Loc.isValid())
    Where = positionOf(Loc, Ctx.getSourceManager());
  return llvm::make_error<LegalityError>(Kind, std::move(Where), Reason.str());
}

llvm::Error optiml::illegalAt(clang::SourceLocation Loc,
                              const clang::ASTContext &Ctx,
                              const llvm::Twine &Reason) {
  return make(ErrorKind::Illegal, Loc, Ctx, Reason);
}

llvm::Error optiml::notApplicableAt(clang::SourceLocation Loc,
                                    const clang::ASTContext &Ctx,
                                    const llvm::Twine &Reason) {
  return make(ErrorKind::NotApplicable, Loc, Ctx, Reason);
}
