//===- BoundsGuard.h - are threads past the bound stopped? ------*- C++ -*-===//
//
// A different block size rounds the grid up differently, so some threads
// that did not exist before will run. That is harmless only when every
// global index is checked against the problem's bound before the kernel
// touches memory: an early `if (i >= n) return;`, an `if (i < n) { ... }`
// around the rest of the body, or a grid-stride loop `for (i = ...; i < n;
// ...)`.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_LEGALITY_BOUNDSGUARD_H
#define OPTIML_ANALYSIS_LEGALITY_BOUNDSGUARD_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Error.h"

namespace optiml {

class BoundsGuard {
public:
  /// Success when each of \p IndexVars is guarded before any statement of
  /// \p Kernel's body reads or writes memory; else an Illegal
  /// LegalityError naming the first unguarded statement or index.
  static llvm::Error check(const clang::FunctionDecl &Kernel,
                           llvm::ArrayRef<const clang::VarDecl *> IndexVars,
                           clang::ASTContext &Ctx);

  /// Whether \p S may read or write memory or call a function (reading the
  /// thread geometry does not count).
  static bool touchesMemory(const clang::Stmt *S);

private:
  using VarSet = llvm::SmallPtrSet<const clang::VarDecl *, 4>;

  BoundsGuard(llvm::ArrayRef<const clang::VarDecl *> IndexVars,
              clang::ASTContext &Ctx)
      : Pending(IndexVars.begin(), IndexVars.end()), Ctx(Ctx) {}

  llvm::Error walkBody(const clang::CompoundStmt &Body);
  bool earlyReturn(const clang::IfStmt &If);
  bool wrappingIf(const clang::IfStmt &If);
  bool gridStrideLoop(const clang::ForStmt &For);
  static llvm::Error checkUnchanged(const clang::FunctionDecl &Kernel,
                                    llvm::ArrayRef<const clang::VarDecl *> Vars,
                                    clang::ASTContext &Ctx);

  VarSet Pending; ///< Index variables not yet guarded.
  clang::ASTContext &Ctx;
};

/// Calls \p Leaf on each operand of a chain of \p Op (`a && b && c`),
/// parentheses and implicit casts aside.
void forEachLeaf(const clang::Expr *E, clang::BinaryOperatorKind Op,
                 llvm::function_ref<void(const clang::Expr *)> Leaf);

} // namespace optiml

#endif // OPTIML_ANALYSIS_LEGALITY_BOUNDSGUARD_H
