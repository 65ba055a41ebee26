//===- VarUses.h - how a variable is used in a function -------*- C++ -*-===//
//
// Rewrites that read a variable's initializer (a launch's `dim3 grid(...)`)
// are only sound when nothing changes the variable afterwards; these
// helpers tell reads from everything else, conservatively.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_LEGALITY_VARUSES_H
#define OPTIML_ANALYSIS_LEGALITY_VARUSES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMapContext.h"

#include <utility>
#include <vector>

namespace optiml {

/// The variable \p E names, through parentheses and implicit casts (`n`
/// read as a value); null for any other expression, or a null \p E.
const clang::VarDecl *referencedVar(const clang::Expr *E);

/// Every reference to \p Var inside \p Scope, in source order.
std::vector<const clang::DeclRefExpr *> usesOf(const clang::VarDecl &Var,
                                               const clang::Stmt &Scope,
                                               clang::ASTContext &Ctx);

/// True when \p Ref only reads the variable's value (or a member of it):
/// not an assignment target, not an increment, not its address, not bound
/// to a non-const reference.
bool isPureRead(const clang::DeclRefExpr &Ref, clang::ASTContext &Ctx);

/// Whether no statement of \p F changes \p Var: every reference to it in
/// \p F's body is a pure read.
bool isNeverChanged(const clang::VarDecl &Var, const clang::FunctionDecl &F,
                    clang::ASTContext &Ctx);

/// Whether \p Loc lies inside the source of \p S (null: no).
bool spans(const clang::Stmt *S, clang::SourceLocation Loc,
           const clang::SourceManager &SM);

/// The function whose body holds \p S, or null at namespace scope.
const clang::FunctionDecl *enclosingFunction(const clang::Stmt &S,
                                             clang::ASTContext &Ctx);

/// The statements around \p S, innermost first, through the function body
/// holding it and beyond (a lambda's body leads on to its kernel's);
/// declarations between them are skipped.
std::vector<const clang::Stmt *> enclosingStmts(const clang::Stmt &S,
                                                clang::ASTContext &Ctx);

/// The single parent of \p S (parents of nodes in function bodies are
/// unique), or a null node.
clang::DynTypedNode parentOf(const clang::DynTypedNode &Node,
                             clang::ASTContext &Ctx);

/// The first ancestor of \p E that uses it as something other than the same
/// lvalue: parentheses and `.member` selections (and, with
/// \p ThroughConstCasts, const-adding no-op casts) are looked through. The
/// second member is the child of that ancestor that leads to \p E.
std::pair<clang::DynTypedNode, const clang::Expr *>
lvalueUser(const clang::Expr &E, clang::ASTContext &Ctx,
           bool ThroughConstCasts);

/// Whether \p E stands as a statement of its own, its value unused (a
/// call made for its effect: `atomicAdd(p, v);`).
bool isDiscardedValue(const clang::Expr &E, clang::ASTContext &Ctx);

/// \p E without parentheses and casts between arithmetic types, written
/// or not (`(unsigned)ceil((float)n / 16)`); with \p IntegersOnly, only
/// casts from one integer type to another (`(size_t)blockIdx.x`).
const clang::Expr *withoutValueCasts(const clang::Expr *E,
                                     bool IntegersOnly = false);

/// What is done with an lvalue where it stands (through parentheses).
enum class LvalueUse {
  Read,      ///< Its value is taken.
  Write,     ///< It is the target of `=`.
  ReadWrite, ///< A compound assignment, increment or decrement.
  Escapes    ///< Its address is taken, it is bound to a reference, ...
};
LvalueUse lvalueUseOf(const clang::Expr &E, clang::ASTContext &Ctx);

} // namespace optiml

#endif // OPTIML_ANALYSIS_LEGALITY_VARUSES_H
