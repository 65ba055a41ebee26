//===- CeilDiv.h - grid sizes written as ceil(N / B) ----------*- C++ -*-===//
//
// A launch covers N threads with ceil(N / B) blocks of B. When B changes,
// the grid must change with it, which is only possible when the grid is
// written in a form whose N and B can be told apart. Host code spells it
// many ways; B is often a variable or a member of the launch's dim3.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_LEGALITY_CEILDIV_H
#define OPTIML_ANALYSIS_LEGALITY_CEILDIV_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <optional>

namespace optiml {

struct CeilDiv {
  /// N as written (without arithmetic casts); its text is kept when the
  /// grid is rewritten.
  const clang::Expr *Count = nullptr;
  /// For `ceil_div(N, B)`-like calls, the callee; null for arithmetic.
  const clang::Expr *Callee = nullptr;
  /// Written `N / B`, which rounds down: it covers N only when B divides
  /// N, which code that guards its index past N does not need.
  bool Truncates = false;
};

/// Recognizes \p E as ceil(N / \p Block) written as `(N + B - 1) / B`,
/// `(N + (B - 1)) / B`, `(N - 1) / B + 1`, `N / B + (N % B != 0)` (or a
/// conditional on the remainder: `N / B + (!(N % B) ? 0 : 1)`),
/// `ceil((float)N / B)` (any arithmetic casts) or a two-argument call whose
/// name contains "div" or "ceil" (`ceil_div(N, B)`, `DIV_UP(N, B)`), where B
/// has the value \p Block (a constant, or a variable or dim3 member that
/// keeps one: LaunchConfig::traced). With \p AllowTruncating, also `N / B`.
std::optional<CeilDiv> matchCeilDiv(const clang::Expr *E, uint64_t Block,
                                    clang::ASTContext &Ctx,
                                    bool AllowTruncating = false);

} // namespace optiml

#endif // OPTIML_ANALYSIS_LEGALITY_CEILDIV_H
