//===- ReturnFoldText.h - early returns turned into guards, as text -*- C++
//-*-===//
//
// A rewrite that adds barriers cannot leave threads that returned early
// out of them: foldEarlyReturns (GuardTerms) says which top-level
// `if (C) return;` to remove and which statements after them to put under
// `if (!(C)) `; these write it into an EditSet, with the file offsets they
// need.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_REWRITE_RETURNFOLDTEXT_H
#define OPTIML_REWRITE_RETURNFOLDTEXT_H

#include "optiml/Analysis/Legality/GuardTerms.h"
#include "optiml/Rewrite/EditSet.h"

#include "clang/AST/ASTContext.h"

namespace optiml {

/// The offset just past \p S; past a `;` that follows it when \p WithSemi.
unsigned endOffsetOf(const clang::Stmt &S, bool WithSemi,
                     const clang::ASTContext &Ctx);

/// Where text goes to come before \p S on its own line: its first token,
/// or for a statement under `#pragma unroll` the pragma's `#`.
unsigned insertionOffsetOf(const clang::Stmt &S, const clang::ASTContext &Ctx);

/// Puts \p S under `if (Live) ` (a statement under a pragma gets a block,
/// since the pragma must start its line).
llvm::Error guardStatement(const clang::Stmt &S, llvm::StringRef Live,
                           EditSet &Edits, const clang::ASTContext &Ctx);

/// `T v = init;` becomes `T v = (Live) ? init : zero;`.
llvm::Error guardDeclaration(const GuardedDeclaration &D, EditSet &Edits,
                             const clang::ASTContext &Ctx);

/// Deletes the lines of the folded returns and puts `if (Live) ` before
/// each guarded statement.
llvm::Error writeReturnFold(const ReturnFold &Fold, EditSet &Edits,
                            const clang::ASTContext &Ctx);

} // namespace optiml

#endif // OPTIML_REWRITE_RETURNFOLDTEXT_H
