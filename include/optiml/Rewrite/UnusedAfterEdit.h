//===- UnusedAfterEdit.h - locals a rewrite leaves unused -----*- C++ -*-===//
//
// A rewrite that replaces an expression (a read redirected to a shared
// tile) can leave the locals it used with no other use: nvcc warns about
// them, and a project that builds with -Werror no longer builds. The
// rewrite removes their declarations along with the expressions.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_REWRITE_UNUSEDAFTEREDIT_H
#define OPTIML_REWRITE_UNUSEDAFTEREDIT_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/ArrayRef.h"

#include <utility>
#include <vector>

namespace optiml {

/// The declarations of the locals that \p Replaced use and nothing else in
/// their function does, each a statement of its own that declares one
/// variable whose initializer has no side effects (so removing it changes
/// nothing else).
std::vector<const clang::DeclStmt *>
declarationsLeftUnused(llvm::ArrayRef<const clang::Expr *> Replaced,
                       clang::ASTContext &Ctx);

/// The main-file byte range [first, second) that removes \p Decl: its whole
/// line, indentation and line break included, when nothing else is on it.
std::pair<unsigned, unsigned> removalRange(const clang::DeclStmt &Decl,
                                           clang::ASTContext &Ctx);

} // namespace optiml

#endif // OPTIML_REWRITE_UNUSEDAFTEREDIT_H
