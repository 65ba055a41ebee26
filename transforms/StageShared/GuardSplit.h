//===- GuardSplit.h - run a guarded loop in every thread --------*- C++ -*-===//
//
// Naive kernels put their whole body under a bounds guard:
//
//   if (i < ni && j < nj) { acc = 0; for (k...) acc += A[..] * B[..]; ... }
//
// A staged loop has barriers, which every thread of the block must reach,
// so the loop has to run in the threads the guard turns away too (they
// still load their share of each tile) while the work it guards does not.
// The split keeps the guard's braces as a plain block, puts each statement
// around the loop under the guard's condition, and lets the staging guard
// the loop's body with it. The condition is repeated as written (it reads
// no memory and its variables never change), so later analyses of the
// result still see the bounds it states. Guards that are the same for the
// whole block (`if (0 < nk)`) stay as they are: all threads take them
// together.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_STAGESHARED_GUARDSPLIT_H
#define OPTIML_TRANSFORMS_STAGESHARED_GUARDSPLIT_H

#include "optiml/Analysis/Legality/GuardTerms.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace optiml {

/// How the statements between a kernel's body and a loop are rewritten so
/// that every thread runs the loop.
struct GuardSplit {
  /// The top-level statement that holds the loop (the loop itself when it
  /// is one).
  const clang::Stmt *Top = nullptr;
  /// Guards that differ between threads, outermost first: `if (C) {`
  /// becomes `{` (for a branch without braces, the branch gets them).
  std::vector<const clang::IfStmt *> Opened;
  /// Guards that are the same for the whole block, left as they are; their
  /// conditions hold wherever the loop runs.
  std::vector<const clang::IfStmt *> Kept;

  /// A statement beside the path to the loop, with the condition it runs
  /// under from now on.
  struct Guarded {
    const clang::Stmt *S = nullptr;
    std::string Live;
  };
  std::vector<Guarded> Statements;
  /// Locals whose initializers read memory: `(Live) ? init : Zero`.
  std::vector<GuardedDeclaration> Declarations;

  /// The condition the loop's body runs under: the early returns' Live and
  /// the opened guards' conditions; empty when there is none.
  std::string Live;
};

class GuardSplitter {
public:
  /// The split for \p Loop in \p Kernel, whose early returns before it
  /// fold as \p Fold (their conditions join the guards'). With \p Staged
  /// the loop is one an earlier staging made, which no guard that differs
  /// between threads may hold. An Illegal LegalityError when the loop is
  /// nested in something else (a loop, a switch, an `else`), a guard is not
  /// a conjunction of bound checks, or a statement under a guard cannot
  /// stay guarded.
  static llvm::Expected<GuardSplit> split(const clang::FunctionDecl &Kernel,
                                          const clang::ForStmt &Loop,
                                          const ReturnFold &Fold, bool Staged,
                                          clang::ASTContext &Ctx);
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_STAGESHARED_GUARDSPLIT_H
