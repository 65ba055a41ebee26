//===- StmtSurround.h - lines around one statement ------------*- C++ -*-===//
//
// Several rewrites put code right around a loop: declarations computed once
// before it (hoist), a register loaded before it and stored after it
// (scalar-replace). The inserted lines take the statement's indentation; a
// loop pragma stays right above its loop; and when the statement is not
// directly in a `{ ... }` block (`if (c) for (...)`), or the new code must
// run only under a condition, everything becomes one braced statement.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_REWRITE_STMTSURROUND_H
#define OPTIML_REWRITE_STMTSURROUND_H

#include "optiml/Rewrite/EditSet.h"

#include "clang/AST/ASTContext.h"

#include <string>

namespace optiml {

/// Whether \p S sits directly in a `{ ... }` block (possibly under a loop
/// pragma), so that lines can go right above and below it.
bool isInBlock(const clang::Stmt &S, clang::ASTContext &Ctx);

/// Inserts \p Before above \p S and \p After below it. With a non-empty
/// \p Guard the three become `if (Guard) { ... }`. NotApplicable when a
/// loop pragma above \p S shares its line with other code.
llvm::Error surroundStmt(const clang::Stmt &S,
                         llvm::ArrayRef<std::string> Before,
                         llvm::ArrayRef<std::string> After,
                         llvm::StringRef Guard, EditSet &Edits,
                         clang::ASTContext &Ctx);

} // namespace optiml

#endif // OPTIML_REWRITE_STMTSURROUND_H
