//===- CopyPhase.h - where a tile loop fills its shared tiles ---*- C++ -*-===//
//
// A tiled loop starts each iteration by copying a tile of global memory
// into `__shared__` arrays, element by element, before its first barrier:
//
//   As[ty][tx] = A[row * K + t * TILE + tx];                 // plain
//   As[w][c] = (i < k) ? A[row * k + i] : float(0);          // guarded
//   if (i < k) As[w][c] = A[row * k + i]; else As[w][c] = 0; // the same
//
// possibly inside copy loops and beside the locals they compute. Issuing
// the copy of a later tile early (with cp.async, into another buffer) is
// sound when the phase does nothing else: it writes only its own locals
// and whole elements of the arrays, it reads only the loop variable, its
// own locals, values the loop never changes and read-only buffers, and the
// set of elements it writes is the same for every tile (so that a buffer
// used every N tiles holds what the single array held). CopyPhase finds
// the copies and checks those rules, one refusal each.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_PIPELINESHARED_COPYPHASE_H
#define OPTIML_TRANSFORMS_PIPELINESHARED_COPYPHASE_H

#include "optiml/Analysis/Legality/LoopInfo.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace optiml {

/// One element copied from global to shared memory.
struct ElementCopy {
  /// The statement that copies (an assignment, or an if/else pair of
  /// them): what the rewrite replaces.
  const clang::Stmt *Statement = nullptr;
  /// `Buf[..][..]`, the whole element written, and its array.
  const clang::Expr *Target = nullptr;
  const clang::VarDecl *Buffer = nullptr;
  /// `P[index]`, the element read, and its pointer parameter.
  const clang::ArraySubscriptExpr *Source = nullptr;
  const clang::ParmVarDecl *SourceBuffer = nullptr;
  /// When set, the element is copied only where Guard holds (where it does
  /// not hold, when Negated), and Fill is stored elsewhere.
  const clang::Expr *Guard = nullptr;
  bool Negated = false;
  const clang::Expr *Fill = nullptr;
  /// Fill is a zero of the element type, which cp.async writes itself.
  bool ZeroFill = false;
  clang::QualType Element;
  uint64_t Bytes = 0;
};

class CopyPhase {
public:
  /// The copies of \p Stmts, the statements of \p L's body before its first
  /// barrier; a LegalityError at the first statement or expression that
  /// breaks the rules above.
  static llvm::Expected<CopyPhase>
  analyze(llvm::ArrayRef<const clang::Stmt *> Stmts, const CanonicalLoop &L,
          const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx);

  const std::vector<ElementCopy> &copies() const { return Copies; }
  /// The `__shared__` arrays written, in the order of their first copy.
  const std::vector<const clang::VarDecl *> &buffers() const { return Buffers; }
  /// Whether \p V is declared in the phase (the rewrite moves those
  /// declarations into a block of their own).
  bool declares(const clang::VarDecl &V) const { return Locals.contains(&V); }

private:
  std::vector<ElementCopy> Copies;
  std::vector<const clang::VarDecl *> Buffers;
  llvm::SmallPtrSet<const clang::VarDecl *, 8> Locals;

  friend class CopyPhaseWalker;
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_PIPELINESHARED_COPYPHASE_H
