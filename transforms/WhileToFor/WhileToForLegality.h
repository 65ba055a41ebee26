//===- WhileToForLegality.h - is a while-loop a for-loop? ------*- C++ -*-===//
//
// `while (C) { S...; i += s; }` runs exactly as `for (; C; i += s) { S...
// }` when no `continue` of the loop skips the last statement (a for-loop
// would step i there, the while-loop does not). Loop transforms read
// for-loops only, so the rewrite opens them to grid-stride while-loops
// (`while (tid < n) { ...; tid += blockDim.x * gridDim.x; }`).
//
// The counter's declaration moves into the for-init when that changes
// nothing: it is declared with a value in the loop's block, before the
// loop, is not used between there and the loop nor after the loop, and its
// value reads only what is fixed for a thread (isFixedForThread).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_WHILETOFOR_WHILETOFORLEGALITY_H
#define OPTIML_TRANSFORMS_WHILETOFOR_WHILETOFORLEGALITY_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "llvm/Support/Error.h"

namespace optiml {

/// A while-loop that can be written as a for-loop.
struct WhileToForPlan {
  const clang::WhileStmt *Loop = nullptr;
  const clang::VarDecl *Counter = nullptr;
  /// The body's last statement, which becomes the for-increment.
  const clang::Expr *Step = nullptr;
  /// The counter's declaration, to move into the for-init; null to leave
  /// the init empty.
  const clang::DeclStmt *Declaration = nullptr;
};

class WhileToForLegality {
public:
  /// The plan for \p Loop (site \p Site of \p Kernel), or why not:
  /// NotApplicable when it is no counted while-loop, Illegal when a
  /// `continue` would make the two loops differ.
  static llvm::Expected<WhileToForPlan> check(const clang::Stmt &Loop,
                                              llvm::StringRef Site,
                                              const clang::FunctionDecl &Kernel,
                                              clang::ASTContext &Ctx);

private:
  static const clang::DeclStmt *
  movableDeclaration(const WhileToForPlan &P, const clang::FunctionDecl &Kernel,
                     clang::ASTContext &Ctx);
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_WHILETOFOR_WHILETOFORLEGALITY_H
