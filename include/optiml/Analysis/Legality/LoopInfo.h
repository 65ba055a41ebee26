//===- LoopInfo.h - canonical for-loops and loop invariance -----*- C++ -*-===//
//
// Loop transforms (tile, hoist, ...) need to know a loop's induction
// variable, bounds and step, and which expressions cannot change while it
// runs. Both answers are conservative: a loop is canonical, and an
// expression invariant, only when the AST proves it.
//
// It lives in Analysis/Legality, not Analysis, because refusals are
// LegalityErrors (optimlLegality depends on optimlAnalysis, not the other
// way round) and invariance needs CudaBuiltins.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_LEGALITY_LOOPINFO_H
#define OPTIML_ANALYSIS_LEGALITY_LOOPINFO_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>

namespace optiml {

/// A for-loop in the form `for (init; IV cmp Bound; step)`.
struct CanonicalLoop {
  const clang::ForStmt *For = nullptr;
  /// Declared in the init (`int i = lo`) or assigned there (`i = lo`).
  const clang::VarDecl *IV = nullptr;
  const clang::Expr *Lower = nullptr; ///< The initial value expression.
  const clang::Expr *Bound = nullptr; ///< The other operand of the condition.
  /// Normalized so that it reads `IV Cmp Bound`: BO_LT, BO_LE, BO_GT, BO_GE
  /// or BO_NE.
  clang::BinaryOperatorKind Cmp = clang::BO_LT;
  /// Constant increment per iteration (++i: 1, i += 4: 4, --i: -1,
  /// i -= 2: -2); 0 for a grid- or block-stride loop.
  int64_t Step = 0;
  /// The step of a grid-stride loop (`i += blockDim.x * gridDim.x`) or of a
  /// block-stride one (`i += blockDim.x`): the grid's or the block's thread
  /// count, positive and the same for every iteration. Only analyzeLoop's
  /// callers that ask for it get such loops.
  const clang::Expr *ThreadStride = nullptr;
  /// When Lower, Bound and Step are integer constants (and the loop ends
  /// without the IV leaving its type's range).
  std::optional<int64_t> TripCount;
  bool increasing() const { return ThreadStride || Step > 0; }
};

/// The canonical form of \p For, or a NotApplicable LegalityError saying why
/// not: no single integer IV, condition not a comparison of the IV, step not
/// a constant add/sub (i *= 2, i /= 2, i >>= 1 are not canonical), the IV
/// assigned in the body, the bound (or a variable it reads) assigned in the
/// loop, or the bound containing a call or a memory read that the loop may
/// change.
/// With \p AllowThreadStride, a step that is the grid's or the block's
/// thread count along a dimension is accepted too, as ThreadStride.
llvm::Expected<CanonicalLoop> analyzeLoop(const clang::ForStmt &For,
                                          clang::ASTContext &Ctx,
                                          bool AllowThreadStride = false);

/// "a while-loop", "a do-loop" or "a range-for loop", for refusals.
const char *loopKindOf(const clang::Stmt &Loop);

/// \p Loop as a for-loop whose header and end are written in the main file
/// outside macros, so that a rewrite can copy or replace them; otherwise a
/// NotApplicable LegalityError: "'SITE' is a while-loop; " + \p NeedsFor, or
/// "'SITE' is written inside a macro; " + \p InMacro.
llvm::Expected<const clang::ForStmt *> rewritableFor(const clang::Stmt &Loop,
                                                     llvm::StringRef Site,
                                                     llvm::StringRef NeedsFor,
                                                     llvm::StringRef InMacro,
                                                     clang::ASTContext &Ctx);

/// The trip count of \p Loop when it is a canonical for-loop whose bounds
/// and step the AST proves constant (CanonicalLoop::TripCount), or nothing.
std::optional<int64_t> constantTripCount(const clang::Stmt &Loop,
                                         clang::ASTContext &Ctx);

/// N for a loop `for (int c = 0; c < N; ++c)` with a constant N (the form of
/// coarsening copies), or nothing.
std::optional<int64_t> copyLoopTrips(const clang::ForStmt &For,
                                     clang::ASTContext &Ctx);

/// Whether \p E's value cannot change while \p Loop runs: it reads no
/// variable assigned in the loop (including the IV) or declared in it, no
/// memory written in the loop, calls nothing but pure math builtins;
/// threadIdx/blockIdx/blockDim/gridDim are invariant.
bool isLoopInvariant(const clang::Expr &E, const clang::Stmt &Loop,
                     clang::ASTContext &Ctx);

/// The first part of an expression that may change while a loop runs.
struct LoopVariance {
  const clang::Expr *Where = nullptr;
  /// A phrase to follow the expression's description: "reads 'n', which is
  /// assigned in the loop".
  std::string Reason;
};

/// Why \p E is not loop-invariant in \p Loop, or nothing when it is
/// (exactly when isLoopInvariant says yes).
std::optional<LoopVariance> whyLoopVariant(const clang::Expr &E,
                                           const clang::Stmt &Loop,
                                           clang::ASTContext &Ctx);

/// Whether \p Call is a side-effect-free math function (sqrtf, min, __mul24,
/// ...) from the CUDA or C library headers, not a user function of that name.
bool isPureMathCall(const clang::CallExpr &Call, const clang::ASTContext &Ctx);

/// The largest value of the integer type \p T (wide enough for any bound
/// plus a step without overflowing itself).
__int128 maxValueOf(clang::QualType T, const clang::ASTContext &Ctx);

/// When \p L's bound is an integer constant, the IV's value at the bound's
/// side of the range (bound - 1 for `<`, the bound itself otherwise), so
/// that rewrites that test past it can check the IV's type; nothing for
/// other bounds; Illegal when the bound does not fit in 64 bits.
llvm::Expected<std::optional<__int128>>
constantBoundValue(const CanonicalLoop &L, clang::ASTContext &Ctx);

} // namespace optiml

#endif // OPTIML_ANALYSIS_LEGALITY_LOOPINFO_H
