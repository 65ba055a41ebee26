//===- CoarsenLegality.h - may threads compute F outputs each? -*- C++ -*-===//
//
// Coarsening along dimension D by F makes each thread run the work of F
// blocks of the original grid (virtual blocks blockIdx.D * F + c, c < F),
// jammed statement by statement, and divides the grid by F. It is sound
// when:
//   * blockIdx.D reaches the code only through index variables (locals
//     computed once from it), which can be recomputed for each copy c;
//   * the copies are independent: a buffer the kernel writes is accessed
//     only at one index that depends on the copy, so copies touch distinct
//     elements, or only by atomic updates whose old value is unused
//     (AtomicUpdates: they commute, wherever they land), and nothing else
//     is shared or written (no __shared__, no barriers, no other atomics,
//     no global variables);
//   * the extra copies of the last blocks (the new grid rounds up by B * F)
//     are stopped by a bounds check before they touch memory;
//   * every launch is in this file with a grid written as ceil(N / B).
// The analysis also says, statement by statement, how the rewrite treats
// the body (JamAction), so that the mechanism only prints.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_COARSEN_COARSENLEGALITY_H
#define OPTIML_TRANSFORMS_COARSEN_COARSENLEGALITY_H

#include "optiml/Analysis/Legality/LaunchShape.h"

#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Error.h"

namespace optiml {

/// What coarsening does with a statement of the kernel body.
enum class JamAction {
  Keep,      ///< Independent of the copy: runs once for all of them.
  Drop,      ///< Declares index variables, re-declared in each jam loop.
  Guard,     ///< `if (COND) return;` on the copy: later statements that
             ///< touch memory get `if (!(COND))` in their jam loop.
  GuardBlock, ///< `if (COND) { ... }` ending the kernel, on the copy: as
              ///< a Guard on !(COND) followed by its statements, which are
              ///< walked in its place.
  Privatize, ///< Declares a variable each copy needs its own of (`T v[F]`).
  Descend,   ///< A block, or a loop or if whose header is the same for all
             ///< copies: kept once, its body walked.
  Jam,       ///< Runs once per copy, inside a jam loop.
};

/// How to coarsen one kernel, for a dimension and factor that are legal.
struct CoarsenPlan {
  unsigned Dim = 0;    ///< 0 for x, 1 for y.
  unsigned Factor = 4; ///< Copies per thread.
  /// Every launch of the kernel, with its grid dimension Dim as ceil(N / B).
  std::vector<LaunchShape> Launches;
  /// The dimension-Dim index variables, in declaration order.
  std::vector<const clang::VarDecl *> IndexVars;
  /// The action for each statement at a walked position: the kernel body's
  /// statements and, recursively, those of Descend statements.
  llvm::DenseMap<const clang::Stmt *, JamAction> Actions;
  /// Variables declared by Privatize statements.
  llvm::SmallPtrSet<const clang::VarDecl *, 8> Private;
  /// Jam and Privatize statements that touch memory after a Guard.
  llvm::SmallPtrSet<const clang::Stmt *, 8> Guarded;

  JamAction actionOf(const clang::Stmt *S) const {
    auto It = Actions.find(S);
    return It == Actions.end() ? JamAction::Keep : It->second;
  }
  bool isIndexVar(const clang::VarDecl *V) const {
    return llvm::is_contained(IndexVars, V);
  }
  /// `optiml_cx` or `optiml_cy`: the copy's loop variable.
  std::string copyVar() const { return Dim ? "optiml_cy" : "optiml_cx"; }
};

class CoarsenLegality {
public:
  /// The plan for coarsening \p Kernel along \p Dim by \p Factor, or an
  /// Illegal / NotApplicable LegalityError with the first reason.
  static llvm::Expected<CoarsenPlan> analyze(const clang::FunctionDecl &Kernel,
                                             unsigned Dim, unsigned Factor,
                                             clang::ASTContext &Ctx);

  /// Whether \p Kernel reads blockIdx in dimension \p Dim.
  static bool readsBlockIdx(const clang::FunctionDecl &Kernel, unsigned Dim);
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_COARSEN_COARSENLEGALITY_H
