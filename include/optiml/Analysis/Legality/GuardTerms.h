//===- GuardTerms.h - what is known true where a statement runs -*- C++ -*-===//
//
// Bounds guards are how kernels keep threads past the problem's edge away
// from memory: `if (row >= m || col >= n) return;` or `if (i < n) {...}`.
// A rewrite that makes threads load on behalf of others (staging) needs
// those guards as separate conditions, to keep the ones about the index it
// loads. This collects them, split into conjuncts, for one statement.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_LEGALITY_GUARDTERMS_H
#define OPTIML_ANALYSIS_LEGALITY_GUARDTERMS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace optiml {

/// One conjunct: \p Cond, or its negation.
struct GuardTerm {
  const clang::Expr *Cond = nullptr;
  bool Negated = false;

  /// C++ text of the term, "(row < m)" or "!(row >= m)".
  std::string str(const clang::ASTContext &Ctx) const;
};

/// A kernel's top-level `if (COND) return;` statements.
std::vector<const clang::IfStmt *>
earlyReturns(const clang::FunctionDecl &Kernel);

/// A kernel's top-level if-statements without else whose branch ends in
/// `return;`: `if (C) return;` and `if (C) { out[i] = in[i]; return; }`.
/// After one, C is false.
std::vector<const clang::IfStmt *>
exitingIfs(const clang::FunctionDecl &Kernel);

/// Splits \p Cond (negated when \p Negated) into conjuncts: `a && b`, and
/// `!(a || b)` as `!a`, `!b`.
void splitConjuncts(const clang::Expr *Cond, bool Negated,
                    std::vector<GuardTerm> &Out);

/// The conditions that hold when \p S runs: the kernel's exiting ifs
/// before it (negated) and the if-statements around it, up to \p Kernel's
/// body.
std::vector<GuardTerm> guardTermsAt(const clang::Stmt &S,
                                    const clang::FunctionDecl &Kernel,
                                    clang::ASTContext &Ctx);

/// Early returns that a rewrite adding barriers turns into guards: every
/// thread must reach the barriers, so `if (C) return;` before \p Anchor is
/// dropped and the statements after it run under Live = `!(C)`.
/// A local `T v = init;` whose initializer reads memory (or calls), run
/// where a guard may fail: it becomes `T v = (Live) ? init : Zero;`.
struct GuardedDeclaration {
  const clang::VarDecl *Var = nullptr;
  std::string Live;
  std::string Zero;
};

/// The value \p V takes where its guard fails, so that its declaration
/// reads no memory there: "0" for a scalar or pointer, "T()" for a record
/// (a float3, a struct of scalars) that is trivially default-constructible;
/// nothing for other declarations (arrays, references, `auto`, braces or
/// constructor syntax), which cannot be guarded.
std::optional<std::string> guardedZero(const clang::VarDecl &V,
                                       const clang::ASTContext &Ctx);

/// Adds to \p Out the declarations of \p Decls whose initializers read
/// memory (or call), each to take its value where \p Live holds; an
/// Illegal LegalityError for one that cannot (guardedZero), which says it
/// stands \p Where ("under the guard").
llvm::Error guardDeclarations(const clang::DeclStmt &Decls,
                              llvm::StringRef Live, llvm::StringRef Where,
                              std::vector<GuardedDeclaration> &Out,
                              clang::ASTContext &Ctx);

struct ReturnFold {
  std::vector<const clang::IfStmt *> EarlyReturns;
  std::string Live; ///< "!(C1) && !(C2)"; empty when there is none.
  /// Top-level statements after the first folded return, other than
  /// \p Anchor and declarations, that must run under Live.
  std::vector<const clang::Stmt *> Guarded;
  /// Top-level declarations after the first folded return that read
  /// memory: they get their value only where Live holds.
  std::vector<GuardedDeclaration> Declarations;
};

/// The fold for a rewrite that adds barriers in \p Anchor, a top-level
/// statement of \p Kernel; an Illegal LegalityError when some return
/// cannot be folded (not a top-level `if (C) return;` before the end of
/// Anchor), a declaration after it reads memory and cannot be guarded
/// (guardedZero), or a barrier would end up guarded. With
/// \p BarriersInAnchor false the barriers go just before Anchor, so returns
/// inside and after it are harmless.
llvm::Expected<ReturnFold> foldEarlyReturns(const clang::FunctionDecl &Kernel,
                                            const clang::Stmt &Anchor,
                                            clang::ASTContext &Ctx,
                                            bool BarriersInAnchor = true);

} // namespace optiml

#endif // OPTIML_ANALYSIS_LEGALITY_GUARDTERMS_H
