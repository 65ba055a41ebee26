//===- StmtAccesses.h - what statements read and write ---------*- C++ -*-===//
//
// Moving statements past each other (loop fission, loop fusion) is sound
// only when what they read and write allows it. For a run of statements
// this collects every load and store with the object it reaches (a pointer
// parameter, an array, a global) and its element offset as an
// IndexPolynomial, the variables the statements use, write or declare,
// and the first thing that may not be moved at all: a barrier, a call with
// side effects, a jump out of the run. Anything it cannot follow is kept
// as unknown, never dropped, so that a dependence test on these facts
// errs on the side of refusing.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_LEGALITY_STMTACCESSES_H
#define OPTIML_ANALYSIS_LEGALITY_STMTACCESSES_H

#include "optiml/Analysis/Legality/IndexPolynomial.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>
#include <vector>

namespace optiml {

/// One load or store through a pointer, an array or a variable in memory.
struct MemoryAccess {
  const clang::Expr *Where = nullptr; ///< The lvalue: `A[i]`, `*p`, `p->x`.
  /// The pointer parameter, array or global variable the address starts
  /// from; null when that is unknown (a pointer assigned in the kernel or
  /// loaded from memory, a reference); Why then says why.
  const clang::VarDecl *Root = nullptr;
  /// The element's distance from Root's start, in Root's scalar elements;
  /// nothing when it is not a polynomial (Why says why).
  std::optional<IndexPolynomial> Offset;
  std::string Why;
  bool Reads = false;
  bool Writes = false;
};

/// A part of the statements that may not change places with others.
struct OrderHazard {
  const clang::Stmt *Where = nullptr;
  /// A phrase that follows "the statements ...": "call '__syncthreads',
  /// which synchronizes threads".
  std::string What;
};

class StmtAccesses {
public:
  /// The accesses of \p Stmts, which run one after the other; a `break` or
  /// `continue` inside a loop or switch of theirs stays inside them and is
  /// no hazard.
  StmtAccesses(llvm::ArrayRef<const clang::Stmt *> Stmts,
               clang::ASTContext &Ctx);

  llvm::ArrayRef<MemoryAccess> memory() const { return Memory; }
  /// Every variable referenced, in order of first reference.
  llvm::ArrayRef<const clang::VarDecl *> used() const { return Used; }
  /// Every variable declared, in order.
  llvm::ArrayRef<const clang::VarDecl *> declared() const { return Declared; }
  /// The first reference to \p V, or null.
  const clang::DeclRefExpr *firstUse(const clang::VarDecl &V) const {
    return FirstUse.lookup(&V);
  }
  /// The first reference that may change the value of the local variable
  /// \p V (assigned, incremented, its address taken), or null.
  const clang::DeclRefExpr *firstWrite(const clang::VarDecl &V) const {
    return FirstWrite.lookup(&V);
  }
  bool declares(const clang::VarDecl &V) const {
    return llvm::is_contained(Declared, &V);
  }
  /// The first part that may not be moved, or nothing.
  const std::optional<OrderHazard> &hazard() const { return Hazard; }

  /// Replaces the variable \p From by \p To in every offset: the accesses
  /// of a loop whose induction variable is renamed.
  void renameInOffsets(const clang::VarDecl &From, const clang::VarDecl &To);

private:
  void visit(const clang::Stmt *S);
  void noteVariable(const clang::DeclRefExpr &Ref);
  void noteAccess(const clang::Expr &Lvalue, const clang::Expr &Base,
                  const clang::Expr *Index);
  void noteCall(const clang::CallExpr &Call);
  void noteHazard(const clang::Stmt &Where, std::string What);
  void findJumps(const clang::Stmt *S, bool InLoop, bool InSwitch);

  clang::ASTContext &Ctx;
  std::vector<MemoryAccess> Memory;
  std::vector<const clang::VarDecl *> Used, Declared;
  llvm::DenseMap<const clang::VarDecl *, const clang::DeclRefExpr *> FirstUse,
      FirstWrite;
  std::optional<OrderHazard> Hazard;
};

} // namespace optiml

#endif // OPTIML_ANALYSIS_LEGALITY_STMTACCESSES_H
