//===- Indentation.h - lay out inserted lines -------------------*- C++ -*-===//
//
// Pragmas must stand on a line of their own; these edits put one right
// above a bound statement with the statement's indentation, and move a
// statement that shares its line with other code (`if (c) for (...)`) onto
// a new, indented line first.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_REWRITE_INDENTATION_H
#define OPTIML_REWRITE_INDENTATION_H

#include "clang/Tooling/Transformer/RewriteRule.h"

#include <string>

namespace optiml {

/// The main-file offset where \p Loc (its expansion) was written.
unsigned offsetOf(clang::SourceLocation Loc, const clang::SourceManager &SM);
inline unsigned offsetOf(clang::SourceLocation Loc,
                         const clang::ASTContext &Ctx) {
  return offsetOf(Loc, Ctx.getSourceManager());
}

/// The offset where the line holding \p Offset starts; \p Indent gets the
/// line's leading blanks.
unsigned lineStartOf(llvm::StringRef Buffer, unsigned Offset,
                     llvm::StringRef &Indent);

/// The blanks that start the line holding \p Loc (its expansion).
std::string lineIndentOf(clang::SourceLocation Loc,
                         const clang::ASTContext &Ctx);

/// An edit that inserts \p Line on its own line above the node bound as
/// \p NodeID.
clang::transformer::ASTEdit insertLineAbove(std::string NodeID,
                                            std::string Line);

} // namespace optiml

#endif // OPTIML_REWRITE_INDENTATION_H
