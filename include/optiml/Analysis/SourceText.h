//===- SourceText.h - positions and text of AST nodes ---------*- C++ -*-===//
//
// Small helpers that turn Clang locations into what users read: positions
// where the code was written (the expansion of a macro, not its definition)
// and the source text of a node.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_SOURCETEXT_H
#define OPTIML_ANALYSIS_SOURCETEXT_H

#include "optiml/IR/KernelInfo.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"

namespace optiml {

/// The file, line and column where \p Loc was written.
SourcePos positionOf(clang::SourceLocation Loc, const clang::SourceManager &SM);

/// The source text of \p Range as written, whitespace runs collapsed to one
/// space; empty when the range cannot be mapped to a file.
std::string textOf(clang::SourceRange Range, const clang::ASTContext &Ctx);

/// The text of a half-open character range [Begin, End).
std::string textBetween(clang::SourceLocation Begin, clang::SourceLocation End,
                        const clang::ASTContext &Ctx);

} // namespace optiml

#endif // OPTIML_ANALYSIS_SOURCETEXT_H
